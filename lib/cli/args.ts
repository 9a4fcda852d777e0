/**
 * Reading a command's arguments against its option table (`flags.ts`, re-exported here), and
 * the flags several commands share: single table entries here ({@link OUT_OPTION},
 * {@link FORCE_OPTION}, {@link FILTER_OPTION}, {@link DIR_OPTION}, {@link BACKEND_OPTION}), each
 * beside the function that reads it; those of every evaluating command ({@link RELEASE_OPTION},
 * {@link COMPLETE_OPTION}, {@link LEVEL_OPTION}) are in `flags.ts`.
 *
 * @module
 */
import { type FilterName, FILTERS, protocolFilter } from "../data/filters.ts";
import { defaultCacheDir, SAMPLES_DIR } from "../data/paths.ts";
import { KitError } from "../errors.ts";
import { checkOutput } from "../io/output.ts";
import { BACKEND_CHOICES, type BackendChoice } from "../scoring/model/session_types.ts";
import type { Option } from "./command.ts";
import type { Parsed } from "./grammar.ts";
import { oneOf, str } from "./flags.ts";

export {
  COMPLETE_OPTION,
  INTEGER_FLAG_LIMITS,
  integerFlag,
  LEVEL_OPTION,
  list,
  oneOf,
  parseFlags,
  type QuerySetFlags,
  querySetFlags,
  RELEASE_OPTION,
  relevanceLevel,
  required,
  str,
  trecRelease,
} from "./flags.ts";

/** `--out FILE`: the file a command writes ({@link outputFlag}). */
export const OUT_OPTION: Option = {
  name: "out",
  value: "FILE",
  help: "the file to write, - for standard output; an existing file is replaced only with " +
    "--force",
};

/** `--force`: replace an existing output file. */
export const FORCE_OPTION: Option = {
  name: "force",
  help: "replace an existing output: a regular file, or in a report folder what the report " +
    "wrote (files it did not write are kept)",
};

/** `--filter`: the question filter of an answer-selection split ({@link filterFlag}). */
export const FILTER_OPTION: Option = {
  name: "filter",
  value: FILTERS.join("|"),
  help: "question filter; default: the protocol's for the split (clean for dev and test, " +
    "no-all for training splits), said on stderr",
};

/** `--run-id ID`: the runid column of a TREC run a command writes. */
export const RUN_ID_OPTION: Option = {
  name: "run-id",
  value: "ID",
  help: "the runid column of the TREC run written (default: convert, the input's last runid, " +
    "kit for JSON input; fuse, the method; score, the model)",
};

/** `--dir DIR`: the corpus folder. */
export const DIR_OPTION: Option = {
  name: "dir",
  value: "DIR",
  help: "corpus folder: where data fetch installs, where the other commands read (default " +
    "data/cache/, else the bundled samples when the corpus is not fetched; 'samples' names the " +
    "bundled samples)",
};

/**
 * `--backend B`: where transformer models run, in every command that runs one (`score`,
 * `report`; `bench scoring` takes a list, `--backends`). `KIT_BACKEND` is the same choice for
 * the notebooks.
 */
export const BACKEND_OPTION: Option = {
  name: "backend",
  value: BACKEND_CHOICES.join("|"),
  help:
    "where transformer models run: auto (the default: a hardware WebGPU adapter, else cpu, else wasm; " +
    "a software adapter such as lavapipe never), webgpu, cpu (onnxruntime's native CPU " +
    "backend on this process's cores) or wasm (onnxruntime-web, one thread); the choice is " +
    "said on stderr",
};

/**
 * Reads {@link BACKEND_OPTION}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BACKEND_OPTION, backendFlag, parseFlags } from "./args.ts";
 * const table = { options: [BACKEND_OPTION] };
 * assert.equal(backendFlag(parseFlags([], table)), "auto");
 * assert.equal(backendFlag(parseFlags(["--backend", "wasm"], table)), "wasm");
 * assert.throws(() => backendFlag(parseFlags(["--backend", "gpu"], table)), /unknown backend 'gpu'/);
 * ```
 */
export function backendFlag(p: Parsed): BackendChoice {
  return oneOf(str(p, "backend") ?? "auto", BACKEND_CHOICES, "backend");
}

/** An output file a command will write, checked before the work (see {@link outputFlag}). */
export interface OutputFlag {
  /** The path as the user gave it. */
  path: string;
  /** `--force`: replace an existing regular file. */
  force: boolean;
}

/**
 * The `--out FILE [--force]` flags of a command, checked before the command does any work
 * (`checkOutput`): an existing file without `--force`, a folder, a path through a file, a
 * read-only or forbidden folder, a disk is an error now, not after minutes of scoring.
 * Undefined when `--out` is absent (then the command writes to stdout). `--out -` is standard
 * output too, in every command (a run or qrels writer writes there whatever it is: a file it
 * redirects to is the caller's).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FORCE_OPTION, OUT_OPTION, outputFlag, parseFlags } from "./args.ts";
 * const dir = await Deno.makeTempDir();
 * const spec = { options: [OUT_OPTION, FORCE_OPTION] };
 * const out = await outputFlag(parseFlags(["--out", `${dir}/a.run`], spec));
 * assert.deepEqual(out, { path: `${dir}/a.run`, force: false });
 * assert.equal(await outputFlag(parseFlags([], spec)), undefined);
 * assert.deepEqual(await outputFlag(parseFlags(["--out", "-"], spec)), { path: "-", force: false });
 * ```
 *
 * `readFolders` are the folders the command reads (a model's folder, the corpus folder:
 * {@link readFoldersOf}): an existing file inside them is never replaced, even with `--force`.
 */
export async function outputFlag(
  p: Parsed,
  name = "out",
  readFolders: readonly string[] = [],
): Promise<OutputFlag | undefined> {
  const path = str(p, name);
  if (path === undefined) return undefined;
  if (path === "") throw new KitError(`--${name} needs a file name`);
  const force = p.values.force === true;
  // `--out -` is standard output in every command; no other flag writes there.
  if (path === "-") {
    if (name === "out") return { path, force };
    throw new KitError(`--${name} needs a file name ('-', standard output, is for --out only)`);
  }
  await checkOutput(path, { force, inputs: givenPaths(p, name), readFolders, named: `--${name}` });
  return { path, force };
}

/**
 * The folders a command reading a corpus (and a model) reads from: `--dir` (or, without it, the
 * corpus cache and the bundled samples, where the corpus is read when nothing is fetched) and
 * `--model` when it names a folder. An output never replaces a file inside them
 * ({@link outputFlag}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DIR_OPTION, parseFlags, readFoldersOf } from "./args.ts";
 * const p = parseFlags(["--dir", "corp", "--model", "lexical:bm25"], {
 *   options: [DIR_OPTION, { name: "model", value: "M", help: "a model" }],
 * });
 * assert.deepEqual(readFoldersOf(p), ["corp"]);
 * ```
 */
export function readFoldersOf(p: Parsed): string[] {
  const dir = str(p, "dir");
  const folders = dir === "samples" ? [SAMPLES_DIR] : dir !== undefined ? [dir] : [SAMPLES_DIR];
  if (dir === undefined) {
    try {
      folders.unshift(defaultCacheDir());
    } catch { /* the kit imported by URL: no cache folder of its own */ }
  }
  const model = str(p, "model");
  if (model !== undefined) {
    try {
      if (Deno.statSync(model).isDirectory) folders.push(model);
    } catch { /* a hub id or a lexical model: read from the cache, or nothing */ }
  }
  return folders;
}

/**
 * Every path the command line may read: its positionals and the values of its flags but
 * `--NAME` itself (what an output is checked against: `checkOutput`'s `inputs`).
 */
function givenPaths(p: Parsed, name: string): string[] {
  return [
    ...p.positionals,
    ...Object.entries(p.values).filter(([k]) => k !== name)
      .flatMap(([, v]) => Array.isArray(v) ? v : [v])
      .filter((v): v is string => typeof v === "string"),
  ];
}

/**
 * The `--filter` flag, or the protocol's filter for the split when absent (clean for dev and
 * test, no-all for training splits: `protocolFilter`); says on stderr which one is used.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FILTER_OPTION, filterFlag, parseFlags } from "./args.ts";
 * const spec = { options: [FILTER_OPTION] };
 * assert.equal(filterFlag(parseFlags([], spec), "test", () => {}), "clean");
 * assert.equal(filterFlag(parseFlags([], spec), "train", () => {}), "no-all");
 * assert.equal(filterFlag(parseFlags(["--filter", "raw"], spec), "test", () => {}), "raw");
 * ```
 */
export function filterFlag(
  p: Parsed,
  split: string,
  log: (line: string) => void = (l) => console.error(l),
): FilterName {
  const given = str(p, "filter");
  if (given !== undefined) return oneOf(given, FILTERS, "filter");
  const filter = protocolFilter(split);
  log(
    `${split}: filter ${filter} (the protocol's for ${split}; --filter raw|no-all|clean to change)`,
  );
  return filter;
}
