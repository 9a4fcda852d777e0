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
import { KitError } from "../../errors.ts";
import { type FilterName, FILTERS, protocolFilter } from "../../data/filters.ts";
import { SPLITS } from "../../data/datasets.ts";
import type { As2Dataset } from "../../data/types.ts";
import { dirname, resolvePath } from "../../io/path.ts";
import { readWholeText } from "../../io/whole_file.ts";
import { checkSystemName, parseSystemArg, runFiles } from "./spec_names.ts";
import { reportParts } from "../../tasks/registry.ts";
import type { PartSpec, ReportFlags } from "../../tasks/task.ts";
import { type FamilyChoice, parseFamily } from "../../stats/family.ts";

export { checkSystemName, parseSystemArg, runFiles };

/** One answer-selection system of a spec: run files (several: one per seed), or a model. */
export interface SpecSystem {
  /** The name the report shows (any text; escaped wherever it appears). */
  name: string;
  /** Its TREC (or ranx/pytrec_eval JSON) run files: paths or globs. */
  runs?: string[];
  /** Or a spec of `score --model` (`lexical:bm25`, `ltr`, a model folder, a hub id), scored first. */
  model?: string;
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
  /** Answer-selection systems (may be empty when a task's part has runs). */
  systems: SpecSystem[];
  /**
   * The pair of the error analysis. Default: your two best systems by MAP; with one system,
   * it against the strongest kit baseline that is not the same model.
   */
  compare?: [string, string];
  /** Evaluate the kit's baselines (BM25, the learned ranker) beside yours (default true). */
  baselines?: boolean;
  /**
   * The family of tests, chosen before the results are read: `all` (default: your systems
   * among themselves and each against each kit baseline), `mine` (your systems among
   * themselves), `baseline:NAME` (each of your systems against NAME, a baseline or one of
   * yours: PyTerrier's `Experiment` form, m = k - 1 for the k systems compared, NAME included).
   */
  family?: string;
  /**
   * A task's part by its key (lib/tasks: `ReportPart`), e.g. `qrcd: { gold: "dev", runs:
   * [{ name, path }] }` (QRCD runs and the gold records they are scored on).
   */
  [part: string]: unknown;
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
  compare?: [string, string];
  baselines: boolean;
  /** The family of tests (`all` unless the spec chose another; absent without answer-selection systems). */
  family?: FamilyChoice;
  /** Each task part given, by its key, resolved by the part (`ReportPart.fromSpec`). */
  [part: string]: unknown;
}

/** The kit's baselines beside the user's answer-selection systems (names the user cannot take). */
export const KIT_BASELINES: readonly { name: string; model: string }[] = [
  { name: "BM25 (kit)", model: "lexical:bm25" },
  { name: "ltr (kit)", model: "ltr" },
];

/** The arguments of `./kit report` that name the user's systems, as written. */
export interface SystemFlags {
  /** `NAME=PATH[,PATH...]` (a file, a list or a glob) each. */
  runs: readonly string[];
  /** `NAME=SPEC` each (a spec of `score --model`). */
  models: readonly string[];
  /** The flags of the tasks' report parts (`--qrcd-run`), read by each part; none by default. */
  parts?: ReportFlags;
  dataset?: string;
  split?: string;
  filter?: string;
  /** `A,B`: the two systems of the error analysis. */
  compare?: string;
  data?: "real" | "sample";
  /** `--no-baselines`: false leaves the kit's baselines out (the family is then your pairs). */
  baselines?: boolean;
  /** `--family all|mine|baseline:NAME`. */
  family?: string;
}

/**
 * The spec the report's flags name, paths made absolute against `cwd` (the caller's folder)
 * and checked; `undefined` when no system is named (then `--dataset`, `--split`, `--filter`,
 * `--compare` and `--qrcd-gold` are errors: they would be ignored).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { specFromFlags } from "./spec.ts";
 * const dir = await Deno.makeTempDir();
 * for (const s of [1, 2]) await Deno.writeTextFile(`${dir}/s${s}.run`, "");
 * const spec = specFromFlags({ runs: ["mine=s*.run"], models: ["bm25=lexical:bm25"] }, dir)!;
 * assert.deepEqual([spec.dataset, spec.split, spec.filter], ["wikiqa", "test", "clean"]);
 * assert.deepEqual(spec.systems.map((s) => s.runs.length), [2, 0]);
 * assert.equal(specFromFlags({ runs: [], models: [] }, dir), undefined);
 * assert.throws(() => specFromFlags({ runs: [], models: [], split: "dev" }, dir),
 *   /--split is for your systems/);
 * ```
 */
export function specFromFlags(given: SystemFlags, cwd: string): ResolvedSpec | undefined {
  const flags: ReportFlags = given.parts ??
    { list: () => [], str: () => undefined, has: () => false };
  // A task part may take over answer selection's flags (`--dataset qqa23 --run ...`).
  const claimed = new Set(reportParts().flatMap((p) => p.claims(flags)));
  const args: SystemFlags = {
    ...given,
    runs: claimed.has("run") ? [] : given.runs,
    ...Object.fromEntries(
      (["dataset", "split", "compare"] as const).filter((k) => claimed.has(k)).map((k) => [
        k,
        undefined,
      ]),
    ),
    ...(claimed.has("no-baselines") ? { baselines: undefined } : {}),
  };
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
  const parts: [string, PartSpec][] = [];
  for (const part of reportParts()) {
    const given = part.fromFlags(flags, cwd);
    if (given) parts.push([part.key, given]);
  }
  if (runs.length + models.length + parts.length === 0) {
    for (const key of ["dataset", "split", "filter", "compare", "family"] as const) {
      if (args[key] !== undefined) {
        throw new KitError(`--${key} is for your systems; give ${runWays()}`);
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
      ...Object.fromEntries(parts),
      ...(args.compare === undefined ? {} : { compare: comparePair(args.compare) }),
      ...(args.baselines === false ? { baselines: false } : {}),
      ...(args.family === undefined ? {} : { family: args.family }),
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

/**
 * The ways to give a system, as messages list them: `--run, --model or --qrcd-run` (each task
 * part's run flag after the two of answer selection).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { runWays } from "./spec.ts";
 * assert.match(runWays(), /^--run, --model/);
 * ```
 */
export function runWays(): string {
  const ways = ["--run", "--model", ...reportParts().map((p) => p.runFlag)]
    .filter((w, i, all) => all.indexOf(w) === i);
  return `${ways.slice(0, -1).join(", ")} or ${ways.at(-1)}`;
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
 * import { resolveSpec } from "./spec.ts";
 * import { SAMPLES_DIR } from "../../data/paths.ts";
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
  const parts = reportParts();
  const known = [
    ...["dataset", "split", "filter", "data", "systems"],
    ...parts.map((p) => p.key),
    ...["compare", "baselines", "family"],
  ];
  const unknown = Object.keys(top).find((k) => !known.includes(k));
  if (unknown !== undefined) {
    throw new KitError(`${where("")}unknown field '${unknown}' (the fields: ${known.join(", ")})`);
  }
  const dataset = optional(top.dataset, "dataset") ?? "wikiqa";
  if (!Object.hasOwn(SPLITS, dataset)) {
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
  const given: [string, PartSpec][] = parts.flatMap((p) =>
    top[p.key] === undefined ? [] : [[p.key, p.fromSpec(top[p.key], base, where)]]
  );
  const compare = top.compare === undefined
    ? undefined
    : array(top.compare, "compare").map((c, i) => string(c, `compare[${i}]`));
  if (compare && compare.length !== 2) {
    throw new KitError(`${where("compare")} must name two systems, got ${compare.length}`);
  }
  const names = [
    ...systems.map((s) => s.name),
    ...given.flatMap(([key, spec]) => parts.find((p) => p.key === key)!.names(spec)),
  ];
  const baselineNames = [
    ...KIT_BASELINES.map((b) => b.name),
    ...parts.flatMap((p) => p.baselineNames),
  ];
  for (const [i, n] of names.entries()) {
    if (names.indexOf(n) !== i) throw new KitError(`two systems are named '${n}'`);
    if (baselineNames.includes(n)) {
      throw new KitError(`'${n}' is the name of one of the kit's baselines; choose another`);
    }
  }
  if (names.length === 0) throw new KitError(`no system given (${runWays()})`);
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
  const familyText = optional(top.family, "family");
  if (familyText !== undefined && systems.length === 0) {
    throw new KitError(
      `${flags ? "--family" : where("family")} chooses the tests among answer-selection ` +
        "systems (wikiqa, trecqa); QRCD and Qur'an QA 2023 runs are tested as all pairs " +
        "involving yours (docs/qrcd.md, docs/qqa23.md)",
    );
  }
  const family = parseFamily(familyText ?? "all");
  if (family.startsWith("baseline:")) {
    const name = family.slice("baseline:".length);
    const pairable = [
      ...systems.map((s) => s.name),
      ...(baselines ? KIT_BASELINES.map((b) => b.name) : []),
    ];
    if (!pairable.includes(name)) {
      throw new KitError(
        `${flags ? "--family" : where("family")} ${familyText}: no answer-selection system is ` +
          `named '${name}' (the systems: ${pairable.join(", ")})`,
      );
    }
  }
  return {
    dataset: dataset as As2Dataset,
    split,
    filter: filter as FilterName,
    ...(data === undefined ? {} : { data }),
    systems,
    ...Object.fromEntries(given),
    ...(compare ? { compare: compare as [string, string] } : {}),
    baselines,
    ...(systems.length ? { family } : {}),
  };
}

/**
 * Reads a spec file (JSON, as `./kit report` writes `spec.json`): relative paths against the
 * file's folder; every error names the file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readSpecFile } from "./spec.ts";
 * import { SAMPLES_DIR } from "../../data/paths.ts";
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
