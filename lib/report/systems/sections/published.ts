/**
 * Section `published`: every published number the kit knows for the split, with its source,
 * where in it, and its question set; and your systems beside the row they are named after or
 * whose numbers they share, on that row's own question set. When a row counts another set
 * than the page (TANDA's WikiQA test is the 243 questions of `no-all`, the page's the 237 of
 * `clean`), your MAP and MRR on that set are computed here, question by question: each run
 * is evaluated over the other set's questions with trec_eval's `-c`, completed first with the
 * candidates of the questions it does not rank whose every candidate is correct (a run
 * scored on `clean` never saw them; any order of them scores AP and RR 1, as they would for a
 * system scoring every candidate). Nothing is converted by formula.
 *
 * @module
 */
import { type Row, table } from "../../../plot/table.ts";
import { loadSplit } from "../../../data/mod.ts";
import { qrelsFromQuestions } from "../../../metrics/mod.ts";
import type { Question } from "../../../data/types.ts";
import type { Run } from "../../../metrics/types.ts";
import { queryValues } from "../../../stats/query_set.ts";
import { mean } from "../../../stats/significance.ts";
import { note } from "../../notebook/blocks.ts";
import { PUBLISHED_RESULTS, publishedGaps } from "../published.ts";
import type { PublishedSet, SystemsReport } from "../types.ts";
import type { EvaluationContext, PageSection } from "../section.ts";

/** A run with the questions of `questions` it does not rank added when every candidate is correct. */
function completed(run: Run, questions: readonly Question[]): { run: Run; added: number } {
  const out: Run = new Map(run);
  let added = 0;
  for (const q of questions) {
    if (out.has(q.id) || q.candidates.length === 0) continue;
    if (q.candidates.every((c) => c.label > 0)) {
      out.set(q.id, new Map(q.candidates.map((c) => [c.id, 0])));
      added++;
    }
  }
  return { run: out, added };
}

/** Your systems' MAP and MRR on another question set of the same split (a published row's). */
async function otherSet(ctx: EvaluationContext, filter: string): Promise<PublishedSet> {
  const split = await loadSplit(ctx.spec.dataset, ctx.spec.split, {
    filter: filter as never,
    dir: ctx.split.dir,
  });
  const qrels = qrelsFromQuestions(split.questions);
  const systems = ctx.evaluated.filter((s) => s.kind === "user").map((s) => {
    let added = 0;
    const perRun = s.runs.map((run) => {
      const c = completed(run, split.questions);
      added = Math.max(added, c.added);
      const v = queryValues(qrels, c.run, ["map", "recip_rank"], { complete: true, warn: false });
      return v.perQuery;
    });
    // Each question's mean over the runs, then the mean over questions (as on the page).
    const ids = [...qrels.keys()];
    const measure = (m: string) =>
      mean(ids.map((q) => mean(perRun.map((v) => v.get(q)?.[m] ?? 0))));
    return { name: s.name, map: measure("map"), mrr: measure("recip_rank"), completed: added };
  });
  return { filter, questions: split.questions.length, systems };
}

/** The published rows the kit knows for the split. */
export function publishedRows(r: SystemsReport): Row[] {
  return r.published.rows.map((p) => ({
    system: p.system,
    MAP: p.map,
    MRR: p.mrr,
    "question set": p.setting,
    source: `${p.source}, ${p.where}`,
  }));
}

const VERDICT = {
  reproduced: "reproduced",
  close: "close to (within 0.01)",
  differs: "differs (more than 0.01)",
};

/** Your systems beside the published row they carry the name of, or whose numbers they share. */
export function gapRows(r: SystemsReport): Row[] {
  return r.published.gaps.map((g) => ({
    system: g.system,
    "published row": `${g.published} (${g.source})`,
    "set beside it by": g.why === "name" ? "its name" : "its numbers (within 0.01)",
    "question set": `${g.questions} (${g.filter})`,
    verdict: g.why === "name" ? VERDICT[g.verdict] : "numbers alike (not the same system)",
    MAP: g.map,
    "published MAP": g.publishedMap,
    "MAP gap": g.mapGap,
    MRR: g.mrr,
    "published MRR": g.publishedMrr,
    "MRR gap": g.mrrGap,
    "why": g.explanation,
  }));
}

/** Your systems' numbers on each other question set a published row counts. */
export function otherSetRows(r: SystemsReport): Row[] {
  return (r.published.sets ?? []).flatMap((set) =>
    set.systems.map((s) => ({
      system: s.name,
      "question set": `${set.questions} (${set.filter})`,
      MAP: s.map,
      MRR: s.mrr,
      "questions added to the run": s.completed,
    }))
  );
}

export const publishedSection: PageSection = {
  name: "published",
  nothing: "No answer-selection system given.",
  async compute(ctx) {
    const rows = PUBLISHED_RESULTS.filter((r) =>
      r.dataset === ctx.spec.dataset && r.split === ctx.spec.split
    );
    const filters = [...new Set(rows.map((r) => r.filter))].filter((f) => f !== ctx.spec.filter);
    const sets: PublishedSet[] = [];
    for (const f of filters) sets.push(await otherSet(ctx, f));
    const gaps = publishedGaps(
      ctx.systems.filter((s) => s.kind === "user").map((s) => ({
        name: s.name,
        map: s.mean.map,
        mrr: s.mean.recip_rank,
        filter: ctx.spec.filter,
        on: Object.fromEntries(sets.map((set) => {
          const n = set.systems.find((x) => x.name === s.name)!;
          return [set.filter, { map: n.map, mrr: n.mrr }];
        })),
      })),
      rows,
    );
    return { published: { rows: [...rows], gaps, ...(sets.length ? { sets } : {}) } };
  },
  has: (r) => r.systems.length > 0,
  show(r) {
    const c = r.corpus!;
    if (r.published.rows.length === 0) {
      return [note(
        `The kit knows no published numbers for ${c.dataset} ${c.split}: every one it ` +
          "knows is on a test split.",
      )];
    }
    const sets = r.published.sets ?? [];
    return [
      table(publishedRows(r), { caption: `Published ${c.dataset} ${c.split} numbers` }),
      ...sets.map((set) =>
        note(
          `Rows on ${set.questions} questions (${set.filter}) count another set than this ` +
            `page's ${c.questions} (${c.filter}): your systems' numbers on those ` +
            `${set.questions} are computed below, each run evaluated over them with -c; a ` +
            "question it does not rank whose every candidate is correct is added to it with " +
            "its candidates in any order (AP and RR 1, as for a system that scores every " +
            "candidate).",
        )
      ),
      ...(sets.length
        ? [table(otherSetRows(r), { caption: "Your systems on the published rows' other sets" })]
        : []),
      r.published.gaps.length
        ? table(gapRows(r), {
          caption: "Your systems beside the published row they are named after or sit near, " +
            "on that row's question set (reproduced: every gap under half the last printed " +
            "digit; close to: within 0.01, no claim of identity)",
        })
        : note(
          "None of your systems carries a published system's name or has MAP and MRR within " +
            "0.01 of a published row.",
        ),
    ];
  },
};
