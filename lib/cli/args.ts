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
      args,
      options,
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Parsed["values"], positionals };
  } catch (e) {
    throw new KitError(`${(e as Error).message.replace(/\. To specify.*$/s, "")}`);
  }
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
 * The `-l LEVEL` flag (trec_eval's relevance level): an integer, 1 when absent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { relevanceLevel } from "./args.ts";
 * assert.equal(relevanceLevel(undefined), 1);
 * assert.equal(relevanceLevel("2"), 2);
 * assert.throws(() => relevanceLevel("x"), /-l takes an integer relevance level/);
 * ```
 */
export function relevanceLevel(raw: string | undefined): number {
  if (raw === undefined) return 1;
  if (!/^-?\d+$/.test(raw)) throw new KitError(`-l takes an integer relevance level, got '${raw}'`);
  return Number(raw);
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
