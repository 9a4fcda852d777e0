/**
 * The spec of a systems report: which runs (or models) to evaluate, on which corpus, split and
 * filter, and which pair to analyse. One form everywhere: an object (in a notebook, the first
 * cell of `notebooks/00-your-systems`) or the same object as JSON (`spec.json`, which
 * `./kit report --run ...` writes into the report folder). `evaluateSystems` takes it.
 *
 * ```json
 * { "dataset": "wikiqa", "split": "test",
 *   "systems": [{ "name": "mine", "runs": ["mine.run"] }, { "name": "seeds", "runs": ["seed*.run"] },
 *               { "name": "bm25 again", "model": "lexical:bm25" }],
 *   "compare": ["mine", "seeds"] }
 * ```
 *
 * Relative paths (and globs) are relative to the folder of the file the spec came from, or,
 * for an object in a notebook, the kernel's folder (the notebook's); `./kit report` writes
 * them absolute, as the caller's shell resolved them.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { type FilterName, FILTERS, protocolFilter } from "../data/filters.ts";
import { SPLITS } from "../data/datasets.ts";
import type { As2Dataset } from "../data/types.ts";
import { expandGlob } from "../io/glob.ts";
import { dirname, resolvePath } from "../io/path.ts";
import { readWholeText } from "../io/whole_file.ts";

/** One answer-selection system of a spec: run files (several: one per seed), or a model. */
export interface SpecSystem {
  /** The name the report shows (any text; escaped wherever it appears). */
  name: string;
  /** Its TREC (or ranx/pytrec_eval JSON) run files: paths or globs. */
  runs?: string[];
  /** Or a spec of `score --model` (`lexical:bm25`, `ltr`, a model folder, a hub id), scored first. */
  model?: string;
}

/** A QRCD run of a spec (the official JSON format). */
export interface SpecQrcdRun {
  name: string;
  /** The run file. */
  path: string;
}

/** What a systems report is asked about (every field but `systems` has a default). */
export interface SystemsSpec {
  /** `wikiqa` (default) or `trecqa`. */
  dataset?: string;
  /** Default `test`. */
  split?: string;
  /** Default: the protocol's for the split (`clean` for dev and test, `no-all` for training). */
  filter?: string;
  /**
   * The corpus: `real` (the fetched one) or `sample` (the bundled samples). Default: the
   * installed corpus (the real one once fetched, as every command reads), else the sample.
   */
  data?: "real" | "sample";
  /** Answer-selection systems (may be empty when QRCD runs are given). */
  systems: SpecSystem[];
  /** QRCD runs and the gold records they are scored on (`dev`, `train` or a file; default dev). */
  qrcd?: { gold?: string; runs: SpecQrcdRun[] };
  /**
   * The pair of the error analysis. Default: your two best systems by MAP; with one system,
   * it against the strongest kit baseline that is not the same model.
   */
  compare?: [string, string];
  /** Evaluate the kit's baselines (BM25, the learned ranker) beside yours (default true). */
  baselines?: boolean;
}

/** A system of a resolved spec: its run files found (absolute), or its model. */
export interface ResolvedSystem {
  name: string;
  /** Absolute paths of its run files (empty for a model). */
  runs: string[];
  model?: string;
}

/** A spec with every default filled in, paths absolute and globs expanded, checked. */
export interface ResolvedSpec {
  dataset: As2Dataset;
  split: string;
  filter: FilterName;
  /** Absent: the installed corpus, chosen when the report is computed. */
  data?: "real" | "sample";
  systems: ResolvedSystem[];
  qrcd?: { gold: string; runs: SpecQrcdRun[] };
  compare?: [string, string];
  baselines: boolean;
}

/** The kit's baselines beside the user's answer-selection systems (names the user cannot take). */
export const KIT_BASELINES: readonly { name: string; model: string }[] = [
  { name: "BM25 (kit)", model: "lexical:bm25" },
  { name: "ltr (kit)", model: "ltr" },
];

/** The kit's QRCD baseline beside the user's QRCD runs. */
export const QRCD_BASELINE = "overlap baseline (kit)";

/**
 * Checks a system name: not empty, no control characters, at most 80 characters. Anything
 * else is allowed (the report escapes names wherever they appear).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkSystemName } from "./systems_spec.ts";
 * assert.equal(checkSystemName(" <b>My & model</b> "), "<b>My & model</b>");
 * assert.throws(() => checkSystemName("a\nb"), /control characters/);
 * ```
 */
export function checkSystemName(raw: string): string {
  const name = raw.trim();
  if (name === "") throw new KitError("a system name is empty (write NAME=PATH)");
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) {
    throw new KitError(`the system name ${JSON.stringify(name)} has control characters`);
  }
  if (name.length > 80) {
    throw new KitError(`the system name '${name.slice(0, 20)}...' is over 80 characters`);
  }
  return name;
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * The files one run entry names: a path or a glob (numbers in numeric order), relative to
 * `base`; each must be a regular file. `where` prefixes the errors (`--run mine`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runFiles } from "./systems_spec.ts";
 * const dir = await Deno.makeTempDir();
 * for (const s of [1, 2, 10]) await Deno.writeTextFile(`${dir}/s${s}.run`, "");
 * assert.deepEqual(runFiles("s*.run", dir, "x"), [1, 2, 10].map((s) => `${dir}/s${s}.run`));
 * assert.throws(() => runFiles("none.run", dir, "--run x"), /--run x: file not found/);
 * ```
 */
export function runFiles(entry: string, base: string, where: string): string[] {
  let matches: string[];
  try {
    matches = expandGlob(entry, base);
  } catch (e) {
    if (e instanceof KitError) throw new KitError(`${where}: ${e.message}`);
    throw e;
  }
  return matches.map((p) => {
    const path = resolvePath(p, base);
    let st: Deno.FileInfo;
    try {
      st = Deno.statSync(path);
    } catch {
      throw new KitError(`${where}: file not found`, { file: p });
    }
    if (!st.isFile) throw new KitError(`${where}: not a regular file`, { file: p });
    return path;
  });
}

/**
 * Parses one `NAME=PATH[,PATH...]` argument (`--run`, `--qrcd-run`): paths relative to
 * `cwd` (the caller's directory), each a file or a glob pattern (`runs/seed*.run`). A value
 * that is itself an existing file is taken whole, commas and all.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSystemArg } from "./systems_spec.ts";
 * const dir = await Deno.makeTempDir();
 * for (const s of [1, 2, 10]) await Deno.writeTextFile(`${dir}/s${s}.run`, "");
 * assert.deepEqual(parseSystemArg("ltr=s*.run", dir, "--run"),
 *   { name: "ltr", paths: [`${dir}/s1.run`, `${dir}/s2.run`, `${dir}/s10.run`] });
 * assert.deepEqual(parseSystemArg("x=s1.run,s2.run", dir, "--run").paths.length, 2);
 * ```
 */
export function parseSystemArg(
  value: string,
  cwd: string,
  flag: string,
): { name: string; paths: string[] } {
  const eq = value.indexOf("=");
  if (eq < 0) {
    throw new KitError(`${flag} takes NAME=PATH (e.g. ${flag} mine=runs/mine.run), got '${value}'`);
  }
  const name = checkSystemName(value.slice(0, eq));
  const rest = value.slice(eq + 1);
  if (rest === "") throw new KitError(`${flag} ${name}=: no path given`);
  const parts = isFile(resolvePath(rest, cwd))
    ? [rest]
    : rest.split(",").map((p) => p.trim()).filter((p) => p);
  const paths = parts.flatMap((p) => runFiles(p, cwd, `${flag} ${name}`));
  const seen = new Set<string>();
  for (const p of paths) {
    if (seen.has(p)) throw new KitError(`${flag} ${name}: the file is given twice`, { file: p });
    seen.add(p);
  }
  return { name, paths };
}

/** The arguments of `./kit report` that name the user's systems, as written. */
export interface SystemFlags {
  /** `NAME=PATH[,PATH...]` (a file, a list or a glob) each. */
  runs: readonly string[];
  /** `NAME=SPEC` each (a spec of `score --model`). */
  models: readonly string[];
  /** `NAME=RUN.json` each. */
  qrcdRuns: readonly string[];
  qrcdGold?: string;
  dataset?: string;
  split?: string;
  filter?: string;
  /** `A,B`: the two systems of the error analysis. */
  compare?: string;
  data?: "real" | "sample";
  /** `--no-baselines`: false leaves the kit's baselines out (the family is then your pairs). */
  baselines?: boolean;
}

/**
 * The spec the report's flags name, paths made absolute against `cwd` (the caller's folder)
 * and checked; `undefined` when no system is named (then `--dataset`, `--split`, `--filter`,
 * `--compare` and `--qrcd-gold` are errors: they would be ignored).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { specFromFlags } from "./systems_spec.ts";
 * const dir = await Deno.makeTempDir();
 * for (const s of [1, 2]) await Deno.writeTextFile(`${dir}/s${s}.run`, "");
 * const spec = specFromFlags({ runs: ["mine=s*.run"], models: ["bm25=lexical:bm25"], qrcdRuns: [] }, dir)!;
 * assert.deepEqual([spec.dataset, spec.split, spec.filter], ["wikiqa", "test", "clean"]);
 * assert.deepEqual(spec.systems.map((s) => s.runs.length), [2, 0]);
 * assert.equal(specFromFlags({ runs: [], models: [], qrcdRuns: [] }, dir), undefined);
 * assert.throws(() => specFromFlags({ runs: [], models: [], qrcdRuns: [], split: "dev" }, dir),
 *   /--split is for your systems/);
 * ```
 */
export function specFromFlags(args: SystemFlags, cwd: string): ResolvedSpec | undefined {
  const runs = args.runs.map((v) => parseSystemArg(v, cwd, "--run"));
  const models = args.models.map((v) => {
    const eq = v.indexOf("=");
    if (eq < 0) {
      throw new KitError(`--model takes NAME=SPEC (e.g. mine=models/cross-encoder), got '${v}'`);
    }
    const model = v.slice(eq + 1).trim();
    if (model === "") throw new KitError(`--model ${v}: no model spec given`);
    return { name: checkSystemName(v.slice(0, eq)), model: modelSpec(model, cwd) };
  });
  const qrcdRuns = args.qrcdRuns.map((v) => {
    const { name, paths } = parseSystemArg(v, cwd, "--qrcd-run");
    if (paths.length !== 1) throw new KitError(`--qrcd-run ${name}: give one run file`);
    return { name, path: paths[0] };
  });
  if (args.qrcdGold !== undefined && qrcdRuns.length === 0) {
    throw new KitError("--qrcd-gold is for --qrcd-run; give a QRCD run");
  }
  if (runs.length + models.length + qrcdRuns.length === 0) {
    for (const key of ["dataset", "split", "filter", "compare"] as const) {
      if (args[key] !== undefined) {
        throw new KitError(`--${key} is for your systems; give --run, --model or --qrcd-run`);
      }
    }
    return undefined;
  }
  return resolveSpec(
    {
      ...(args.dataset === undefined ? {} : { dataset: args.dataset }),
      ...(args.split === undefined ? {} : { split: args.split }),
      ...(args.filter === undefined ? {} : { filter: args.filter }),
      ...(args.data === undefined ? {} : { data: args.data }),
      systems: [
        ...runs.map((r) => ({ name: r.name, runs: r.paths })),
        ...models.map((m) => ({ name: m.name, model: m.model })),
      ],
      ...(qrcdRuns.length
        ? { qrcd: { gold: qrcdGold(args.qrcdGold ?? "dev", cwd), runs: qrcdRuns } }
        : {}),
      ...(args.compare === undefined ? {} : { compare: comparePair(args.compare) }),
      ...(args.baselines === false ? { baselines: false } : {}),
    },
    cwd,
    "--",
  );
}

/** A model spec: a local folder made absolute against `base`; others (lexical:, ltr, a hub id) as written. */
function modelSpec(model: string, base: string): string {
  if (/^(lexical:|ltr$)/.test(model)) return model;
  try {
    if (Deno.statSync(resolvePath(model, base)).isDirectory) return resolvePath(model, base);
  } catch { /* a hub id */ }
  return model;
}

/** `A,B`: two system names (trimmed), as `--compare` takes them. */
function comparePair(value: string): [string, string] {
  const parts = value.split(",").map((p) => p.trim());
  if (parts.length !== 2 || parts.some((p) => p === "")) {
    throw new KitError(
      `--compare takes two system names, A,B (a name with a comma: give it in spec.json), got '${value}'`,
    );
  }
  return [parts[0], parts[1]];
}

/** A QRCD split name (`dev`, `train`), unless a file by that name exists; else a file path. */
function qrcdGold(gold: string, base: string): string {
  const path = resolvePath(gold, base);
  if (/^(dev|train)$/.test(gold) && !isFile(path)) return gold;
  if (!isFile(path)) throw new KitError("the QRCD gold file is not found", { file: gold });
  return path;
}

/**
 * Checks a spec (an object from a notebook, or parsed JSON: every field's type is checked, so
 * a wrong one is a message naming it, never a TypeError later), fills in the defaults,
 * resolves relative paths and globs against `base`, and checks what it names: a known
 * dataset, split and filter, unique names that are not a baseline's, every run file present,
 * at least one system or QRCD run, a `compare` pair of known systems. `origin` names where
 * the spec came from in the messages (a file, `--` for the command line's flags).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveSpec } from "./systems_spec.ts";
 * import { SAMPLES_DIR } from "../data/paths.ts";
 * const spec = resolveSpec({ data: "sample", systems: [{ name: "mine", runs: ["runs/wikiqa-test.run"] }] }, SAMPLES_DIR);
 * assert.deepEqual([spec.dataset, spec.split, spec.filter, spec.baselines], ["wikiqa", "test", "clean", true]);
 * assert.equal(spec.systems[0].runs[0], `${SAMPLES_DIR}/runs/wikiqa-test.run`);
 * assert.throws(() => resolveSpec({ systems: [{ name: 5 }] } as never, "."), /spec: systems\[0\]\.name must be a string, got 5/);
 * assert.throws(() => resolveSpec({ split: "tset", systems: [{ name: "x", model: "ltr" }] }, "."), /unknown wikiqa split 'tset'/);
 * ```
 */
export function resolveSpec(spec: SystemsSpec, base: string, origin = "spec"): ResolvedSpec {
  const flags = origin === "--";
  const where = (path: string) => flags ? `--${path}` : origin ? `${origin}: ${path}` : path;
  const shown = (v: unknown) => v === undefined ? "nothing" : JSON.stringify(v);
  const object = (v: unknown, path: string): Record<string, unknown> => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      throw new KitError(
        path
          ? `${where(path)} must be an object, got ${shown(v)}`
          : `${origin || "the spec"}: expected an object, got ${shown(v)}`,
      );
    }
    return v as Record<string, unknown>;
  };
  const string = (v: unknown, path: string): string => {
    if (typeof v !== "string") {
      throw new KitError(`${where(path)} must be a string, got ${shown(v)}`);
    }
    return v;
  };
  const optional = (v: unknown, path: string) => v === undefined ? undefined : string(v, path);
  const array = (v: unknown, path: string): unknown[] => {
    if (!Array.isArray(v)) throw new KitError(`${where(path)} must be a list, got ${shown(v)}`);
    return v;
  };
  const top = object(spec, "");
  const known = ["dataset", "split", "filter", "data", "systems", "qrcd", "compare", "baselines"];
  const unknown = Object.keys(top).find((k) => !known.includes(k));
  if (unknown !== undefined) {
    throw new KitError(`${where("")}unknown field '${unknown}' (the fields: ${known.join(", ")})`);
  }
  const dataset = optional(top.dataset, "dataset") ?? "wikiqa";
  if (!Object.hasOwn(SPLITS, dataset) || dataset === "qrcd") {
    throw new KitError(`unknown dataset '${dataset}' (expected wikiqa or trecqa)`);
  }
  const split = optional(top.split, "split") ?? "test";
  if (!SPLITS[dataset].includes(split)) {
    throw new KitError(
      `unknown ${dataset} split '${split}' (expected one of: ${SPLITS[dataset].join(", ")})`,
    );
  }
  const filter = optional(top.filter, "filter") ?? protocolFilter(split);
  if (!(FILTERS as readonly string[]).includes(filter)) {
    throw new KitError(`unknown filter '${filter}' (expected one of: ${FILTERS.join(", ")})`);
  }
  const data = optional(top.data, "data");
  if (data !== undefined && data !== "real" && data !== "sample") {
    throw new KitError(`${where("data")} must be 'real' or 'sample', got '${data}'`);
  }
  if (top.baselines !== undefined && typeof top.baselines !== "boolean") {
    throw new KitError(`${where("baselines")} must be true or false, got ${shown(top.baselines)}`);
  }
  const systems = array(top.systems, "systems").map((raw, i): ResolvedSystem => {
    const s = object(raw, `systems[${i}]`);
    const name = checkSystemName(string(s.name, `systems[${i}].name`));
    const model = optional(s.model, `systems[${i}].model`);
    const entries = s.runs === undefined
      ? []
      : array(s.runs, `systems[${i}].runs`).map((r, j) => string(r, `systems[${i}].runs[${j}]`));
    if ((entries.length === 0) === (model === undefined)) {
      throw new KitError(
        `system '${name}': give its run files (runs) or a model (model), one of the two`,
      );
    }
    const label = flags ? `--run ${name}` : `${where("")}system '${name}'`;
    const runs = entries.flatMap((e) => runFiles(e, base, label));
    const seen = new Set<string>();
    for (const p of runs) {
      if (seen.has(p)) throw new KitError(`${label}: the file is given twice`, { file: p });
      seen.add(p);
    }
    return { name, runs, ...(model === undefined ? {} : { model: modelSpec(model, base) }) };
  });
  const qrcd = top.qrcd === undefined ? undefined : object(top.qrcd, "qrcd");
  const qrcdRuns = qrcd === undefined ? [] : array(qrcd.runs, "qrcd.runs").map((raw, i) => {
    const r = object(raw, `qrcd.runs[${i}]`);
    const name = checkSystemName(string(r.name, `qrcd.runs[${i}].name`));
    const path = resolvePath(string(r.path, `qrcd.runs[${i}].path`), base);
    if (!isFile(path)) throw new KitError(`QRCD run '${name}': file not found`, { file: path });
    return { name, path };
  });
  const compare = top.compare === undefined
    ? undefined
    : array(top.compare, "compare").map((c, i) => string(c, `compare[${i}]`));
  if (compare && compare.length !== 2) {
    throw new KitError(`${where("compare")} must name two systems, got ${compare.length}`);
  }
  const names = [...systems.map((s) => s.name), ...qrcdRuns.map((r) => r.name)];
  for (const [i, n] of names.entries()) {
    if (names.indexOf(n) !== i) throw new KitError(`two systems are named '${n}'`);
    if (KIT_BASELINES.some((b) => b.name === n) || n === QRCD_BASELINE) {
      throw new KitError(`'${n}' is the name of one of the kit's baselines; choose another`);
    }
  }
  if (names.length === 0) throw new KitError("no system given (--run, --model or --qrcd-run)");
  const baselines = top.baselines !== false;
  if (compare) {
    const pairable = [
      ...systems.map((s) => s.name),
      ...(baselines ? KIT_BASELINES.map((b) => b.name) : []),
    ];
    for (const n of compare) {
      if (!pairable.includes(n)) {
        throw new KitError(
          `${flags ? "--compare" : where("compare")}: no answer-selection system is named ` +
            `'${n}' (the systems: ${pairable.join(", ")})`,
        );
      }
    }
    if (compare[0] === compare[1]) {
      throw new KitError(`--compare: give two different systems, got '${compare[0]}' twice`);
    }
  }
  return {
    dataset: dataset as As2Dataset,
    split,
    filter: filter as FilterName,
    ...(data === undefined ? {} : { data }),
    systems,
    ...(qrcd
      ? {
        qrcd: { gold: qrcdGold(optional(qrcd.gold, "qrcd.gold") ?? "dev", base), runs: qrcdRuns },
      }
      : {}),
    ...(compare ? { compare: compare as [string, string] } : {}),
    baselines,
  };
}

/**
 * Reads a spec file (JSON, as `./kit report` writes `spec.json`): relative paths against the
 * file's folder; every error names the file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readSpecFile } from "./systems_spec.ts";
 * import { SAMPLES_DIR } from "../data/paths.ts";
 * const file = await Deno.makeTempFile({ suffix: ".json" });
 * await Deno.writeTextFile(file, JSON.stringify({ data: "sample", systems: [{ name: "s", runs: [`${SAMPLES_DIR}/runs/wikiqa-test.run`] }] }));
 * assert.equal((await readSpecFile(file)).systems[0].name, "s");
 * await Deno.writeTextFile(file, "{");
 * await assert.rejects(() => readSpecFile(file), /not valid JSON/);
 * ```
 */
export async function readSpecFile(file: string): Promise<ResolvedSpec> {
  const path = resolvePath(file);
  const text = await readWholeText(path, "spec", { missingOk: true });
  if (text === undefined) {
    throw new KitError("cannot read the spec: file not found", { file: path });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new KitError(`not valid JSON: ${(e as Error).message}`, { file: path });
  }
  try {
    return resolveSpec(parsed as SystemsSpec, dirname(path), "");
  } catch (e) {
    // The spec's own mistakes name the spec file; a run file's name that file.
    if (e instanceof KitError && e.file === undefined) {
      throw new KitError(e.problem, { file: path }, { cause: e });
    }
    throw e;
  }
}
