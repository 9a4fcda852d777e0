/**
 * Runs as they circulate: numberings other than the corpus ids in which a corpus's runs are
 * published, recognised and mapped to the corpus ids the kit evaluates with.
 *
 * | dataset | numbering | what it looks like | mapped by |
 * |---|---|---|---|
 * | wikiqa | `wikiqa-ref`: the official `WikiQA-{train,dev,test}.ref` and `-filtered.ref` files, the README's `trec_eval -c` evaluation and the paper's system outputs | question = its 1-based number in the split's TSV file order, candidate = its 0-based sentence index (`1 Q0 3 1 0.9 run`) | {@link refIdsToCorpusIds} |
 *
 * TREC-QA's runs circulate with the jacana ids (`<QApairs id='1.4'>`, the kit's own question
 * ids), so no mapping is needed there.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import type { Question } from "./types.ts";
import type { LoadedSplit } from "./splits.ts";
import { refIdsToCorpusIds } from "./wikiqa.ts";

/** A numbering the kit recognises (see the module's table). */
export type RunNumbering = "wikiqa-ref";

/** A run in corpus ids, and how it was numbered when it was not. */
export interface RenumberedRun {
  run: Map<string, Map<string, number>>;
  /** The numbering recognised and mapped from; absent when the run uses the corpus ids. */
  numbering?: RunNumbering;
  /** Run entries whose numbers name no question or sentence of the split (kept as given). */
  unmapped: number;
}

const NUMBER = /^(0|[1-9]\d*)$/;

/**
 * The share of a recognised run's entries that must name a question and sentence of the split.
 * A run in the split's own `.ref` numbering names only those; one in another split's numbering
 * leaves a third or more unmapped on WikiQA (dev as test: 927 of 2733; test as train: 2138 of
 * 6165), so anything below nine in ten is refused rather than scored.
 */
const MIN_MAPPED_SHARE = 0.9;

/** Options of {@link renumberRun}. */
export interface RenumberOptions {
  /** The run file, prefixed to an error. */
  file?: string;
}

/** The split a run is mapped onto: its dataset, name and every question in file order. */
export type SplitOrder = Pick<LoadedSplit, "dataset" | "split" | "all">;

/**
 * A run in the corpus ids of `split`: a run numbered as another file of the dataset numbers
 * it (WikiQA's `.ref`: question number in the TSV's order, sentence index) is recognised and
 * mapped; a run that uses the corpus ids, or shares any question id with them, is returned as
 * it is. The mapping reads `split.all` (every question in file order, before the filter),
 * so give it what `loadSplit` returned, whatever the filter. A run recognised as
 * `.ref`-numbered of which fewer than {@link MIN_MAPPED_SHARE} of the entries name a
 * question and sentence of the split is a `KitError` (most likely another split's
 * numbering). `eval as2` and the report call it on every run; call it before `evaluate` on a
 * run from WikiQA's own files (`evaluate` refuses such a run: no query has both results and
 * relevance judgments).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renumberRun } from "./run_numbering.ts";
 * const all = [
 *   { id: "Q1", text: "", candidates: [{ id: "D1-0", text: "", label: 0 }] },
 *   { id: "Q8", text: "", candidates: [{ id: "D8-0", text: "", label: 1 }, { id: "D8-1", text: "", label: 0 }] },
 * ];
 * const split = { dataset: "wikiqa" as const, split: "test", all };
 * const ref = new Map([["2", new Map([["0", 0.9], ["1", 0.1]])]]);
 * const r = renumberRun(ref, split);
 * assert.equal(r.numbering, "wikiqa-ref");
 * assert.deepEqual([...r.run.get("Q8")!.keys()], ["D8-0", "D8-1"]);
 * const own = new Map([["Q8", new Map([["D8-0", 1]])]]);
 * assert.equal(renumberRun(own, split).numbering, undefined);
 * const other = new Map([["2", new Map([["0", 0.9], ["5", 0.1]])], ["9", new Map([["0", 1]])]]);
 * assert.throws(() => renumberRun(other, split), /a run of another split/);
 * ```
 */
export function renumberRun(
  run: Map<string, Map<string, number>>,
  split: SplitOrder,
  options: RenumberOptions = {},
): RenumberedRun {
  const questions = split.all;
  if (split.dataset !== "wikiqa" || !looksLikeRef(run, questions)) return { run, unmapped: 0 };
  const out = new Map<string, Map<string, number>>();
  let unmapped = 0;
  let entries = 0;
  for (const [qnum, docs] of run) {
    for (const [index, score] of docs) {
      entries++;
      const ids = refIdsToCorpusIds(questions, qnum, index);
      // An entry that names nothing in the split stays as given: the protocol check reports
      // it (an unknown question or candidate) like any other.
      const [qid, cid] = ids ?? [qnum, index];
      if (!ids) unmapped++;
      let m = out.get(qid);
      if (!m) out.set(qid, m = new Map());
      m.set(cid, score);
    }
  }
  const mapped = entries - unmapped;
  if (mapped < MIN_MAPPED_SHARE * entries) {
    const file = `WikiQA-${split.split}.ref`;
    throw new KitError(
      `every id is a number, so the run was read as numbered like ${file} (question number ` +
        `in the file's order, sentence index), but only ${mapped} of its ${entries} entries ` +
        `(${Math.floor((100 * mapped) / entries)}%) name a question and sentence of the ` +
        `split's ${questions.length} questions: most likely a run of another split, in that ` +
        `split's .ref numbering (give it with that --split), or not a WikiQA .ref run at all`,
      options.file === undefined ? {} : { file: options.file },
    );
  }
  return { run: out, numbering: "wikiqa-ref", unmapped };
}

/** Every question id and candidate id a number, and no question id a corpus id. */
function looksLikeRef(
  run: ReadonlyMap<string, ReadonlyMap<string, number>>,
  questions: readonly Question[],
): boolean {
  if (run.size === 0) return false;
  const corpus = new Set(questions.map((q) => q.id));
  for (const [qid, docs] of run) {
    if (corpus.has(qid) || !NUMBER.test(qid)) return false;
    for (const d of docs.keys()) if (!NUMBER.test(d)) return false;
  }
  return true;
}

/**
 * A sentence for stderr and the page saying what was mapped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { numberingNote } from "./run_numbering.ts";
 * assert.match(numberingNote({ run: new Map(), numbering: "wikiqa-ref", unmapped: 0 }, "test"),
 *   /WikiQA-test\.ref/);
 * ```
 */
export function numberingNote(r: RenumberedRun, split: string): string {
  if (!r.numbering) return "";
  return `numbered as WikiQA-${split}.ref (question number in the file's order, sentence ` +
    `index): mapped to the corpus ids (QuestionID, SentenceID)` +
    (r.unmapped ? `; ${r.unmapped} entries name no question or sentence of the split` : "");
}
