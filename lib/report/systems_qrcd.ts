/**
 * The inputs of the systems report, read and checked once: the split the systems are judged
 * on, every run file of every system (renumbered when it circulates in another numbering,
 * checked against the split) and the QRCD runs (the submission checker's rules). The report
 * calls these before any notebook runs, so every input error is one message on the terminal;
 * notebook 00 calls the same functions and shows what they found.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { applyFilter, type FilterReport } from "../data/filters.ts";
import { loadSplit } from "../data/splits.ts";
import type { Question } from "../data/types.ts";
import { checkRunAgainstSplit, type RunCheck, runWarnings } from "../data/run_checks.ts";
import { numberingNote, renumberRun, type RunNumbering } from "../data/run_numbering.ts";
import { qrelsFromQuestions } from "../metrics/convert.ts";
import type { Qrels, Run } from "../metrics/evaluate.ts";
import { readRun } from "../metrics/trec_files.ts";
import { isQrcdSplit, loadQrcd, loadQrcdSplit } from "../qrcd/load.ts";
import { checkRunAgainstGold, formatIssue, readSpanRun, unrelatedToGold } from "../qrcd/runfile.ts";
import type { PassageQuestion, SpanRun } from "../qrcd/types.ts";
import type { UserSystemsSpec } from "./user_systems.ts";

/** The split of a spec: every question in file order, the filtered ones and their qrels. */
export interface SystemsSplit {
  /** The split's questions before the filter, in file order (what `.ref` files number). */
  raw: Question[];
  /** After the spec's filter: the questions every measure averages over (`-c`). */
  questions: Question[];
  qrels: Qrels;
  /** Ids of the questions the filter dropped. */
  dropped: string[];
  /** The corpus folder read. */
  dir: string;
  /** What the filter did. */
  report: FilterReport;
}

/**
 * Loads the split a spec names from the corpus folder `dir`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadSystemsSplit } from "./systems_input.ts";
 * import { SAMPLE_SYSTEMS } from "./user_systems.ts";
 * import { SAMPLES_DIR } from "../data/paths.ts";
 * const s = await loadSystemsSplit(SAMPLE_SYSTEMS, SAMPLES_DIR);
 * assert(s.questions.length > 0 && s.questions.length <= s.raw.length);
 * ```
 */
export async function loadSystemsSplit(
  spec: Pick<UserSystemsSpec, "dataset" | "split" | "filter">,
  dir: string,
): Promise<SystemsSplit> {
  const raw = (await loadSplit(spec.dataset, spec.split, { dir })).questions;
  const { questions, report } = applyFilter(raw, spec.filter);
  const kept = new Set(questions.map((q) => q.id));
  return {
    raw,
    questions,
    qrels: qrelsFromQuestions(questions),
    dropped: raw.filter((q) => !kept.has(q.id)).map((q) => q.id),
    dir,
    report,
  };
}

/** One run file of a system, read, in corpus ids, and checked against the split. */
export interface CheckedRun {
  /** The path as given. */
  file: string;
  /** In the corpus's ids (renumbered when it came in another numbering). */
  run: Run;
  /** The numbering it came in, when not the corpus ids. */
  numbering?: RunNumbering;
  /** What was mapped, as a sentence (empty when nothing was). */
  numberingNote: string;
  check: RunCheck;
  /** The protocol warnings, as sentences. */
  warnings: string[];
}

function fileName(path: string): string {
  return path.replace(/^.*\//, "");
}

/**
 * Reads one run file and checks it against the split. A run that shares no question with
 * the split is an error naming the likely cause; other departures are warnings.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadSystemsSplit, readCheckedRun } from "./systems_input.ts";
 * import { SAMPLE_SYSTEMS } from "./user_systems.ts";
 * import { SAMPLES_DIR } from "../data/paths.ts";
 * const split = await loadSystemsSplit(SAMPLE_SYSTEMS, SAMPLES_DIR);
 * const r = await readCheckedRun(SAMPLE_SYSTEMS.systems[0].runs[0], SAMPLE_SYSTEMS, split);
 * assert(r.run.has("Q300") && r.numbering === undefined);
 * ```
 */
export async function readCheckedRun(
  file: string,
  spec: Pick<UserSystemsSpec, "dataset" | "split" | "filter">,
  split: SystemsSplit,
): Promise<CheckedRun> {
  const read = renumberRun(await readRun(file), spec.dataset, split.raw, {
    split: spec.split,
    file,
  });
  const check = checkRunAgainstSplit(read.run, split.questions, {
    filter: spec.filter,
    split: spec.split,
    dropped: split.dropped,
  });
  if (check.questions > 0 && check.missingQuestions.length === check.questions) {
    const theirs = [...read.run.keys()].slice(0, 3).join(", ");
    const ours = split.questions.slice(0, 3).map((q) => q.id).join(", ");
    const why = check.filteredQuestions.length
      ? `its ${check.filteredQuestions.length} questions of the split are all dropped by the ` +
        `filter '${spec.filter}'`
      : `its question ids (${theirs || "none"}) are not the split's (${ours}, ...): a run of ` +
        `another dataset or split, or in a numbering the kit does not recognise ` +
        `(it maps WikiQA's .ref numbering; see docs/notebooks.md)`;
    throw new KitError(
      `shares no question with ${spec.dataset} ${spec.split} (${spec.filter}, ` +
        `${check.questions} questions${
          split.dir.endsWith("samples") ? " of the bundled sample: --data real for the corpus" : ""
        }): ${why}`,
      { file },
    );
  }
  return {
    file,
    run: read.run,
    ...(read.numbering ? { numbering: read.numbering } : {}),
    numberingNote: numberingNote(read, spec.split),
    check,
    warnings: runWarnings(check),
  };
}

/**
 * Every run file of every answer-selection system of the spec, read once and checked
 * ({@link readCheckedRun}); `say` gets one line per mapping and per protocol warning.
 */
export async function readCheckedRuns(
  spec: UserSystemsSpec,
  split: SystemsSplit,
  say: (line: string) => void = () => {},
): Promise<Map<string, CheckedRun[]>> {
  const out = new Map<string, CheckedRun[]>();
  for (const s of spec.systems) {
    const runs: CheckedRun[] = [];
    for (const file of s.runs) {
      const r = await readCheckedRun(file, spec, split);
      const where = `system ${JSON.stringify(s.name)} (${fileName(file)})`;
      if (r.numberingNote) say(`${where}: ${r.numberingNote}`);
      for (const w of r.warnings) say(`${where}: protocol warning: ${w}`);
      runs.push(r);
    }
    out.set(s.name, runs);
  }
  return out;
}

/**
 * The QRCD gold records: a split name (`dev`, `train`) read from `dir` (the corpus folder),
 * or a JSONL file. Every record must have answers (the test file has none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadQrcdGold } from "./systems_input.ts";
 * assert((await loadQrcdGold("dev", "samples")).length > 0);
 * ```
 */
export async function loadQrcdGold(gold: string, dir?: string): Promise<PassageQuestion[]> {
  const records = isQrcdSplit(gold) ? await loadQrcdSplit(gold, { dir }) : await loadQrcd(gold);
  const bare = records.find((r) => r.answers.length === 0);
  if (bare) {
    throw new KitError(
      `QRCD gold '${gold}': record ${bare.pqId} has no answers (the test file is distributed ` +
        "without them); score against dev or a gold file with answers",
    );
  }
  return records;
}

/** A QRCD run file, read and checked. */
export interface QrcdRunRead {
  path: string;
  run: SpanRun;
  /** The submission checker's findings and the checks against the gold records, as sentences. */
  issues: string[];
}

/**
 * Reads the QRCD runs of a spec and checks each against the gold records (missing and extra
 * pq_ids, the checker's rules). A run the official scorer would refuse is an error, as is a run
 * that shares no pq_id with the gold (it would score 0 everywhere: the wrong file).
 */
export async function readQrcdRuns(
  spec: UserSystemsSpec,
  gold: PassageQuestion[],
): Promise<Map<string, QrcdRunRead>> {
  const out = new Map<string, QrcdRunRead>();
  for (const r of spec.qrcd?.runs ?? []) {
    const { run, issues } = await readSpanRun(r.path);
    const all = [...issues, ...checkRunAgainstGold(gold, run)];
    const errors = all.filter((i) => i.severity === "error");
    if (errors.length) {
      throw new KitError(
        `the official scorer would not score this run:\n  ${
          errors.slice(0, 10).map((i) => formatIssue(i, r.path)).join("\n  ")
        }${errors.length > 10 ? `\n  ... and ${errors.length - 10} more errors` : ""}`,
        { file: r.path },
      );
    }
    // A run the checker accepts that answers none of the gold's questions is the wrong file.
    const unrelated = unrelatedToGold(gold, run);
    if (unrelated) throw new KitError(unrelated, { file: r.path });
    out.set(r.name, {
      path: r.path,
      run,
      issues: all.map((i) =>
        `${i.line === undefined ? "" : `line ${i.line}: `}${
          i.pqId ? `${i.pqId}: ` : ""
        }${i.message}`
      ),
    });
  }
  return out;
}

/** The QRCD runs of a spec, read and checked against their gold records. */
export interface QrcdInputs {
  gold: PassageQuestion[];
  runs: Map<string, QrcdRunRead>;
}

/**
 * Reads the QRCD gold records (`dir`: the corpus folder) and the spec's QRCD runs; a run the
 * official checker or scorer would refuse is an error; `say` gets each warning.
 */
export async function readQrcdInputs(
  spec: UserSystemsSpec,
  dir: string,
  say: (line: string) => void = () => {},
): Promise<QrcdInputs> {
  if (!spec.qrcd?.runs.length) return { gold: [], runs: new Map() };
  const gold = await loadQrcdGold(spec.qrcd.gold, dir);
  const runs = await readQrcdRuns(spec, gold);
  for (const [name, r] of runs) {
    for (const issue of r.issues) {
      say(`QRCD run ${JSON.stringify(name)} (${fileName(r.path)}): warning: ${issue}`);
    }
  }
  return { gold, runs };
}
