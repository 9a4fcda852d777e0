/**
 * A run file read for an answer-selection split: mapped to the corpus ids when it comes in
 * another numbering (`renumberRun`), checked against the split's questions
 * (`checkRunAgainstSplit`), and refused when it shares fewer than half of its question ids
 * with the split: such a run is another split's, another corpus's, or a real-corpus run read
 * against the bundled sample, and scoring it would print a checked-looking page of zeros.
 * The refusal names the likely fix (`--data real`, `--split`, `--dataset`). `eval as2` and
 * the report both read runs here, so they map, warn and refuse alike.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { readRun, type Run, type TrecRelease } from "../metrics/mod.ts";
import { mergeShardRuns } from "../scoring/shard.ts";
import { DATASETS } from "./datasets.ts";
import { datasetDir, isInstalled } from "./paths.ts";
import { checkRunAgainstSplit, type RunCheck, runWarnings } from "./run_checks.ts";
import { numberingNote, renumberRun, type RunNumbering } from "./run_numbering.ts";
import { type LoadedSplit, readSplit } from "./splits.ts";
import type { As2Dataset } from "./types.ts";

/** A run file (or the shard files of one run) read for a split. */
export interface SplitRun {
  /** The file as given (the shards' files joined by ", "). */
  file: string;
  /** In the corpus's ids (renumbered when it came in another numbering). */
  run: Run;
  /** The numbering it came in, when not the corpus ids. */
  numbering?: RunNumbering;
  /** How it departs from the protocol (`checkRunAgainstSplit`). */
  check: RunCheck;
  /** The protocol warnings, as sentences (`runWarnings`). */
  warnings: string[];
  /** What was done that is not a departure: the numbering mapped, questions the filter drops. */
  notes: string[];
}

/** Options of {@link readRunForSplit}. */
export interface SplitRunOptions {
  /** trec_eval release whose reading rules apply (default 9.0.8). */
  release?: TrecRelease;
  /**
   * What the refusal tells a user whose split is the bundled sample while the run is the
   * fetched corpus's (default: `--data real`, the report's flag).
   */
  realCorpusFix?: string;
  /**
   * What it tells a user whose run is the bundled sample's while the split is the fetched
   * corpus's (default: `--data sample`).
   */
  sampleFix?: string;
}

/**
 * The share of a run's question ids that must be questions of the split (before its filter):
 * below it the run is refused ({@link readRunForSplit}).
 */
export const MIN_SHARED_QUESTIONS = 0.5;

/**
 * Reads a TREC (or ranx/pytrec_eval JSON) run for `split` (from `loadSplit`, any filter):
 * renumbered to the corpus ids when it comes in WikiQA's `.ref` numbering, checked, and
 * refused (a `KitError` naming the file and the likely fix) when fewer than half of its
 * question ids are the split's, or when every question it shares is dropped by the filter.
 * Several files are the shards of one run (`score --shard`), each renumbered and then read
 * together; a question in two of them is an error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadSplit, readRunForSplit, SAMPLES_DIR } from "./mod.ts";
 * const split = await loadSplit("wikiqa", "test", { dir: "samples" });
 * const r = await readRunForSplit(`${SAMPLES_DIR}/runs/wikiqa-test.run`, split);
 * assert(r.run.has("Q300") && r.numbering === undefined && r.check.questions === 4);
 * const dev = await loadSplit("wikiqa", "dev", { dir: "samples" });
 * await assert.rejects(() => readRunForSplit(`${SAMPLES_DIR}/runs/wikiqa-test.run`, dev),
 *   /--split test/);
 * ```
 */
export async function readRunForSplit(
  files: string | readonly string[],
  split: LoadedSplit,
  options: SplitRunOptions = {},
): Promise<SplitRun> {
  const list = typeof files === "string" ? [files] : files;
  if (list.length === 0) throw new KitError("readRunForSplit: no run file given");
  const file = list.join(", ");
  const parts = [];
  for (const f of list) {
    parts.push({
      file: f,
      ...renumberRun(await readRun(f, { release: options.release }), split, { file: f }),
    });
  }
  const numbering = parts.find((p) => p.numbering)?.numbering;
  const read = parts.length === 1 ? parts[0] : {
    run: mergeShardRuns(parts),
    ...(numbering ? { numbering } : {}),
    unmapped: parts.reduce((n, p) => n + p.unmapped, 0),
  };
  const known = new Set(split.all.map((q) => q.id));
  let shared = 0;
  for (const q of read.run.keys()) if (known.has(q)) shared++;
  if (read.run.size > 0 && shared < MIN_SHARED_QUESTIONS * read.run.size) {
    throw new KitError(await foreignRunMessage(read.run, shared, split, options), { file });
  }
  const kept = new Set(split.questions.map((q) => q.id));
  const check = checkRunAgainstSplit(read.run, split.questions, {
    filter: split.report.filter,
    split: split.split,
    dropped: split.all.filter((q) => !kept.has(q.id)).map((q) => q.id),
  });
  if (check.questions > 0 && check.missingQuestions.length === check.questions) {
    throw new KitError(
      `every question the run shares with ${split.dataset} ${split.split} is dropped by the ` +
        `filter '${split.report.filter}' (${check.filteredQuestions.length} of them), so it ` +
        `would score 0 on every question: give the filter the run was made for (--filter)`,
      { file },
    );
  }
  const notes = [numberingNote(read, split.split)].filter((n) => n !== "");
  if (check.filteredQuestions.length) {
    notes.push(
      `${check.filteredQuestions.length} question(s) of the run are dropped by the filter ` +
        `'${split.report.filter}' and not evaluated`,
    );
  }
  return {
    file,
    run: read.run,
    ...(read.numbering ? { numbering: read.numbering } : {}),
    check,
    warnings: runWarnings(check),
    notes,
  };
}

function examples(ids: Iterable<string>, max = 3): string {
  const list = [...ids];
  return list.slice(0, max).join(", ") + (list.length > max ? ", ..." : "");
}

/** The refusal of a run that is mostly not the split's, with the fix most likely to apply. */
async function foreignRunMessage(
  run: Run,
  shared: number,
  split: LoadedSplit,
  options: SplitRunOptions,
): Promise<string> {
  const where = `${split.dataset} ${split.split} (${
    split.isSample ? "the bundled sample" : split.dir
  }: ${split.all.length} questions)`;
  const head = `only ${shared} of the run's ${run.size} question ids (${
    examples(run.keys())
  }) are questions of ${where}`;
  const flags = (s: { dataset: string; split: string }) =>
    [
      ...(s.dataset === split.dataset ? [] : [`--dataset ${s.dataset}`]),
      ...(s.split === split.split && s.dataset === split.dataset ? [] : [`--split ${s.split}`]),
    ].join(" ");
  // The split (of either kind of corpus) holding most of the run's ids, the same kind first.
  const same = await likelySplit(run, split, split.isSample ? "samples" : "installed");
  const other = split.isSample && !isInstalled(split.dataset)
    ? undefined
    : await likelySplit(run, split, split.isSample ? "installed" : "samples", true);
  if (same && (!other || same.shared >= other.shared)) {
    return `${head}: ${same.shared} of them are ${same.dataset} ${same.split}'s: give ${
      flags(same)
    }`;
  }
  if (other) {
    const more = flags(other);
    const [kind, fix] = split.isSample
      ? ["the fetched", options.realCorpusFix ?? "--data real"]
      : ["the bundled sample of", options.sampleFix ?? "--data sample"];
    return `${head}: ${other.shared} of them are ${kind} ${other.dataset} ${other.split}'s: ` +
      `evaluate on ${split.isSample ? "the fetched corpus" : "the bundled sample"} (${fix}${
        more ? ` ${more}` : ""
      })`;
  }
  if (split.isSample && !isInstalled(split.dataset)) {
    return `${head}: a run of the real corpus read against the bundled sample? fetch the ` +
      `real corpus first ('./kit data fetch ${split.dataset}'; then it is the default)`;
  }
  return `${head}: a run of another corpus, or in a numbering the kit does not recognise (it ` +
    `maps WikiQA's .ref numbering; see docs/report.md)`;
}

/**
 * The split holding most of the run's question ids, of every answer-selection corpus in the
 * samples or the installed corpora (`kind`), other than `split` itself unless `withOwn`.
 */
async function likelySplit(
  run: Run,
  split: LoadedSplit,
  kind: "samples" | "installed",
  withOwn = false,
): Promise<{ dataset: As2Dataset; split: string; shared: number } | undefined> {
  let best: { dataset: As2Dataset; split: string; shared: number } | undefined;
  for (const entry of DATASETS.filter((d) => d.task === "as2")) {
    const dataset = entry.name as As2Dataset;
    if (kind === "installed" && !isInstalled(dataset)) continue;
    for (const name of Object.keys(entry.splits)) {
      const own = dataset === split.dataset && name === split.split;
      if (own && (!withOwn || kind === (split.isSample ? "samples" : "installed"))) continue;
      let ids: Set<string>;
      try {
        const dir = datasetDir(dataset, kind === "samples" ? "samples" : undefined);
        ids = new Set((await readSplit(dataset, name, dir)).map((q) => q.id));
      } catch {
        continue; // a split this folder does not hold
      }
      let shared = 0;
      for (const q of run.keys()) if (ids.has(q)) shared++;
      if (shared >= MIN_SHARED_QUESTIONS * run.size && shared > (best?.shared ?? 0)) {
        best = { dataset, split: name, shared };
      }
    }
  }
  return best;
}
