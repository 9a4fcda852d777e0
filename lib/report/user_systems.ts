/**
 * The user's systems, the subject of the report's first page (`notebooks/00-your-systems`):
 * what `deno task report --run NAME=PATH --model NAME=SPEC --qrcd-run NAME=PATH` was given,
 * as one plain object that travels to the notebook as JSON in the `KIT_SYSTEMS` environment
 * variable, and the reading of the runs it names.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { type FilterName, FILTERS, protocolFilter } from "../data/filters.ts";
import { SPLITS } from "../data/splits.ts";
import type { As2Dataset } from "../data/types.ts";
import { SAMPLES_DIR } from "../data/paths.ts";
import { expandGlob } from "../io/glob.ts";
import { resolvePath } from "../io/path.ts";

/** The environment variable that names the spec file handed to the notebook. */
export const SYSTEMS_ENV = "KIT_SYSTEMS";

/** One answer-selection system: one run file, or several (e.g. one per seed). */
export interface UserSystem {
  /** The name the report shows. */
  name: string;
  /** Absolute paths of its TREC run files (empty for a model not scored yet). */
  runs: string[];
  /** The model spec it was scored from (`--model NAME=SPEC`), if any. */
  model?: string;
}

/** A QRCD run (the official JSON format). */
export interface UserQrcdRun {
  name: string;
  /** Absolute path. */
  path: string;
}

/** Everything the report was asked about the user's systems. */
export interface UserSystemsSpec {
  dataset: As2Dataset;
  split: string;
  filter: FilterName;
  /** Answer-selection systems (may be empty when only QRCD runs are given). */
  systems: UserSystem[];
  /** QRCD runs and the gold file or split they are scored on (default the dev split). */
  qrcd?: { gold: string; runs: UserQrcdRun[] };
  /** The pair of the error analysis (`--compare A,B`); default: see `comparedPair`. */
  compare?: [string, string];
  /** The page's example (the kit's baselines alone), shown when no system is given. */
  example?: true;
  /** The folder the notebook writes its per-question files into (the report's; absolute). */
  out?: string;
}

/**
 * Checks a system name: not empty, no control characters, at most 80 characters. Anything
 * else is allowed (the report escapes names wherever they appear).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkSystemName } from "./user_systems.ts";
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

/** A user's path, absolute against the folder they ran the command from. */
function resolveAgainst(path: string, cwd: string): string {
  return resolvePath(path, cwd);
}

/**
 * Parses one `NAME=PATH[,PATH...]` argument (`--run`, `--qrcd-run`): paths relative to
 * `cwd` (the caller's directory), each a file or a glob pattern (`runs/seed*.run`). A value
 * that is itself an existing file is taken whole, commas and all.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSystemArg } from "./user_systems.ts";
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
  const isFile = (p: string) => existsAs(resolveAgainst(p, cwd), "file");
  const parts = isFile(rest) ? [rest] : rest.split(",").map((p) => p.trim()).filter((p) => p);
  const paths: string[] = [];
  for (const part of parts) {
    let matches: string[];
    try {
      matches = expandGlob(part, cwd);
    } catch (e) {
      // Say which flag (or variable) and system the pattern came from.
      if (e instanceof KitError) throw new KitError(`${flag} ${name}: ${e.message}`);
      throw e;
    }
    for (const p of matches) {
      let st: Deno.FileInfo;
      try {
        st = Deno.statSync(resolveAgainst(p, cwd));
      } catch {
        throw new KitError(`${flag} ${name}: file not found`, { file: p });
      }
      if (!st.isFile) throw new KitError(`${flag} ${name}: not a regular file`, { file: p });
      paths.push(resolveAgainst(p, cwd));
    }
  }
  const seen = new Set<string>();
  for (const p of paths) {
    if (seen.has(p)) throw new KitError(`${flag} ${name}: the file is given twice`, { file: p });
    seen.add(p);
  }
  return { name, paths };
}

/**
 * The arguments that name the user's systems, as written on the command line (`--run`,
 * `--model`, `--qrcd-run`, `--qrcd-gold`, `--dataset`, `--split`, `--filter`) or in the
 * notebook's environment (`KIT_RUNS`, ...): raw strings, read by {@link specFromArgs}.
 */
export interface SystemArgs {
  /** `NAME=PATH[,PATH...]` (a file, a list or a glob) each. */
  runs: readonly string[];
  /** `NAME=SPEC` each (a spec of `score --model`), scored by the report before the notebook. */
  models: readonly string[];
  /** `NAME=RUN.json` each. */
  qrcdRuns: readonly string[];
  qrcdGold?: string;
  dataset?: string;
  split?: string;
  filter?: string;
  /** `A,B`: the two systems of the error analysis. */
  compare?: string;
}

/** What each argument is called where the user wrote it, for the error messages. */
export type ArgNames = Record<keyof SystemArgs, string>;

/** The command line's names (`deno task report`). */
export const FLAG_NAMES: ArgNames = {
  runs: "--run",
  models: "--model",
  qrcdRuns: "--qrcd-run",
  qrcdGold: "--qrcd-gold",
  dataset: "--dataset",
  split: "--split",
  filter: "--filter",
  compare: "--compare",
};

/**
 * The notebook's environment variables, for running `notebooks/00-your-systems` outside the
 * report (plain `jupyter nbconvert --execute`, a live notebook): the flags of the command,
 * several values separated by `;` or new lines. No `--model` here: the report scores a model
 * before the notebook runs; outside it, score it first (`deno task score --out FILE`).
 */
export const ENV_NAMES: ArgNames = {
  runs: "KIT_RUNS",
  models: "KIT_MODELS",
  qrcdRuns: "KIT_QRCD_RUNS",
  qrcdGold: "KIT_QRCD_GOLD",
  dataset: "KIT_DATASET",
  split: "KIT_SPLIT",
  filter: "KIT_FILTER",
  compare: "KIT_COMPARE",
};

function existsAs(path: string, kind: "file" | "dir"): boolean {
  try {
    const st = Deno.statSync(path);
    return kind === "file" ? st.isFile : st.isDirectory;
  } catch {
    return false;
  }
}

/**
 * The systems the arguments name, paths made absolute against `cwd` (the caller's folder),
 * checked; `undefined` when no system is named (then `dataset`, `split`, `filter` and
 * `qrcdGold` are errors: they would be ignored).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { specFromArgs } from "./user_systems.ts";
 * const dir = await Deno.makeTempDir();
 * for (const s of [1, 2]) await Deno.writeTextFile(`${dir}/s${s}.run`, "");
 * const spec = specFromArgs({ runs: ["mine=s*.run"], models: ["bm25=lexical:bm25"], qrcdRuns: [] }, dir)!;
 * assert.deepEqual([spec.dataset, spec.split, spec.filter], ["wikiqa", "test", "clean"]);
 * assert.deepEqual(spec.systems.map((s) => s.runs.length), [2, 0]);
 * assert.equal(specFromArgs({ runs: [], models: [], qrcdRuns: [] }, dir), undefined);
 * assert.throws(() => specFromArgs({ runs: [], models: [], qrcdRuns: [], split: "dev" }, dir),
 *   /--split is for the user's systems/);
 * ```
 */
export function specFromArgs(
  args: SystemArgs,
  cwd: string,
  names: ArgNames = FLAG_NAMES,
): UserSystemsSpec | undefined {
  const runs = args.runs.map((v) => parseSystemArg(v, cwd, names.runs));
  const models = args.models.map((v) => {
    const eq = v.indexOf("=");
    if (eq < 0) {
      throw new KitError(
        `${names.models} takes NAME=SPEC (e.g. mine=models/cross-encoder), got '${v}'`,
      );
    }
    const model = v.slice(eq + 1).trim();
    if (model === "") throw new KitError(`${names.models} ${v}: no model spec given`);
    // A local model folder is relative to the caller, like every path.
    const local = !/^(lexical:|ltr$)/.test(model) && existsAs(resolveAgainst(model, cwd), "dir");
    return {
      name: checkSystemName(v.slice(0, eq)),
      model: local ? resolveAgainst(model, cwd) : model,
    };
  });
  const qrcdRuns = args.qrcdRuns.map((v) => {
    const { name, paths } = parseSystemArg(v, cwd, names.qrcdRuns);
    if (paths.length !== 1) throw new KitError(`${names.qrcdRuns} ${name}: give one run file`);
    return { name, path: paths[0] };
  });
  if (args.qrcdGold !== undefined && qrcdRuns.length === 0) {
    throw new KitError(`${names.qrcdGold} is for ${names.qrcdRuns}; give a QRCD run`);
  }
  if (runs.length + models.length + qrcdRuns.length === 0) {
    for (const key of ["dataset", "split", "filter", "compare"] as const) {
      if (args[key] !== undefined) {
        throw new KitError(
          `${names[key]} is for the user's systems; give ${names.runs} or ${names.models}`,
        );
      }
    }
    return undefined;
  }
  return checkSpec({
    dataset: (args.dataset ?? "wikiqa") as As2Dataset,
    split: args.split ?? "test",
    // The protocol's filter for the split, as every command defaults (clean for dev and test).
    filter: (args.filter ?? protocolFilter(args.split ?? "test")) as FilterName,
    systems: [
      ...runs.map((r) => ({ name: r.name, runs: r.paths })),
      // Scored by the report before the notebook runs, which fills in the runs.
      ...models.map((m) => ({ name: m.name, runs: [], model: m.model })),
    ],
    ...(qrcdRuns.length
      ? { qrcd: { gold: qrcdGold(args.qrcdGold ?? "dev", cwd, names), runs: qrcdRuns } }
      : {}),
    ...(args.compare === undefined ? {} : { compare: comparePair(args.compare, names.compare) }),
  });
}

/** `A,B`: two system names (trimmed), as `--compare` takes them. */
function comparePair(value: string, flag: string): [string, string] {
  const parts = value.split(",").map((p) => p.trim());
  if (parts.length !== 2 || parts.some((p) => p === "")) {
    throw new KitError(
      `${flag} takes two system names, A,B (a name with a comma cannot be given here), got '${value}'`,
    );
  }
  return [parts[0], parts[1]];
}

/** A QRCD split name (`dev`, `train`), unless a file by that name exists; else a file path. */
function qrcdGold(gold: string, cwd: string, names: ArgNames): string {
  const path = resolveAgainst(gold, cwd);
  if (/^(dev|train)$/.test(gold) && !existsAs(path, "file")) return gold;
  if (!existsAs(path, "file")) {
    throw new KitError(`${names.qrcdGold}: file not found`, { file: gold });
  }
  return path;
}

/** The kit's baselines beside the user's answer-selection systems (names the user cannot take). */
export const KIT_BASELINES: readonly { name: string; model: string }[] = [
  { name: "BM25 (kit)", model: "lexical:bm25" },
  { name: "ltr (kit)", model: "ltr" },
];

/** The kit's QRCD baseline beside the user's QRCD runs. */
export const QRCD_BASELINE = "overlap baseline (kit)";

/**
 * The page's example, shown when no system is given (a notebook opened without `KIT_RUNS`):
 * the kit's baselines alone on WikiQA test (clean).
 */
export const EXAMPLE_SYSTEMS: UserSystemsSpec = {
  dataset: "wikiqa",
  split: "test",
  filter: "clean",
  systems: [],
  example: true,
};

/** A spec on the bundled sample run (for examples and tests). */
export const SAMPLE_SYSTEMS: UserSystemsSpec = {
  dataset: "wikiqa",
  split: "test",
  filter: "clean",
  systems: [{ name: "sample run", runs: [`${SAMPLES_DIR}/runs/wikiqa-test.run`] }],
  qrcd: { gold: "dev", runs: [] },
};

/**
 * Checks a spec (from JSON or the command line): known dataset, split and filter, unique
 * names, at least one system or QRCD run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkSpec, SAMPLE_SYSTEMS } from "./user_systems.ts";
 * assert.equal(checkSpec(SAMPLE_SYSTEMS), SAMPLE_SYSTEMS);
 * assert.throws(() => checkSpec({ ...SAMPLE_SYSTEMS, split: "tset" }), /split/);
 * ```
 */
export function checkSpec(spec: UserSystemsSpec): UserSystemsSpec {
  if (!Object.hasOwn(SPLITS, spec.dataset)) {
    throw new KitError(`unknown dataset '${spec.dataset}' (expected wikiqa or trecqa)`);
  }
  if (!SPLITS[spec.dataset].includes(spec.split)) {
    throw new KitError(
      `unknown ${spec.dataset} split '${spec.split}' (expected one of: ${
        SPLITS[spec.dataset].join(", ")
      })`,
    );
  }
  if (!(FILTERS as readonly string[]).includes(spec.filter)) {
    throw new KitError(`unknown filter '${spec.filter}' (expected one of: ${FILTERS.join(", ")})`);
  }
  if (!Array.isArray(spec.systems)) throw new KitError("systems must be a list");
  const names = [...spec.systems.map((s) => s.name), ...(spec.qrcd?.runs ?? []).map((r) => r.name)];
  for (const [i, n] of names.entries()) {
    checkSystemName(n);
    if (names.indexOf(n) !== i) throw new KitError(`two systems are named '${n}'`);
    if (KIT_BASELINES.some((b) => b.name === n) || n === QRCD_BASELINE) {
      throw new KitError(`'${n}' is the name of one of the kit's baselines; choose another`);
    }
  }
  for (const s of spec.systems) {
    if (!Array.isArray(s.runs) || (s.runs.length === 0 && !s.model)) {
      throw new KitError(`system '${s.name}' has no run file`);
    }
  }
  if (names.length === 0 && !spec.example) {
    throw new KitError("no system given (--run, --model or --qrcd-run)");
  }
  if (spec.compare) {
    const known = [...spec.systems.map((s) => s.name), ...KIT_BASELINES.map((b) => b.name)];
    for (const n of spec.compare) {
      if (!known.includes(n)) {
        throw new KitError(
          `--compare: no answer-selection system is named '${n}' (the systems: ${
            known.join(", ")
          })`,
        );
      }
    }
    if (spec.compare[0] === spec.compare[1]) {
      throw new KitError(`--compare: give two different systems, got '${spec.compare[0]}' twice`);
    }
  }
  return spec;
}

/**
 * A spec read from JSON (`KIT_SYSTEMS`, a spec file): every field's type checked, so a
 * wrong one is a message naming it, never a TypeError later; then {@link checkSpec}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { specFromJson } from "./user_systems.ts";
 * assert.throws(() => specFromJson(null, "KIT_SYSTEMS"), /KIT_SYSTEMS: expected a JSON object, got null/);
 * assert.throws(() => specFromJson({ dataset: "wikiqa", split: "test", filter: "clean", systems: [{ name: 5 }] }, "S"),
 *   /S: systems\[0\]\.name must be a string, got 5/);
 * ```
 */
export function specFromJson(value: unknown, origin: string): UserSystemsSpec {
  const where = (path: string) => `${origin}: ${path}`;
  const shown = (v: unknown) => v === undefined ? "nothing" : JSON.stringify(v);
  const object = (v: unknown, path: string): Record<string, unknown> => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) {
      throw new KitError(
        path
          ? `${where(path)} must be an object, got ${shown(v)}`
          : `${origin}: expected a JSON object, got ${shown(v)}`,
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
  const array = (v: unknown, path: string): unknown[] => {
    if (!Array.isArray(v)) throw new KitError(`${where(path)} must be a list, got ${shown(v)}`);
    return v;
  };
  const top = object(value, "");
  const systems = array(top.systems, "systems").map((raw, i) => {
    const s = object(raw, `systems[${i}]`);
    return {
      name: string(s.name, `systems[${i}].name`),
      runs: array(s.runs, `systems[${i}].runs`).map((r, j) =>
        string(r, `systems[${i}].runs[${j}]`)
      ),
      ...(s.model === undefined ? {} : { model: string(s.model, `systems[${i}].model`) }),
    };
  });
  const qrcd = top.qrcd === undefined ? undefined : object(top.qrcd, "qrcd");
  const compare = top.compare === undefined
    ? undefined
    : array(top.compare, "compare").map((c, i) => string(c, `compare[${i}]`));
  if (compare && compare.length !== 2) {
    throw new KitError(`${where("compare")} must name two systems, got ${compare.length}`);
  }
  return checkSpec({
    dataset: string(top.dataset, "dataset") as As2Dataset,
    split: string(top.split, "split"),
    filter: string(top.filter, "filter") as FilterName,
    systems,
    ...(qrcd
      ? {
        qrcd: {
          gold: string(qrcd.gold, "qrcd.gold"),
          runs: array(qrcd.runs, "qrcd.runs").map((raw, i) => {
            const r = object(raw, `qrcd.runs[${i}]`);
            return {
              name: string(r.name, `qrcd.runs[${i}].name`),
              path: string(r.path, `qrcd.runs[${i}].path`),
            };
          }),
        },
      }
      : {}),
    ...(compare ? { compare: compare as [string, string] } : {}),
    ...(top.out === undefined ? {} : { out: string(top.out, "out") }),
  });
}

/**
 * Splits one environment variable holding several values (`;` or new lines between them).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { envList } from "./user_systems.ts";
 * assert.deepEqual(envList(" a=x.run; b=y*.run\n\n"), ["a=x.run", "b=y*.run"]);
 * assert.deepEqual(envList(undefined), []);
 * ```
 */
export function envList(value: string | undefined): string[] {
  return (value ?? "").split(/[;\n]/).map((v) => v.trim()).filter((v) => v !== "");
}

/**
 * The systems named by the notebook's environment variables ({@link ENV_NAMES}: `KIT_RUNS`,
 * `KIT_QRCD_RUNS`, `KIT_QRCD_GOLD`, `KIT_DATASET`, `KIT_SPLIT`, `KIT_FILTER`), relative paths
 * against `cwd`; `undefined` when none is set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemsFromEnv } from "./user_systems.ts";
 * import { SAMPLES_DIR } from "../data/paths.ts";
 * const spec = systemsFromEnv({ KIT_RUNS: "mine=runs/wikiqa-test.run", KIT_SPLIT: "test" }, SAMPLES_DIR)!;
 * assert.equal(spec.systems[0].runs[0], `${SAMPLES_DIR}/runs/wikiqa-test.run`);
 * assert.throws(() => systemsFromEnv({ KIT_MODELS: "x=ltr" }, "."), /score it first/);
 * ```
 */
export function systemsFromEnv(
  env: Record<string, string | undefined>,
  cwd: string,
): UserSystemsSpec | undefined {
  const one = (name: string) => env[name]?.trim() || undefined;
  if (envList(env[ENV_NAMES.models]).length) {
    throw new KitError(
      `${ENV_NAMES.models} is for 'deno task report --model', which scores the model before the ` +
        `notebook runs; here, score it first ('deno task score --model SPEC --dataset D --split S ` +
        `--out FILE') and name the run in ${ENV_NAMES.runs}`,
    );
  }
  return specFromArgs(
    {
      runs: envList(env[ENV_NAMES.runs]),
      models: [],
      qrcdRuns: envList(env[ENV_NAMES.qrcdRuns]),
      qrcdGold: one(ENV_NAMES.qrcdGold),
      dataset: one(ENV_NAMES.dataset),
      split: one(ENV_NAMES.split),
      filter: one(ENV_NAMES.filter),
      compare: one(ENV_NAMES.compare),
    },
    cwd,
    ENV_NAMES,
  );
}

/**
 * The folder relative paths of the notebook's environment resolve against: the caller's
 * (`INIT_CWD`, set by `deno task` and `./kit`), else the shell's at the start of Jupyter
 * (`PWD`: the kernel itself runs in the notebook's folder), else the kernel's.
 */
export function callerFolder(env: Record<string, string | undefined>): string {
  return env.INIT_CWD || env.PWD || Deno.cwd();
}

/**
 * The systems the notebook reports on: the spec file named by `KIT_SYSTEMS` (JSON, written by
 * `deno task report`), else the variables of {@link systemsFromEnv} (`KIT_RUNS`, ...), else
 * the page's example ({@link EXAMPLE_SYSTEMS}: the kit's baselines).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { userSystems } from "./user_systems.ts";
 * import { SAMPLES_DIR } from "../data/paths.ts";
 * assert.equal(userSystems({ KIT_DATA: "sample" }).example, true);
 * const spec = { dataset: "trecqa", split: "dev", filter: "clean", systems: [{ name: "x", runs: ["/r"] }] };
 * const file = await Deno.makeTempFile();
 * await Deno.writeTextFile(file, JSON.stringify(spec));
 * assert.equal(userSystems({ KIT_SYSTEMS: file }).split, "dev");
 * const fromEnv = userSystems({ KIT_RUNS: "mine=runs/wikiqa-test.run", INIT_CWD: SAMPLES_DIR });
 * assert.equal(fromEnv.systems[0].name, "mine");
 * ```
 */
export function userSystems(
  env: Record<string, string | undefined> = Deno.env.toObject(),
): UserSystemsSpec {
  const raw = env[SYSTEMS_ENV];
  const named = Object.values(ENV_NAMES).filter((n) => env[n]?.trim());
  if (raw && named.length) {
    throw new KitError(`${SYSTEMS_ENV} and ${named.join(", ")} are both set; set one of them`);
  }
  if (!raw) {
    // Without any: the page's example, the kit's baselines (its first cell says where to
    // give runs).
    return systemsFromEnv(env, callerFolder(env)) ?? EXAMPLE_SYSTEMS;
  }
  let text: string;
  try {
    text = Deno.readTextFileSync(raw);
  } catch (e) {
    throw new KitError(`${SYSTEMS_ENV}: cannot read the spec file: ${(e as Error).message}`, {
      file: raw,
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new KitError(`${SYSTEMS_ENV}: not valid JSON: ${(e as Error).message}`, { file: raw });
  }
  const spec = specFromJson(parsed, raw);
  const unscored = spec.systems.find((s) => s.runs.length === 0);
  if (unscored) {
    throw new KitError(
      `${SYSTEMS_ENV}: system '${unscored.name}' has no run file (a model is scored by ` +
        "'deno task report --model' before the notebook runs)",
    );
  }
  return spec;
}
