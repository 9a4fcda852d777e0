/**
 * Qur'an QA 2023's part of the systems report, evaluated: the user's runs read and checked by
 * the submission checker's rules, the kit's BM25 ranked over the collection, each scored as the
 * official script scores it and under the complete protocol, the family of paired tests over
 * the complete protocol's per-question values, the pair, and the published rows. Loaded by
 * ./report_part.ts when a report has Qur'an QA 2023 runs.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { defaultCacheDir, isInstalled } from "../data/paths.ts";
import { familyPairs, sameTestLines, testFamily } from "../stats/family.ts";
import { signTest } from "../stats/sign_test.ts";
import { QQA23_SPLITS, type Qqa23Split, qqa23SplitFiles } from "./load.ts";
import { evaluateQqa23, type Qqa23Evaluation } from "./official.ts";
import { type Qqa23Qrels, readQqa23Qrels } from "./qrels.ts";
import { checkQqa23FileName, parseQqa23Run, qqa23RunWarnings, readQqa23Run } from "./run_file.ts";
import type { Qqa23RunLike } from "./run_file.ts";
import { scoreQqa23Split } from "./retrieve.ts";
import {
  PUBLISHED_QQA23,
  QQA23_BASELINE,
  QQA23_MEASURES,
  type Qqa23ReportData,
  type Qqa23ReportSystem,
  type Qqa23Spec,
} from "./report_part.ts";

function fileName(path: string): string {
  return path.replace(/^.*\//, "");
}

/**
 * Refuses a run that answers another split's questions: fewer than half of its questions judged
 * here, and more in another split's qrels (it would score 0 on every question it misses).
 */
async function checkSplitOf(
  run: Qqa23RunLike,
  qrels: Qqa23Qrels,
  split: string,
  name: string,
  path: string,
): Promise<void> {
  const asked = [...run.questions.keys()];
  const judged = (q: Qqa23Qrels) =>
    asked.filter((id) => q.judged.has(id) || q.zeroAnswer.includes(id)).length;
  const here = judged(qrels);
  if (asked.length === 0 || here * 2 >= asked.length) return;
  let best: [string, number] | undefined;
  for (const other of QQA23_SPLITS.filter((s) => s !== split)) {
    const n = judged(await readQqa23Qrels(qqa23SplitFiles(other).qrels));
    if (n > here && (!best || n > best[1])) best = [other, n];
  }
  throw new KitError(
    `Qur'an QA 2023 run '${name}': ${here} of its ${asked.length} questions are judged in ` +
      `${split}${
        best
          ? `, ${best[1]} in ${best[0]}: a run of the ${best[0]} split? give --split ${best[0]}`
          : ""
      }`,
    { file: path },
  );
}

/** One system's numbers from its evaluation. */
function systemOf(
  name: string,
  kind: "user" | "baseline",
  e: Qqa23Evaluation,
  path?: string,
): Qqa23ReportSystem {
  return {
    name,
    kind,
    ...(path ? { path } : {}),
    official: { map_cut_10: e.official.map_cut_10, recip_rank: e.official.recip_rank },
    complete: { map_cut_10: e.complete.map_cut_10, recip_rank: e.complete.recip_rank },
    officialQuestions: e.perQuestion.reduce((n, q) => n + q.weight, 0),
    missing: e.perQuestion.filter((q) => !q.inRun).length,
    differences: e.differences,
    perQuestion: Object.fromEntries(
      e.perQuestion.map((q) => [q.qid, { map_cut_10: q.map_cut_10, recip_rank: q.recip_rank }]),
    ),
  };
}

/**
 * Evaluates the Qur'an QA 2023 part of a spec: the installed corpus's split (the corpus has no
 * bundled sample: its licence forbids modified copies), the user's runs and the kit's BM25.
 */
export async function qqa23Report(
  spec: Qqa23Spec,
  data: "real" | "sample" | undefined,
  log: (line: string) => void,
): Promise<Qqa23ReportData> {
  if (data === "sample" || !isInstalled("qqa23")) {
    throw new KitError(
      data === "sample"
        ? "Qur'an QA 2023 has no bundled sample (its licence, CC BY-NC-ND 4.0, forbids modified " +
          "copies): judge the runs on the fetched corpus (data real)"
        : `the Qur'an QA 2023 corpus is not fetched into ${defaultCacheDir()}: run ` +
          "'./kit data fetch qqa23' first",
    );
  }
  const files = qqa23SplitFiles(spec.split as Qqa23Split);
  const qrels = await readQqa23Qrels(files.qrels);
  log(
    `Qur'an QA 2023 runs: ${spec.split}, ${qrels.judged.size + qrels.zeroAnswer.length} judged ` +
      `questions (${qrels.zeroAnswer.length} zero-answer), the fetched corpus`,
  );
  const warnings: { system: string; file: string; text: string }[] = [];
  const runs: [string, Qqa23RunLike, string | undefined][] = [];
  for (const r of spec.runs) {
    const run = await readQqa23Run(r.path);
    await checkSplitOf(run, qrels, spec.split, r.name, r.path);
    const named = checkQqa23FileName(r.path);
    for (
      const text of [...(named ? [named] : []), ...run.warnings, ...qqa23RunWarnings(run, qrels)]
    ) {
      warnings.push({ system: r.name, file: fileName(r.path), text });
      log(`Qur'an QA 2023 run ${JSON.stringify(r.name)} (${fileName(r.path)}): warning: ${text}`);
    }
    runs.push([r.name, run, r.path]);
  }
  if (spec.baselines) {
    const t0 = performance.now();
    const scored = await scoreQqa23Split("lexical:bm25", spec.split, { tag: "kit_bm25" });
    runs.push([QQA23_BASELINE, parseQqa23Run(scored.text, QQA23_BASELINE), undefined]);
    log(
      `scored the baseline ${QQA23_BASELINE} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
  }
  const systems = runs.map(([name, run, path]) =>
    systemOf(name, path ? "user" : "baseline", evaluateQqa23(qrels, run), path)
  );
  const names = QQA23_MEASURES.map((m) => m.name);
  const values = new Map(systems.map((s) => [
    s.name,
    new Map(Object.entries(s.perQuestion).map(([q, v]) => [q, { ...v }])),
  ]));
  const users = systems.filter((s) => s.kind === "user").map((s) => s.name);
  const baselines = systems.filter((s) => s.kind === "baseline").map((s) => s.name);
  // As answer selection's default family: your runs among themselves and against each baseline.
  const pairs = familyPairs(users, baselines, "all");
  const family = pairs.length ? testFamily(values, pairs, names) : undefined;
  for (const i of family?.identical ?? []) {
    log(
      `warning: ${JSON.stringify(i.a)} and ${JSON.stringify(i.b)} are equal on every question ` +
        `(${i.measure}): one system under two names, not tested and not counted in m`,
    );
  }
  for (const line of family ? sameTestLines(family, (m) => m) : []) log(`note: ${line}`);
  const identical = (a: string, b: string) =>
    family?.identical.some((i) =>
      i.measure === "map_cut_10" && ((i.a === a && i.b === b) || (i.a === b && i.b === a))
    ) ?? false;
  // The pair: the one asked, else the two best by the official MAP@10 (with one system of
  // yours: it against the kit's BM25).
  const ranked = [...systems].sort((x, y) =>
    (y.official.map_cut_10 || 0) - (x.official.map_cut_10 || 0)
  );
  // Never a pair equal on every question: the best user run, and the next best (yours first,
  // then a baseline) that is not the same run.
  const best = ranked.find((s) => s.kind === "user");
  const partner = best && [
    ...ranked.filter((s) => s.kind === "user"),
    ...ranked.filter((s) => s.kind === "baseline"),
  ].find((s) => s.name !== best.name && !identical(best.name, s.name));
  const chosen = spec.compare ?? (best && partner ? [best.name, partner.name] : undefined);
  let pair: Qqa23ReportData["pair"];
  if (chosen) {
    const [a, b] = chosen.map((n) => systems.find((s) => s.name === n)!);
    const questions = Object.keys(a.perQuestion);
    pair = {
      a: a.name,
      b: b.name,
      outcomes: QQA23_MEASURES.map((m) => {
        const va = questions.map((q) => a.perQuestion[q][m.name]);
        const vb = questions.map((q) => b.perQuestion[q][m.name]);
        const t = signTest(va, vb);
        return { measure: m.name, wins: t.wins, losses: t.losses, ties: t.ties, p: t.p };
      }),
      questions: questions
        .map((q) => ({
          question: q,
          a: a.perQuestion[q].map_cut_10,
          b: b.perQuestion[q].map_cut_10,
        }))
        .sort((x, y) =>
          Math.abs(y.a - y.b) - Math.abs(x.a - x.b) || (x.question < y.question ? -1 : 1)
        )
        .slice(0, 10),
    };
  }
  return {
    split: spec.split,
    judged: qrels.judged.size + qrels.zeroAnswer.length,
    zeroAnswer: qrels.zeroAnswer.length,
    systems,
    warnings,
    ...(family
      ? {
        family: {
          size: family.size,
          level: family.level,
          tests: family.tests.map((t) => ({
            measure: t.measure,
            a: t.a,
            b: t.b,
            difference: t.difference,
            t: t.t,
            df: t.df,
            effectSize: t.effectSize,
            same: t.same,
            lower: t.lower,
            upper: t.upper,
            p: t.p,
            pAdjusted: t.pAdjusted,
            significant: t.significant,
          })),
          identical: family.identical.map((i) => ({ measure: i.measure, a: i.a, b: i.b })),
        },
      }
      : {}),
    ...(pair ? { pair } : {}),
    published: PUBLISHED_QQA23.filter((p) => p.split === spec.split),
  };
}
