/**
 * Qur'an QA 2023's part of the systems report (page 00, section `qqa23`): the user's Task A runs
 * (`./kit report --dataset qqa23 --split S --run NAME=RUN ...`, or `qqa23: { split, runs }` in a
 * spec) beside the kit's BM25, with MAP@10 and MRR as the official script computes them and
 * under the complete protocol (every judged question once, a missing one 0), the family of
 * paired t-tests over the complete protocol's per-question values (the official rules drop some
 * questions and count others twice, so their values are not paired question by question), the
 * pair, and the organisers' published baseline. The spec parsing and the formatting are here
 * (light); reading and scoring are ./report.ts, loaded when a report has such runs.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { csvText } from "../io/escape.ts";
import { table } from "../plot/table.ts";
import { note, type RunLine, warningsBlock } from "../report/notebook/blocks.ts";
import { checkSystemName, parseSystemArg } from "../report/systems/spec_names.ts";
import { basename, isFile, resolvePath } from "../io/path.ts";
import { loadExport } from "../tasks/load.ts";
import type { PartData, PartSpec, ReportPart } from "../tasks/task.ts";
import { testName } from "../stats/family.ts";

/** The Qur'an QA 2023 part of a resolved spec. */
export interface Qqa23Spec {
  /** `train`, `dev` or `test` (default test). */
  split: string;
  runs: { name: string; path: string }[];
  /** The pair of the error analysis (default: your two best by MAP@10, or yours and BM25). */
  compare?: [string, string];
  /** The kit's BM25 beside your runs (default true). */
  baselines: boolean;
}

/** The two measures, as the official script names them. */
export const QQA23_MEASURES = [
  { name: "map_cut_10", label: "MAP@10" },
  { name: "recip_rank", label: "MRR" },
] as const;

/** One system's numbers on the page. */
export interface Qqa23ReportSystem {
  name: string;
  kind: "user" | "baseline";
  /** The user's run file. */
  path?: string;
  /** As `QQA23_TaskA_eval.py` computes them. */
  official: { map_cut_10: number; recip_rank: number };
  /** Every judged question once, a missing one 0. */
  complete: { map_cut_10: number; recip_rank: number };
  /** The values the official mean counts (a missing zero-answer question twice, ...). */
  officialQuestions: number;
  /** Judged questions the run leaves out. */
  missing: number;
  /** Why the two protocols differ, one sentence per rule (empty when they agree). */
  differences: string[];
  /** Question id to its complete-protocol values. */
  perQuestion: Record<string, { map_cut_10: number; recip_rank: number }>;
}

/** A published Task A result. */
export interface PublishedQqa23 {
  system: string;
  split: string;
  map_cut_10: number;
  recip_rank: number;
  source: string;
}

/**
 * The published Task A numbers the kit can cite: the organisers' BM25 baseline on dev, from
 * their notebook (Terrier BM25 with Snowball stemming and stopwords). No test-set figure is
 * listed: none could be confirmed here from a public copy.
 */
export const PUBLISHED_QQA23: readonly PublishedQqa23[] = [{
  system: "bigIR_BM25 (organisers' baseline)",
  split: "dev",
  map_cut_10: 0.1703,
  recip_rank: 0.3133,
  source: "Qur'an QA 2023 Task A repository, Task-A/code/BM25_baseline.ipynb (Terrier BM25, " +
    "Snowball stemming)",
}];

/** What the part evaluated (systems.json's `qqa23`). */
export interface Qqa23ReportData {
  split: string;
  /** Judged questions (with answers and zero-answer). */
  judged: number;
  zeroAnswer: number;
  systems: Qqa23ReportSystem[];
  warnings: RunLine[];
  /** Paired t over the complete protocol's values, Bonferroni over the pairs of a measure. */
  family?: {
    size: number;
    level: number;
    tests: {
      measure: string;
      a: string;
      b: string;
      difference: number;
      /** The paired t statistic, its degrees of freedom, and d_z (FamilyTest's). */
      t: number;
      df: number;
      effectSize: number;
      /** The other pairs this test stands for (runs identical on every question). */
      same: [string, string][];
      lower: number;
      upper: number;
      p: number;
      pAdjusted: number;
      significant: boolean;
    }[];
    identical: { measure: string; a: string; b: string }[];
  };
  pair?: {
    a: string;
    b: string;
    /** Wins, losses and ties over the questions, and the sign test's raw p (not corrected). */
    outcomes: { measure: string; wins: number; losses: number; ties: number; p: number }[];
    /** The ten questions where their AP@10 differs most. */
    questions: { question: string; a: number; b: number }[];
  };
  published: PublishedQqa23[];
}

/** The kit's baseline beside Qur'an QA 2023 runs. */
export const QQA23_BASELINE = "qqa23 BM25 (kit)";

const SPLITS = ["train", "dev", "test"];

const data = (d: PartData) => d as unknown as Qqa23ReportData;
const spec = (p: PartSpec) => p as unknown as Qqa23Spec;
const users = (d: PartData) => data(d).systems.filter((s) => s.kind === "user");
const fmt = (x: number) => Number.isFinite(x) ? x.toFixed(4) : String(x);

function checkSplit(split: string, where: string): string {
  if (!SPLITS.includes(split)) {
    throw new KitError(`${where}: unknown qqa23 split '${split}' (expected: ${SPLITS.join(", ")})`);
  }
  return split;
}

function checkCompare(
  compare: string[] | undefined,
  names: string[],
  where: string,
): [string, string] | undefined {
  if (compare === undefined) return undefined;
  if (compare.length !== 2 || compare[0] === compare[1]) {
    throw new KitError(`${where}: give two different systems, A,B`);
  }
  for (const n of compare) {
    if (!names.includes(n)) {
      throw new KitError(`${where}: no system is named '${n}' (the systems: ${names.join(", ")})`);
    }
  }
  return [compare[0], compare[1]];
}

/**
 * The part of a spec, checked: a known split, and a `compare` pair of two different systems of
 * the part (the kit's BM25 among them unless `baselines` is false). `where(field)` names a field
 * in a message (`--split`, or `spec: qqa23.split`).
 */
function partSpec(
  split: string,
  runs: { name: string; path: string }[],
  compare: string[] | undefined,
  baselines: boolean,
  where: (field: string) => string,
): Qqa23Spec & PartSpec {
  const checked = checkSplit(split, where("split"));
  const names = [...runs.map((r) => r.name), ...(baselines ? [QQA23_BASELINE] : [])];
  const pair = checkCompare(compare, names, where("compare"));
  return { split: checked, runs, ...(pair ? { compare: pair } : {}), baselines };
}

/**
 * One row per question and system: the complete protocol's values (the values the tests pair).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { qqa23Csv } from "./report_part.ts";
 * const csv = qqa23Csv({ systems: [{ name: "=a", kind: "user",
 *   perQuestion: { "7": { map_cut_10: 0.5, recip_rank: 1 } } }] } as never);
 * assert.equal(csv, "system,kind,question,map_cut_10,recip_rank\n'=a,user,7,0.5,1\n");
 * ```
 */
export function qqa23Csv(d: Qqa23ReportData): string {
  const lines = ["system,kind,question,map_cut_10,recip_rank"];
  for (const s of d.systems) {
    for (const [q, v] of Object.entries(s.perQuestion)) {
      lines.push([csvText(s.name), s.kind, csvText(q), v.map_cut_10, v.recip_rank].join(","));
    }
  }
  return lines.join("\n") + "\n";
}

/** Qur'an QA 2023's part of the systems report. */
export const QQA23_REPORT: ReportPart = {
  key: "qqa23",
  title: "Qur'an QA 2023 runs",
  fileNames: ["per-question-qqa23.csv"],
  options: [],
  claims: (flags) =>
    flags.str("dataset") === "qqa23" ? ["dataset", "split", "run", "compare", "no-baselines"] : [],
  runFlag: "--run",
  baselineNames: [QQA23_BASELINE],
  nothing: "No Qur'an QA 2023 run given (--dataset qqa23 --run NAME=RUN).",
  fromFlags(flags, cwd) {
    if (flags.str("dataset") !== "qqa23") return undefined;
    for (const flag of ["model", "filter"]) {
      if (flags.list(flag).length) {
        throw new KitError(
          `--${flag} is for answer selection; with --dataset qqa23 give your runs with --run ` +
            "(make one with ./kit score --model lexical:bm25 --dataset qqa23 --split S --out RUN)",
        );
      }
    }
    const runs = flags.list("run").map((v) => {
      const { name, paths } = parseSystemArg(v, cwd, "--run");
      if (paths.length !== 1) throw new KitError(`--run ${name}: give one Qur'an QA 2023 run file`);
      return { name, path: paths[0] };
    });
    if (runs.length === 0) {
      throw new KitError("--dataset qqa23: give your runs with --run NAME=RUN");
    }
    return partSpec(
      flags.str("split") ?? "test",
      runs,
      flags.str("compare")?.split(",").map((p) => p.trim()),
      !flags.has("no-baselines"),
      (path) => `--${path}`,
    );
  },
  fromSpec(raw, base, where) {
    const shown = (v: unknown) => v === undefined ? "nothing" : JSON.stringify(v);
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      throw new KitError(`${where("qqa23")} must be an object, got ${shown(raw)}`);
    }
    const o = raw as Record<string, unknown>;
    const known = ["split", "runs", "compare", "baselines"];
    const unknown = Object.keys(o).find((k) => !known.includes(k));
    if (unknown) {
      throw new KitError(`${where("qqa23")}: unknown field '${unknown}' (the fields: ${known})`);
    }
    const string = (v: unknown, path: string): string => {
      if (typeof v !== "string") {
        throw new KitError(`${where(path)} must be a string, got ${shown(v)}`);
      }
      return v;
    };
    if (!Array.isArray(o.runs)) {
      throw new KitError(`${where("qqa23.runs")} must be a list, got ${shown(o.runs)}`);
    }
    const runs = o.runs.map((item, i) => {
      if (typeof item !== "object" || item === null) {
        throw new KitError(`${where(`qqa23.runs[${i}]`)} must be an object, got ${shown(item)}`);
      }
      const r = item as Record<string, unknown>;
      const name = checkSystemName(string(r.name, `qqa23.runs[${i}].name`));
      const path = resolvePath(string(r.path, `qqa23.runs[${i}].path`), base);
      if (!isFile(path)) {
        throw new KitError(`Qur'an QA 2023 run '${name}': file not found`, { file: path });
      }
      return { name, path };
    });
    if (o.baselines !== undefined && typeof o.baselines !== "boolean") {
      throw new KitError(`${where("qqa23.baselines")} must be true or false`);
    }
    const compare = o.compare === undefined
      ? undefined
      : Array.isArray(o.compare)
      ? o.compare.map((c, i) => string(c, `qqa23.compare[${i}]`))
      : string(o.compare, "qqa23.compare").split(",");
    const split = o.split === undefined ? "test" : string(o.split, "qqa23.split");
    return partSpec(split, runs, compare, o.baselines !== false, (path) => where(`qqa23.${path}`));
  },
  names: (part) => spec(part).runs.map((r) => r.name),
  inputs: (part) => spec(part).runs.map((r) => ({ label: `--run ${r.name}`, path: r.path })),
  async evaluate(part, corpus, log) {
    const evaluate = await loadExport<
      (s: Qqa23Spec, d: "real" | "sample" | undefined, l: (x: string) => void) => Promise<
        Qqa23ReportData
      >
    >(import.meta.url, "./report.ts", "qqa23Report");
    return await evaluate(spec(part), corpus, log) as unknown as PartData;
  },
  systemRows: (d) =>
    data(d).systems.map((s) => ({
      system: s.name,
      kind: s.kind === "user" ? "yours" : "kit baseline",
      source: s.kind === "user" ? "Qur'an QA 2023 run (TREC)" : "Qur'an QA 2023, scored by the kit",
      runs: 1,
      "run files": s.path ? basename(s.path) : "",
    })),
  show(d) {
    const q = data(d);
    const label = (m: string) => QQA23_MEASURES.find((x) => x.name === m)?.label ?? m;
    const items: unknown[] = [
      warningsBlock(
        q.warnings,
        "No warning: every run passes the submission checker's rules and names only judged " +
          "questions.",
        "Run warnings",
      ),
      table(
        q.systems.map((s) => ({
          system: s.name,
          "MAP@10 (official)": s.official.map_cut_10,
          "MRR (official)": s.official.recip_rank,
          "values in the official mean": s.officialQuestions,
          "MAP@10 (complete)": s.complete.map_cut_10,
          "MRR (complete)": s.complete.recip_rank,
          "missing from the run": s.missing,
        })),
        {
          caption: `Qur'an QA 2023 Task A ${q.split}: ${q.judged} judged questions ` +
            `(${q.zeroAnswer} zero-answer); official: as QQA23_TaskA_eval.py computes them; ` +
            "complete: every judged question once, a missing one 0",
        },
      ),
    ];
    for (const s of q.systems) {
      for (const why of s.differences) items.push(note(`${s.name}: ${why}`));
      if (s.missing > 0 && s.differences.length === 0) {
        items.push(
          note(
            `${s.name} leaves out ${s.missing} judged question(s); the official and complete ` +
              "numbers happen to agree",
          ),
        );
      }
    }
    const f = q.family;
    if (!f) {
      items.push(note("No test: one run and no baseline beside it (--no-baselines)."));
    } else {
      const tested = f.tests.length > 0;
      if (tested) {
        items.push(
          table(
            f.tests.map((t) => ({
              pair: testName(t),
              measure: label(t.measure),
              difference: t.difference,
              t: t.t,
              df: t.df,
              "effect size (d_z)": t.effectSize,
              [`interval (${+(f.level * 100).toFixed(2)}%)`]: `[${fmt(t.lower)}, ${fmt(t.upper)}]`,
              p: t.p,
              [`adjusted p (x${f.size})`]: t.pAdjusted,
              significant: t.significant ? "yes" : "no",
            })),
            {
              caption: `The family: paired t over the ${q.judged} judged questions' complete-` +
                "protocol values, each of your runs against each other and against the kit's " +
                `BM25, Bonferroni over the ${f.size} distinct test(s) of a measure (runs ` +
                "identical on every question are one run: their pairs with a third are one test)",
            },
          ),
        );
      }
      for (const i of f.identical) {
        items.push(
          note(
            `${i.a} and ${i.b} are equal on every question (${label(i.measure)}): one system ` +
              "under two names, not tested and not counted in m",
          ),
        );
      }
      if (!tested) items.push(note("No pair left to test: every pair is identical."));
    }
    if (q.pair) {
      const p = q.pair;
      const diff = `${p.a} − ${p.b}`;
      items.push(
        table(
          p.outcomes.map((o) => ({
            measure: label(o.measure),
            [`${p.a} higher`]: o.wins,
            [`${p.b} higher`]: o.losses,
            ties: o.ties,
            "sign test p (raw, not corrected)": o.p,
          })),
          { caption: `The pair ${p.a} – ${p.b}, question by question` },
        ),
        p.questions.length
          ? table(
            p.questions.map((x) => ({
              question: x.question,
              [`${p.a}: AP@10`]: x.a,
              [`${p.b}: AP@10`]: x.b,
              [diff]: x.a - x.b,
            })),
            { caption: "The questions where their AP@10 differs most (at most ten)" },
          )
          : note(`${p.a} and ${p.b} have the same AP@10 on every question.`),
      );
    }
    if (q.published.length) {
      items.push(
        table(
          q.published.map((r) => ({
            system: r.system,
            split: r.split,
            "MAP@10": r.map_cut_10,
            MRR: r.recip_rank,
            source: r.source,
          })),
          {
            caption:
              "Published, for context: the organisers' baseline stems Arabic words and the " +
              "kit's BM25 does not; no number here claims to reproduce it",
          },
        ),
      );
    }
    return items;
  },
  files: (d) => ({ "per-question-qqa23.csv": qqa23Csv(data(d)) }),
  summarySystems: (d) =>
    users(d).map((s) => ({
      name: s.name,
      dataset: "qqa23",
      split: data(d).split,
      runs: s.path ? [s.path] : [],
      map_cut_10: s.official.map_cut_10,
      recip_rank: s.official.recip_rank,
      complete: s.complete,
    })),
  numbers(s) {
    if (s.dataset !== "qqa23") return undefined;
    const c = s.complete as { map_cut_10: number; recip_rank: number };
    return `MAP@10 ${fmt(s.map_cut_10 as number)} MRR ${fmt(s.recip_rank as number)} ` +
      `(complete protocol: MAP@10 ${fmt(c.map_cut_10)} MRR ${fmt(c.recip_rank)})`;
  },
  headline(d) {
    const best = users(d).sort((a, b) => b.official.map_cut_10 - a.official.map_cut_10);
    const entries: Record<string, string | number> = best.length
      ? {
        "best Qur'an QA 2023 run": best[0].name,
        "MAP@10": best[0].official.map_cut_10,
        "MRR (qqa23)": best[0].official.recip_rank,
      }
      : {};
    return { systems: best.length, entries };
  },
  indexSystems: (d) =>
    users(d).map((s) => ({
      name: s.name,
      what: `Qur'an QA 2023 ${data(d).split}, ${data(d).judged} judged questions`,
      numbers: { "MAP@10": s.official.map_cut_10, MRR: s.official.recip_rank },
    })),
  texts: (d) => data(d).systems.flatMap((s) => [s.name, ...(s.path ? [basename(s.path)] : [])]),
};
