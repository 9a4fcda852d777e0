/**
 * Published numbers the notebooks compare against, each with its source. They describe the
 * full corpora: on the bundled samples the kit's counts differ by design.
 *
 * @module
 */

import { DATASETS, type PublishedSize } from "../../data/datasets.ts";
import type { FilterName } from "../../data/filters.ts";

export type { PublishedSize } from "../../data/datasets.ts";

const YANG = "Yang et al. 2015";
const TANDA = "TANDA (Garg et al. 2020)";

/**
 * Published split sizes: dataset, split, filter setting (each corpus's entry in `DATASETS`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PUBLISHED_SIZES } from "./published.ts";
 * assert(PUBLISHED_SIZES.wikiqa.test["no-all"]?.questions === 243);
 * ```
 */
export const PUBLISHED_SIZES: Record<
  string,
  Record<string, Partial<Record<FilterName, PublishedSize>>>
> = Object.fromEntries(
  DATASETS.filter((d) => d.task === "as2").map((d) => [
    d.name,
    Object.fromEntries(Object.entries(d.splits).map(([split, s]) => [split, s.published])),
  ]),
);

/** A published MAP/MRR of an answer-sentence-selection system (test sets). */
export interface PublishedResult {
  system: string;
  dataset: "wikiqa" | "trecqa";
  /** The split the number is on (every published row the kit knows is on test). */
  split: "test";
  map: number;
  /** Absent where the source gives MAP only. */
  mrr?: number;
  source: string;
  /** Where in the source the number is printed (the kit quotes no table number it cannot check). */
  where: string;
  /** The question set it was computed on, as the source describes it. */
  setting: string;
  /**
   * The filter of the questions the number is over: `clean` (WikiQA's `-filtered.ref`, 237 test
   * questions; TREC-QA's 68) or `no-all` (TANDA counts WikiQA's test set as its 243 questions
   * with a correct candidate). One run's MAP over the 243 is (237 × clean MAP + 6) / 243: the
   * 6 all-correct questions score 1 whatever the ranking.
   */
  filter: "clean" | "no-all";
  /** How many test questions that filter holds. */
  questions: number;
  /** What is known about reproducing it (why a run of it scores otherwise), if anything. */
  note?: string;
}

const YANG_SETTING = "WikiQA-test-filtered.ref, trec_eval -c (clean: 237 questions)";
const YANG_WHERE = "its table of answer-sentence-selection results (WikiQA test; the release's " +
  "emnlp-table/ folder holds the rank files)";
const TANDA_TABLE = "its table of WikiQA and TREC-QA results (MAP / MRR)";
const TANDA_ABSTRACT = "its abstract (MAP only)";

/**
 * Reference results (PROTOCOL: TANDA's table and Yang et al.'s WikiQA baselines), every one
 * the kit knows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PUBLISHED_RESULTS } from "./published.ts";
 * assert(PUBLISHED_RESULTS.some((r) => r.system === "Word Cnt" && r.map === 0.4891));
 * assert.deepEqual(PUBLISHED_RESULTS.filter((r) => r.dataset === "trecqa").map((r) => r.map), [0.943, 0.875]);
 * ```
 */
export const PUBLISHED_RESULTS: readonly PublishedResult[] = [
  ...([
    ["Word Cnt", 0.4891, 0.4924],
    ["Wgt Word Cnt", 0.5099, 0.5132],
    ["LCLR", 0.5993, 0.6086],
    ["CNN", 0.619, 0.6281],
  ] as const).map(([system, map, mrr]) => ({
    system,
    dataset: "wikiqa" as const,
    split: "test" as const,
    map,
    mrr,
    source: YANG,
    where: YANG_WHERE,
    setting: YANG_SETTING,
    filter: "clean" as const,
    questions: 237,
  })),
  {
    system: "CNN-Cnt",
    dataset: "wikiqa",
    split: "test",
    map: 0.652,
    mrr: 0.6652,
    source: YANG,
    where: YANG_WHERE,
    setting: YANG_SETTING,
    note: "the authors' released rank file for CNN-Cnt (WikiQACorpus.zip, emnlp-table) scores " +
      "MAP 0.6591, MRR 0.6738 under trec_eval 9.0.8 -c on WikiQA-test-filtered.ref: the " +
      "released file, not the scorer, differs from the paper's table",
    filter: "clean",
    questions: 237,
  },
  {
    system: "TANDA RoBERTa-L",
    dataset: "wikiqa",
    split: "test",
    map: 0.92,
    mrr: 0.933,
    source: TANDA,
    where: TANDA_TABLE,
    setting: "TANDA's WikiQA test (243 questions: no-all)",
    filter: "no-all",
    questions: 243,
  },
  {
    system: "previous best (cited by TANDA)",
    dataset: "wikiqa",
    split: "test",
    map: 0.834,
    source: TANDA,
    where: TANDA_ABSTRACT,
    setting: "as cited in TANDA's abstract (MAP only; 243 questions: no-all)",
    filter: "no-all",
    questions: 243,
  },
  {
    system: "TANDA RoBERTa-L",
    dataset: "trecqa",
    split: "test",
    map: 0.943,
    mrr: 0.974,
    source: TANDA,
    where: TANDA_TABLE,
    setting: "TREC-QA test, clean (68 questions)",
    filter: "clean",
    questions: 68,
  },
  {
    system: "previous best (cited by TANDA)",
    dataset: "trecqa",
    split: "test",
    map: 0.875,
    source: TANDA,
    where: TANDA_ABSTRACT,
    setting: "as cited in TANDA's abstract (MAP only; 68 questions: clean)",
    filter: "clean",
    questions: 68,
  },
];

/**
 * A published system's released run file scored again: what the file gives under the reference
 * evaluation against what the paper printed. The files are not in the corpora the kit fetches,
 * so these are measured facts with where the file is and the command that reproduces them.
 */
export interface ReleasedRunScore {
  system: string;
  dataset: "wikiqa";
  split: "test";
  /** The file's path inside its release. */
  file: string;
  /** Where the file is published. */
  release: string;
  /** The paper's numbers. */
  published: { map: number; mrr: number };
  /** What the file gives, and with what. */
  measured: { map: number; mrr: number; with: string };
  /** The kit's command that scores the file (the same evaluation). */
  command: string;
}

/**
 * The WikiQA paper's own CNN-Cnt rank file, scored with trec_eval 9.0.8 `-c` on the official
 * `WikiQA-test-filtered.ref` (as the paper's evaluation ran): 0.6591 / 0.6738, not the printed
 * 0.6520 / 0.6652. The gap is in the file, not in the scorer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { RELEASED_RUN_SCORES } from "./published.ts";
 * const cnn = RELEASED_RUN_SCORES[0];
 * assert(cnn.measured.map - cnn.published.map > 0.007);
 * ```
 */
export const RELEASED_RUN_SCORES: readonly ReleasedRunScore[] = [
  {
    system: "CNN-Cnt",
    dataset: "wikiqa",
    split: "test",
    file: "WikiQACorpus/emnlp-table/WikiQA.CNN-Cnt.test.rank",
    release: "WikiQACorpus.zip, the official WikiQA release (Microsoft Research, 2015; its " +
      "README.txt lists the folder emnlp-table/ with the paper's results)",
    published: { map: 0.652, mrr: 0.6652 },
    measured: { map: 0.6591, mrr: 0.6738, with: "trec_eval 9.0.8 -c -m map -m recip_rank" },
    command: "./kit eval trec -c -m map -m recip_rank " +
      "WikiQACorpus/WikiQA-test-filtered.ref WikiQACorpus/emnlp-table/WikiQA.CNN-Cnt.test.rank",
  },
];

/** A user's system set beside a published row: by its name, or by numbers near the row's. */
export interface PublishedGap {
  system: string;
  /** The published row's system name. */
  published: string;
  source: string;
  /** Where in the source the row is printed. */
  where: string;
  /** `name`: the system carries the published name; `near`: its MAP and MRR are within 0.01. */
  why: "name" | "near";
  /**
   * `reproduced`: every gap under half a unit of the published number's last printed digit
   * (0.00005 for 0.6190, 0.0005 for 0.920); `close`: within {@link NEAR_PUBLISHED}, no claim
   * of identity; `differs`: further.
   */
  verdict: "reproduced" | "close" | "differs";
  /** The filter and number of questions of the row's set, on which your numbers are computed. */
  filter: "clean" | "no-all";
  questions: number;
  map: number;
  publishedMap: number;
  /** map - publishedMap. */
  mapGap: number;
  mrr: number;
  publishedMrr?: number;
  mrrGap?: number;
  /** What the verdict means here, with the known reason for a gap or what to check. */
  explanation: string;
}

/** How close (MAP and MRR) a system's numbers must be to a published row to be set beside it. */
export const NEAR_PUBLISHED = 0.01;

function nameKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "");
}

/** Half a unit of the last digit a published number is printed with (TANDA: 3 decimals). */
function halfUnit(row: PublishedResult): number {
  return row.source.startsWith("TANDA") ? 0.0005 : 0.00005;
}

/** A user system's MAP and MRR on the report's question set and, by filter, on other sets. */
export interface PublishedCandidate {
  name: string;
  map: number;
  mrr: number;
  /** The filter of `map` and `mrr`. */
  filter: string;
  /** The same system on another question set (a published row's), computed. */
  on?: Record<string, { map: number; mrr: number }>;
}

/**
 * Every user system set beside the published row it names (the longest published name its
 * own contains, case and punctuation aside: "cnn-cnt repro" is CNN-Cnt) or, failing that,
 * the nearest row whose MAP and MRR are both within {@link NEAR_PUBLISHED}: your numbers on
 * the row's own question set (`on`, when the row's filter is not the report's), the gaps, the
 * verdict and the reason when the kit knows one. A row on a set the system has no numbers for
 * is skipped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { PUBLISHED_RESULTS, publishedGaps } from "./published.ts";
 * const rows = PUBLISHED_RESULTS.filter((r) => r.dataset === "wikiqa");
 * const [g] = publishedGaps([{ name: "CNN-Cnt (released file)", map: 0.6591, mrr: 0.6738, filter: "clean" }], rows);
 * assert.equal(g.published, "CNN-Cnt");
 * assert.deepEqual([g.why, g.verdict], ["name", "close"]);
 * assert(Math.abs(g.mapGap - 0.0071) < 1e-12 && /released file/.test(g.explanation));
 * const [same] = publishedGaps([{ name: "mine", map: 0.61904, mrr: 0.62806, filter: "clean" }], rows);
 * assert.deepEqual([same.published, same.why, same.verdict], ["CNN", "near", "reproduced"]);
 * assert.equal(publishedGaps([{ name: "mine", map: 0.30, mrr: 0.31, filter: "clean" }], rows).length, 0);
 * ```
 */
export function publishedGaps(
  systems: readonly PublishedCandidate[],
  rows: readonly PublishedResult[],
): PublishedGap[] {
  const out: PublishedGap[] = [];
  const numbers = (s: PublishedCandidate, r: PublishedResult) =>
    r.filter === s.filter ? { map: s.map, mrr: s.mrr } : s.on?.[r.filter];
  for (const s of systems) {
    const key = nameKey(s.name);
    const named = rows
      .filter((r) =>
        !r.system.startsWith("previous best") && key.includes(nameKey(r.system)) && numbers(s, r)
      )
      .sort((x, y) => nameKey(y.system).length - nameKey(x.system).length)[0];
    const near = rows
      .filter((r) => {
        const n = numbers(s, r);
        return n !== undefined && Math.abs(n.map - r.map) <= NEAR_PUBLISHED &&
          (r.mrr === undefined || Math.abs(n.mrr - r.mrr) <= NEAR_PUBLISHED);
      })
      .sort((x, y) =>
        Math.abs(numbers(s, x)!.map - x.map) - Math.abs(numbers(s, y)!.map - y.map)
      )[0];
    const row = named ?? near;
    if (!row) continue;
    const n = numbers(s, row)!;
    const mapGap = n.map - row.map;
    const mrrGap = row.mrr === undefined ? undefined : n.mrr - row.mrr;
    const largest = Math.max(Math.abs(mapGap), Math.abs(mrrGap ?? 0));
    const verdict = largest < halfUnit(row)
      ? "reproduced"
      : largest <= NEAR_PUBLISHED
      ? "close"
      : "differs";
    const set = `${row.questions} questions (${row.filter})`;
    const explanation = !named
      ? `its MAP and MRR on ${set} are ${
        verdict === "reproduced" ? "equal at their printed precision to" : "within 0.01 of"
      } ${row.system}'s published numbers: numbers alike, not a claim that it is that system`
      : verdict === "reproduced"
      ? `reproduced: equal to the published numbers at their printed precision, on ${set}`
      : `${verdict === "close" ? "close to (within 0.01), not equal to" : "differs from"} ` +
        `the published numbers on ${set}: ` +
        (row.note ??
          "no reason known to the kit (another system under the name, or check the split, " +
            "the filter and that every question counts: -c)");
    out.push({
      system: s.name,
      published: row.system,
      source: row.source,
      where: row.where,
      why: named ? "name" : "near",
      verdict,
      filter: row.filter,
      questions: row.questions,
      map: n.map,
      publishedMap: row.map,
      mapGap,
      mrr: n.mrr,
      ...(row.mrr === undefined ? {} : { publishedMrr: row.mrr, mrrGap }),
      explanation,
    });
  }
  return out;
}
