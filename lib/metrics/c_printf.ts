/**
 * C's `printf("%.<d>f")` for numbers, as trec_eval prints them. A module of its own because
 * the output formats (format.ts) and the measures' parameter names (measures/params.ts) both
 * print with it, and the formats read the evaluator's types, which read the measures.
 *
 * @module
 */

/**
 * Formats `x` like C's `printf("%.<digits>f", x)`. C rounds the exact binary value and
 * breaks exact ties to even (glibc), while `Number.prototype.toFixed` breaks exact ties
 * away from zero: 1/32 = 0.03125 prints as `0.0312` in C and `0.0313` with toFixed.
 * Exact ties at 4 decimals only happen for multiples of 1/32 (x * 10^4 = m + 1/2 must be
 * a dyadic rational), so those are detected and rounded to even; everything else is
 * already exact in toFixed (V8 computes it with exact arithmetic). NaN prints as glibc
 * prints the NaN of 0.0 / 0.0 on x86-64 (`-nan`), infinities as `inf`, and -0 keeps its sign.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatFixedC } from "./c_printf.ts";
 * assert(formatFixedC(1 / 32, 4) === "0.0312");
 * assert(formatFixedC(3 / 32, 4) === "0.0938");
 * assert(formatFixedC(0.61904, 4) === "0.6190");
 * assert(formatFixedC(0 / 0, 4) === "-nan");
 * ```
 */
export function formatFixedC(x: number, digits = 4): string {
  if (Number.isNaN(x)) return "-nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  if (Object.is(x, -0)) return "-" + (0).toFixed(digits);
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
