/**
 * Reading a command's arguments against its option table (`command.ts`; the grammar is
 * `grammar.ts`), and the flags of every command that evaluates ({@link RELEASE_OPTION},
 * {@link COMPLETE_OPTION}, {@link LEVEL_OPTION}), each beside the function that reads it. It is a
 * module of its own, apart from `args.ts` (which re-exports all of it beside the flags of the data
 * and scoring commands), so that `eval trec`, the command timed against trec_eval, does not load
 * the corpus paths, their verification's `node:crypto` (0.05-0.08 s of CPU at start-up), the
 * question filters and the scoring backends.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { relevanceFromText } from "../metrics/engine/reading_rules.ts";
import { DEFAULT_RELEASE, parseRelease, RELEASES, type TrecRelease } from "../metrics/release.ts";
import { type Arguments, type Option, type Positional, positionalsText } from "./command.ts";
import { type Parsed, readFlags, UsageError } from "./grammar.ts";

/**
 * Parses `args` against a command's table (`options`, `positionals`): unknown flags, a
 * missing required flag, too few or too many arguments are `UsageError`s naming the flag or
 * argument.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseFlags } from "./flags.ts";
 * const table = {
 *   options: [{ name: "measure", short: "m", value: "M", multiple: true, help: "a measure" }],
 *   positionals: [{ name: "QRELS", help: "qrels file" }],
 * };
 * const p = parseFlags(["-m", "map", "q.txt"], table);
 * assert.deepEqual(p.values.measure, ["map"]);
 * assert.equal(p.positionals[0], "q.txt");
 * assert.throws(() => parseFlags(["--frob", "q.txt"], table), /Unknown option '--frob'/);
 * assert.throws(() => parseFlags([], table), /expected QRELS, got 0/);
 * ```
 */
export function parseFlags(args: string[], table: Arguments): Parsed {
  const parsed = readFlags(args, table.options);
  checkPositionals(parsed.positionals, table.positionals ?? []);
  for (const o of table.options) {
    if (o.required) required(parsed, o.name);
  }
  return parsed;
}

/** The number of arguments agrees with the table (see `Positional`). */
function checkPositionals(given: string[], table: readonly Positional[]): void {
  let min = 0;
  for (const p of table) min += p.repeat ? p.repeat.min : p.optional ? 0 : 1;
  const max = table.some((p) => p.repeat) ? Infinity : table.length;
  if (given.length > max) throw new UsageError(`unexpected argument '${given[max]}'`);
  if (given.length < min) {
    const expected = max === Infinity
      ? `at least ${min} arguments (${positionalsText(table)})`
      : positionalsText(table);
    throw new UsageError(`expected ${expected}, got ${given.length}`);
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
  if (v === undefined || v === "") throw new UsageError(`missing required flag --${name}`);
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
 * Reads an integer flag of at least `min` (0: a count or a seed; 1: a size), or `undefined`
 * when it is absent; anything else (a sign, a fraction, text) is refused with the flag's name
 * as the user wrote it (`-M`, `--threads`), and so is a value past the flag's limit
 * ({@link INTEGER_FLAG_LIMITS}; 2^53 - 1 for the rest), naming the limit.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { integerFlag, parseFlags } from "./flags.ts";
 * const p = parseFlags(["--trials", "500", "--seed", "0"], {
 *   options: [
 *     { name: "trials", value: "N", help: "trials" },
 *     { name: "seed", value: "N", help: "a seed" },
 *   ],
 * });
 * assert.equal(integerFlag(p, "trials", 1), 500);
 * assert.equal(integerFlag(p, "seed", 0), 0);
 * assert.equal(integerFlag(p, "missing", 1), undefined);
 * assert.throws(() => integerFlag(p, "seed", 1), /--seed takes a positive integer, got '0'/);
 * const big = parseFlags(["--seed", "4294967296"], { options: [{ name: "seed", value: "N", help: "" }] });
 * assert.throws(() => integerFlag(big, "seed", 0), /--seed takes at most 4294967295 \(seeds are 32-bit\)/);
 * ```
 */
export function integerFlag(
  p: Parsed,
  name: string,
  min: 0 | 1,
  flag = `--${name}`,
): number | undefined {
  const raw = str(p, name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    throw new KitError(
      `${flag} takes ${min ? "a positive" : "a non-negative"} integer, got '${raw}'`,
    );
  }
  const [max, why] = INTEGER_FLAG_LIMITS[name] ?? INTEGER_LIMIT;
  if (raw.replace(/^0+(?=\d)/, "").length > String(max).length || Number(raw) > max) {
    throw new KitError(`${flag} takes at most ${max} (${why}), got '${raw}'`);
  }
  return Number(raw);
}

/** The largest integer read exactly, and why: the limit of every integer flag not listed. */
const INTEGER_LIMIT: [number, string] = [
  Number.MAX_SAFE_INTEGER,
  "2^53 - 1, the largest integer read exactly",
];
const SEED_LIMIT: [number, string] = [2 ** 32 - 1, "seeds are 32-bit"];

/**
 * The largest value of each integer flag, with the reason printed when a value is past it
 * ({@link integerFlag}); docs/cli.md lists them.
 */
export const INTEGER_FLAG_LIMITS: Readonly<Record<string, [number, string]>> = {
  seed: SEED_LIMIT,
  "noise-seed": SEED_LIMIT,
  trials: [1e9, "a billion draws"],
  bootstrap: [1e9, "a billion resamples"],
  epochs: [1e6, "a million passes"],
  "batch-size": [65536, "pairs in one model call"],
  threads: [4096, "threads"],
  "top-k": [1000, "answers per record"],
  "max-answer-tokens": [65536, "tokens"],
  "doc-stride": [65536, "tokens"],
  repeats: [1000, "timed repeats"],
  "trec-eval-repeats": [1000, "timed repeats"],
};

/**
 * The `-l LEVEL` flag (trec_eval's relevance level): an integer, 1 when absent. Zero and
 * negative levels mean what they mean to trec_eval (see `isRelevant`); read as a relevance
 * is (`relevanceFromText`: `2.0` is 2; `2.5`, which trec_eval's `atol` reads as 2, is
 * refused).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { relevanceLevel } from "./flags.ts";
 * assert.equal(relevanceLevel(undefined), 1);
 * assert.equal(relevanceLevel("2"), 2);
 * assert.equal(relevanceLevel("-1"), -1);
 * assert.equal(relevanceLevel("2.0"), 2);
 * assert.throws(() => relevanceLevel("2.5"), /trec_eval would read it as 2/);
 * assert.throws(() => relevanceLevel("x"), /-l takes an integer relevance level/);
 * ```
 */
export function relevanceLevel(raw: string | undefined): number {
  if (raw === undefined) return 1;
  const read = relevanceFromText(raw);
  if (typeof read === "string") {
    throw new KitError(`-l takes an integer relevance level, got '${raw}': ${read}`);
  }
  return read;
}

/** `--trec-eval RELEASE`, as every command that reads runs or qrels declares it. */
export const RELEASE_OPTION: Option = {
  name: "trec-eval",
  value: RELEASES.join("|"),
  default: DEFAULT_RELEASE,
  help: "the trec_eval release whose reading and ranking are reproduced: 9.0.8, or 9 (scores " +
    "as 32-bit floats, no comment lines), or 10.0, or 10 (doubles, '#' lines skipped)",
};

/** `-c`: trec_eval's average over every qrels query. */
export const COMPLETE_OPTION: Option = {
  name: "complete",
  short: "c",
  help: "average over every qrels query (a query missing from the run scores 0), as trec_eval -c",
};

/** `-l LEVEL`: trec_eval's relevance level ({@link relevanceLevel}). */
export const LEVEL_OPTION: Option = {
  name: "level",
  short: "l",
  value: "LEVEL",
  default: "1",
  help: "judgments >= LEVEL are relevant, as trec_eval -l",
};

/**
 * The `--trec-eval RELEASE` flag: which trec_eval release's reading and ranking to
 * reproduce (default 9.0.8; see `lib/metrics/release.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseFlags, RELEASE_OPTION, trecRelease } from "./flags.ts";
 * const table = { options: [RELEASE_OPTION] };
 * assert.equal(trecRelease(parseFlags(["--trec-eval", "10.0"], table)), "10.0");
 * assert.equal(trecRelease(parseFlags([], table)), "9.0.8");
 * ```
 */
export function trecRelease(p: Parsed): TrecRelease {
  return parseRelease(str(p, "trec-eval"));
}

/** The flags that decide which queries count and how (see {@link querySetFlags}). */
export interface QuerySetFlags {
  /** `-c`: every qrels query counts (a query missing from the run scores 0). */
  complete: boolean;
  /** `-l`: the lowest relevant judgment. */
  relevanceLevel: number;
  /** `--trec-eval`: the release whose reading and ranking are reproduced. */
  release: TrecRelease;
}

/**
 * `-c`, `-l` and `--trec-eval` read once, the same way for every command that evaluates
 * (`eval trec`, `compare`, `ties`, `stability`), so they give one query set everywhere.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { COMPLETE_OPTION, LEVEL_OPTION, parseFlags, querySetFlags, RELEASE_OPTION } from "./flags.ts";
 * const table = { options: [COMPLETE_OPTION, LEVEL_OPTION, RELEASE_OPTION] };
 * const f = querySetFlags(parseFlags(["-c", "-l", "2"], table));
 * assert.deepEqual(f, { complete: true, relevanceLevel: 2, release: "9.0.8" });
 * ```
 */
export function querySetFlags(p: Parsed): QuerySetFlags {
  if (p.values.complete && p.values.intersect) {
    throw new KitError(
      "-c and --intersect ask for two query sets: -c counts every qrels query (one a run " +
        "lacks scores 0), --intersect only the queries every run covers; give one",
    );
  }
  return {
    complete: Boolean(p.values.complete),
    relevanceLevel: relevanceLevel(str(p, "level")),
    release: trecRelease(p),
  };
}
