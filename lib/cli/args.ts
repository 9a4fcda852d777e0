/**
 * Thin argument parsing for the kit's commands, on top of `node:util`'s `parseArgs`
 * (built into Deno, no dependency). Unknown flags are errors that name the flag.
 *
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { type FilterName, FILTERS, protocolFilter } from "../data/filters.ts";
import { KitError } from "../errors.ts";
import { checkOutput } from "../io/output.ts";
import { parseRelease, type TrecRelease } from "../metrics/trec_format.ts";

/** The option table of a command, as `node:util` `parseArgs` takes it. */
export type OptionSpec = NonNullable<ParseArgsConfig["options"]>;

/** Parsed flags and positionals. */
export interface Parsed {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
}

/**
 * Parses `args` against `options`, turning parse failures into `KitError`s.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseFlags } from "./args.ts";
 * const p = parseFlags(["-m", "map", "q.txt"], { m: { type: "string", multiple: true } });
 * assert(p.positionals[0] === "q.txt");
 * ```
 */
export function parseFlags(args: string[], options: OptionSpec): Parsed {
  try {
    const { values, positionals } = parseArgs({
      args: joinNegativeValues(args, options),
      options,
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Parsed["values"], positionals };
  } catch (e) {
    throw new KitError(`${(e as Error).message.replace(/\. To specify.*$/s, "")}`);
  }
}

/**
 * A string option followed by a negative number (`-l -1`, `--threshold -0.5`) takes it as
 * its value: `parseArgs` would read `-1` as another option and refuse it.
 */
function joinNegativeValues(args: string[], options: OptionSpec): string[] {
  const takesValue = new Set<string>();
  for (const [name, o] of Object.entries(options)) {
    if (o.type !== "string") continue;
    takesValue.add(`--${name}`);
    if (o.short) takesValue.add(`-${o.short}`);
  }
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (takesValue.has(args[i]) && /^-\d+(\.\d+)?$/.test(args[i + 1] ?? "")) {
      const long = args[i].startsWith("--")
        ? args[i]
        : `--${Object.entries(options).find(([, o]) => `-${o.short}` === args[i])![0]}`;
      out.push(`${long}=${args[++i]}`);
    } else out.push(args[i]);
  }
  return out;
}

/** Reads a string flag, or `fallback`. */
export function str(p: Parsed, name: string, fallback?: string): string | undefined {
  const v = p.values[name];
  if (v === undefined) return fallback;
  if (Array.isArray(v)) return String(v[v.length - 1]);
  return String(v);
}

/** Reads a required string flag. */
export function required(p: Parsed, name: string): string {
  const v = str(p, name);
  if (v === undefined || v === "") throw new KitError(`missing required flag --${name}`);
  return v;
}

/** Reads a repeatable string flag. */
export function list(p: Parsed, name: string): string[] {
  const v = p.values[name];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).map(String);
}

/** Checks a value is one of `allowed`. */
export function oneOf<T extends string>(value: string, allowed: readonly T[], what: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new KitError(`unknown ${what} '${value}' (expected one of: ${allowed.join(", ")})`);
  }
  return value as T;
}

/**
 * The `-l LEVEL` flag (trec_eval's relevance level): an integer, 1 when absent. Zero and
 * negative levels mean what they mean to trec_eval (see `isRelevant`); text trec_eval's
 * `atol` would read another way (`1.5` as 1, `x` as 0) is refused.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { relevanceLevel } from "./args.ts";
 * assert.equal(relevanceLevel(undefined), 1);
 * assert.equal(relevanceLevel("2"), 2);
 * assert.equal(relevanceLevel("-1"), -1);
 * assert.throws(() => relevanceLevel("x"), /-l takes an integer relevance level/);
 * ```
 */
export function relevanceLevel(raw: string | undefined): number {
  if (raw === undefined) return 1;
  if (!/^[+-]?\d+$/.test(raw) || Math.abs(Number(raw)) > 0x7fffffff) {
    throw new KitError(`-l takes an integer relevance level, got '${raw}'`);
  }
  return Number(raw) + 0; // (-0 is 0)
}

/** The `--trec-eval RELEASE` option, as commands that read runs declare it. */
export const RELEASE_OPTION: OptionSpec = { "trec-eval": { type: "string" } };

/** Its usage text. */
export const RELEASE_USAGE = "[--trec-eval 9.0.8|10.0]";

/**
 * The `--trec-eval RELEASE` flag: which trec_eval release's reading and ranking to
 * reproduce (default 9.0.8; see `lib/metrics/trec_format.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseFlags, RELEASE_OPTION, trecRelease } from "./args.ts";
 * assert.equal(trecRelease(parseFlags(["--trec-eval", "10.0"], RELEASE_OPTION)), "10.0");
 * assert.equal(trecRelease(parseFlags([], RELEASE_OPTION)), "9.0.8");
 * ```
 */
export function trecRelease(p: Parsed): TrecRelease {
  return parseRelease(str(p, "trec-eval"));
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
 * Undefined when `--out` is absent (then the command writes to stdout).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outputFlag, parseFlags } from "./args.ts";
 * const dir = await Deno.makeTempDir();
 * const spec = { out: { type: "string" as const }, force: { type: "boolean" as const } };
 * const out = await outputFlag(parseFlags(["--out", `${dir}/a.run`], spec));
 * assert.deepEqual(out, { path: `${dir}/a.run`, force: false });
 * assert.equal(await outputFlag(parseFlags([], spec)), undefined);
 * ```
 */
export async function outputFlag(p: Parsed, name = "out"): Promise<OutputFlag | undefined> {
  const path = str(p, name);
  if (path === undefined) return undefined;
  if (path === "") throw new KitError(`--${name} needs a file name`);
  const force = p.values.force === true;
  await checkOutput(path, { force });
  return { path, force };
}

/**
 * The `--filter` flag, or the protocol's filter for the split when absent (clean for dev and
 * test, no-all for training splits: `protocolFilter`); says on stderr which one is used.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { filterFlag, parseFlags } from "./args.ts";
 * const spec = { filter: { type: "string" as const } };
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
