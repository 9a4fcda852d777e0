/**
 * The kit's one error type. Every reader, writer and command throws `KitError`
 * for bad input, so callers (and the property tests) can tell "the input is
 * wrong, here is where" apart from a bug in the kit.
 *
 * @module
 */

/** Where a problem was found: a file (or `<stdin>`, `<memory>`) and a 1-based line. */
export interface Location {
  /** Path of the file as the user gave it. */
  file?: string;
  /** 1-based line number, when the problem is on one line. */
  line?: number;
}

/**
 * An error caused by the user's input or environment (bad file, missing data,
 * wrong flag). Its message starts with `file:line:` when those are known.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { KitError } from "./errors.ts";
 * const e = new KitError("expected 4 fields, found 3", { file: "q.txt", line: 7 });
 * assert(e.message === "q.txt:7: expected 4 fields, found 3");
 * ```
 */
export class KitError extends Error {
  /** The file the problem is in, if any. */
  readonly file?: string;
  /** The 1-based line the problem is on, if any. */
  readonly line?: number;
  /** The problem alone, without the location prefix. */
  readonly problem: string;

  constructor(problem: string, where: Location = {}, options?: ErrorOptions) {
    const prefix = where.file === undefined
      ? (where.line === undefined ? "" : `line ${where.line}: `)
      : where.line === undefined
      ? `${where.file}: `
      : `${where.file}:${where.line}: `;
    super(prefix + problem, options);
    this.name = "KitError";
    this.file = where.file;
    this.line = where.line;
    this.problem = problem;
  }
}

/**
 * Throws a `KitError` at a location; a small helper so parsers read as one line per rule.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fail, KitError } from "./errors.ts";
 * assert.throws(() => fail("bad score 'x'", { file: "run.txt", line: 3 }), KitError);
 * ```
 */
export function fail(problem: string, where: Location = {}): never {
  throw new KitError(problem, where);
}
