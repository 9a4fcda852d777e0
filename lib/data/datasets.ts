/**
 * The corpora the kit knows, one entry each: its pinned files (checksums and upstream copies),
 * its named splits (each split's file and published sizes), and its reader. `fetch`, the
 * install marker, `loadSplit`, the commands' dataset choices and docs/cli.md read this table.
 * Each task of the registry (lib/tasks/registry.ts) brings its corpora, in registry order;
 * `addDataset` adds one at run time, as the tests do.
 *
 * Layout of an installed corpus (and of a mirror folder, e.g. `../shared/datasets`): one
 * folder per corpus, named as the corpus (`wikiqa/...`, `trecqa/jacana-xml/...`).
 * File shapes and checksum rules: lib/data/corpus_entry.ts.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { TASKS } from "../tasks/registry.ts";
import type { DatasetEntry } from "./corpus_entry.ts";

export type {
  DatasetEntry,
  FileSpec,
  PublishedSize,
  SplitEntry,
  Upstream,
} from "./corpus_entry.ts";

/** The corpora, in the order lists show them. */
export const DATASETS: DatasetEntry[] = [];

/** The split names of an answer-selection corpus in {@link DATASETS}, or undefined. */
function splitsOf(name: string | symbol): string[] | undefined {
  const entry = DATASETS.find((d) => d.name === name && d.task === "as2");
  return entry && Object.keys(entry.splits);
}

/** {@link SPLITS} as a plain object, for printing. */
function splitsNow(): Record<string, string[]> {
  return Object.fromEntries(datasetNames("as2").map((name) => [name, splitsOf(name)!]));
}

/**
 * The split names of each answer-selection corpus: a read-only view of {@link DATASETS}, read
 * from it whenever it is looked at (a corpus `addDataset` adds is in it), so that the two cannot
 * disagree. It prints as the plain object it stands for.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SPLITS } from "./datasets.ts";
 * assert.deepEqual(SPLITS.wikiqa, ["train", "dev", "test"]);
 * assert.equal(Object.hasOwn(SPLITS, "qrcd"), false); // reading comprehension: no splits here
 * assert.match(Deno.inspect(SPLITS), /wikiqa: \[ "train", "dev", "test" \]/); // not `{}`
 * ```
 */
export const SPLITS: Readonly<Record<string, readonly string[]>> = new Proxy({
  // What Deno (and node:util) print: the view, not the proxy's empty target.
  [Symbol.for("Deno.customInspect")]: (inspect: typeof Deno.inspect, o: Deno.InspectOptions) =>
    inspect(splitsNow(), o),
}, {
  get: (target, name) => typeof name === "symbol" ? Reflect.get(target, name) : splitsOf(name),
  has: (_, name) => splitsOf(name) !== undefined,
  ownKeys: () => datasetNames("as2"),
  getOwnPropertyDescriptor: (_, name) => {
    const value = splitsOf(name);
    return value && { value, enumerable: true, configurable: true, writable: false };
  },
  set: () => false,
  defineProperty: () => false,
  deleteProperty: () => false,
});

/**
 * Adds a corpus to {@link DATASETS} (its splits are then in {@link SPLITS}), after checking that
 * its name is new and each split's file is one of its pinned files.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { addDataset } from "./datasets.ts";
 * assert.throws(() => addDataset({ name: "wikiqa", title: "", task: "as2", files: [], splits: {} }),
 *   /dataset 'wikiqa' is already defined/);
 * ```
 */
export function addDataset(entry: DatasetEntry): DatasetEntry {
  if (DATASETS.some((d) => d.name === entry.name)) {
    throw new KitError(`dataset '${entry.name}' is already defined`);
  }
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(entry.name)) {
    throw new KitError(`dataset name '${entry.name}' is not a plain folder name`);
  }
  const paths = new Set(entry.files.map((f) => f.path));
  for (const [split, s] of Object.entries(entry.splits)) {
    if (!paths.has(s.file)) {
      throw new KitError(`dataset ${entry.name}: split ${split}'s file ${s.file} is not pinned`);
    }
  }
  if (entry.task === "as2" && !entry.read) {
    throw new KitError(`dataset ${entry.name}: an answer-selection corpus needs a reader`);
  }
  DATASETS.push(entry);
  return entry;
}

/**
 * The entry of a corpus by name; an unknown name is an error listing the known ones.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findDataset } from "./datasets.ts";
 * assert.equal(findDataset("trecqa").splits["train-all"].file, "trecqa/jsonl/train-all.jsonl.gz");
 * assert.throws(() => findDataset("squad"), /unknown dataset 'squad' \(expected: wikiqa, trecqa/);
 * ```
 */
export function findDataset(name: string, task?: DatasetEntry["task"]): DatasetEntry {
  const entry = DATASETS.find((d) => d.name === name && (task === undefined || d.task === task));
  if (!entry) {
    throw new KitError(`unknown dataset '${name}' (expected: ${datasetNames(task).join(", ")})`);
  }
  return entry;
}

/**
 * The names of the corpora (of one task when given), in table order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { datasetNames } from "./datasets.ts";
 * assert.deepEqual(datasetNames("as2").slice(0, 2), ["wikiqa", "trecqa"]);
 * ```
 */
export function datasetNames(task?: DatasetEntry["task"]): string[] {
  return DATASETS.filter((d) => task === undefined || d.task === task).map((d) => d.name);
}

for (const task of TASKS) for (const corpus of task.corpora) addDataset(corpus);
