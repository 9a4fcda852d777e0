/**
 * The user's systems, the subject of the report's first page (`notebooks/00-your-systems`):
 * what `deno task report --run NAME=PATH --model NAME=SPEC --qrcd-run NAME=PATH` was given,
 * as one plain object that travels to the notebook as JSON in the `KIT_SYSTEMS` environment
 * variable, and the reading of the runs it names.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { type FilterName, FILTERS } from "../data/filters.ts";
import { SPLITS } from "../data/splits.ts";
import type { As2Dataset } from "../data/types.ts";
import { SAMPLES_DIR } from "../data/paths.ts";
import { expandGlob } from "../io/glob.ts";
import { resolvePath } from "../io/path.ts";
import { readRun } from "../metrics/trec_files.ts";
import type { Run } from "../metrics/evaluate.ts";
import { isQrcdSplit, loadQrcd, loadQrcdSplit } from "../qrcd/load.ts";
import { checkRunAgainstGold, formatIssue, readSpanRun } from "../qrcd/runfile.ts";
import type { PassageQuestion, SpanRun } from "../qrcd/types.ts";

/** The environment variable that carries the systems to the notebook. */
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
  const isFile = (p: string) => {
    try {
      return Deno.statSync(resolveAgainst(p, cwd)).isFile;
    } catch {
      return false;
    }
  };
  const parts = isFile(rest) ? [rest] : rest.split(",").map((p) => p.trim()).filter((p) => p);
  const paths: string[] = [];
  for (const part of parts) {
    for (const p of expandGlob(part, cwd)) {
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

/** The kit's baselines beside the user's answer-selection systems (names the user cannot take). */
export const KIT_BASELINES: readonly { name: string; model: string }[] = [
  { name: "BM25 (kit)", model: "lexical:bm25" },
  { name: "ltr (kit)", model: "ltr" },
];

/** The kit's QRCD baseline beside the user's QRCD runs. */
export const QRCD_BASELINE = "overlap baseline (kit)";

/** The demonstration spec used interactively without `KIT_SYSTEMS`: the bundled sample run. */
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
  if (!(spec.dataset in SPLITS)) {
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
  if (names.length === 0) throw new KitError("no system given (--run, --model or --qrcd-run)");
  return spec;
}

/**
 * The systems the notebook reports on: `KIT_SYSTEMS` (JSON, set by `deno task report`),
 * else, on the bundled samples, the sample run as a demonstration.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { userSystems } from "./user_systems.ts";
 * assert.equal(userSystems({ KIT_DATA: "sample" }).systems[0].name, "sample run");
 * const spec = { dataset: "trecqa", split: "dev", filter: "clean", systems: [{ name: "x", runs: ["/r"] }] };
 * assert.equal(userSystems({ KIT_SYSTEMS: JSON.stringify(spec) }).split, "dev");
 * ```
 */
export function userSystems(
  env: Record<string, string | undefined> = Deno.env.toObject(),
): UserSystemsSpec {
  const raw = env[SYSTEMS_ENV];
  if (!raw) {
    if ((env.KIT_DATA || "sample") === "sample") return SAMPLE_SYSTEMS;
    throw new KitError(
      `${SYSTEMS_ENV} is not set: run 'deno task report --data real --run NAME=PATH' ` +
        `(or set ${SYSTEMS_ENV} to the JSON of the systems before starting Jupyter)`,
    );
  }
  let parsed: UserSystemsSpec;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    throw new KitError(`${SYSTEMS_ENV} is not valid JSON: ${(e as Error).message}`);
  }
  return checkSpec(parsed);
}

/** One run file of a system, read. */
export interface SystemRun {
  /** The path as given. */
  file: string;
  run: Run;
}

/**
 * Reads every run file of every answer-selection system (TREC format; errors name the file
 * and line).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readSystemRuns, SAMPLE_SYSTEMS } from "./user_systems.ts";
 * const runs = await readSystemRuns(SAMPLE_SYSTEMS);
 * assert(runs.get("sample run")![0].run.has("Q300"));
 * ```
 */
export async function readSystemRuns(spec: UserSystemsSpec): Promise<Map<string, SystemRun[]>> {
  const out = new Map<string, SystemRun[]>();
  for (const s of spec.systems) {
    const runs: SystemRun[] = [];
    for (const file of s.runs) runs.push({ file, run: await readRun(file) });
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
 * import { loadQrcdGold } from "./user_systems.ts";
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
 * pq_ids, the checker's rules). A run the official scorer would refuse is an error.
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
          errors.map((i) => formatIssue(i, r.path)).join("\n  ")
        }`,
        { file: r.path },
      );
    }
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
