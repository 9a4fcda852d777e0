/**
 * trec_eval's output format, byte for byte: `%-22s\t%s\t%6.4f` for values,
 * `%-22s\t%s\t%ld` for counts, with C printf rounding.
 *
 * @module
 */
import type { EvalResult } from "./evaluate.ts";
import { MEASURES, type MeasureSelection } from "./measures.ts";

/**
 * Formats `x` like C's `printf("%.<digits>f", x)`. C rounds the exact binary value and
 * breaks exact ties to even (glibc), while `Number.prototype.toFixed` breaks exact ties
 * away from zero: 1/32 = 0.03125 prints as `0.0312` in C and `0.0313` with toFixed.
 * Exact ties at 4 decimals only happen for multiples of 1/32 (x * 10^4 = m + 1/2 must be
 * a dyadic rational), so those are detected and rounded to even; everything else is
 * already exact in toFixed (V8 computes it with exact arithmetic).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatFixedC } from "./format.ts";
 * assert(formatFixedC(1 / 32, 4) === "0.0312");
 * assert(formatFixedC(3 / 32, 4) === "0.0938");
 * assert(formatFixedC(0.61904, 4) === "0.6190");
 * ```
 */
export function formatFixedC(x: number, digits = 4): string {
  // x * 10^d = k + 1/2 exactly  <=>  x = n / 2^(d+1) with n odd.
  const n = x * 2 ** (digits + 1);
  if (Number.isSafeInteger(n) && n % 2 !== 0) {
    const twice = Math.abs(n) * 5 ** digits; // = 2k + 1, exact while below 2^53
    if (Number.isSafeInteger(twice)) {
      const k = (twice - 1) / 2;
      const even = k % 2 === 0 ? k : k + 1;
      const s = String(even).padStart(digits + 1, "0");
      const body = digits === 0 ? s : `${s.slice(0, -digits)}.${s.slice(-digits)}`;
      return x < 0 ? `-${body}` : body;
    }
  }
  return x.toFixed(digits);
}

/** One output line in trec_eval format. */
export function trecLine(name: string, qid: string, value: number | string, integer = false) {
  const v = typeof value === "string"
    ? value
    : integer
    ? String(Math.round(value))
    : formatFixedC(value, 4).padStart(6);
  return `${name.padEnd(22)}\t${qid}\t${v}`;
}

/**
 * Formats an evaluation as trec_eval prints it: per-query lines (with `perQuery`) for
 * every measure of each query in qid order, then the `all` lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluate } from "./evaluate.ts";
 * import { formatTrecEval } from "./format.ts";
 * const qrels = new Map([["q1", new Map([["d1", 1]])]]);
 * const run = new Map([["q1", new Map([["d1", 1]])]]);
 * const r = evaluate(qrels, run, ["num_q", "map"]);
 * assert(formatTrecEval(r) === "num_q                 \tall\t1\nmap                   \tall\t1.0000\n");
 * ```
 */
export function formatTrecEval(
  result: EvalResult,
  options: { perQuery?: boolean; selection?: Pick<MeasureSelection, "runid" | "numQ"> } = {},
): string {
  const integer = new Set(
    MEASURES.filter((m) => m.integer).map((m) => m.name),
  );
  const isInt = (label: string) => integer.has(label);
  const out: string[] = [];
  if (options.perQuery) {
    for (const [qid, row] of result.perQuery) {
      for (const label of result.measures) out.push(trecLine(label, qid, row[label], isInt(label)));
    }
  }
  const sel = options.selection ?? { runid: false, numQ: true };
  if (sel.runid) out.push(trecLine("runid", "all", result.runId));
  if (sel.numQ) out.push(trecLine("num_q", "all", result.numQ, true));
  for (const label of result.measures) {
    out.push(trecLine(label, "all", result.summary[label], isInt(label)));
  }
  return out.join("\n") + "\n";
}
