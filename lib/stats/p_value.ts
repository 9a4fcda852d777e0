/**
 * How the kit prints a p-value, in every place that prints one (the systems report's tables,
 * `eval compare`'s Markdown and LaTeX, `./kit report`'s family lines, a notebook's `display`
 * of test records, headline numbers): four decimals rounded as C's printf rounds them (as
 * trec_eval, Python's `%.4f` and R's `sprintf` do: 1/32, a sign test's p, is 0.0312), and
 * below 1e-4 two significant digits in exponent form, so a small p never reads "0.0000".
 * CSV and JSON keep every digit.
 *
 * @module
 */
import { formatFixedC } from "../metrics/c_printf.ts";

/** Below this a p is printed in exponent form (`3.4e-6`), at and above it with 4 decimals. */
export const P_EXPONENT_BELOW = 1e-4;

/**
 * A p-value as the kit prints it: `0.0421`, `3.4e-6`; an exact 0 (a test whose statistic is
 * infinite) as `0`, and anything that is not a number in [0, 1] as JavaScript writes it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatP } from "./p_value.ts";
 * assert.deepEqual([0.04213, 3.4158e-6, 1, 1 / 32, 0].map(formatP), ["0.0421", "3.4e-6", "1.0000", "0.0312", "0"]);
 * ```
 */
export function formatP(p: number): string {
  if (!(p >= 0 && p <= 1)) return String(p);
  if (p === 0) return "0";
  return p < P_EXPONENT_BELOW ? p.toExponential(1) : formatFixedC(p, 4);
}

/**
 * Whether a table column holds p-values, by its name: a word `p` (`p`, `p adjusted (x5)`,
 * `sign test p`, `p (holm)`, `p_raw_vs_a`, `p-value`) not followed by a cutoff, or the
 * record fields `pAdjusted`, `signP`, `pValue`. Measures are not: `P@1`, `P_5`, `pRR`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isPValueColumn } from "./p_value.ts";
 * assert.deepEqual(["p", "pAdjusted", "sign test p", "p (holm)"].map(isPValueColumn), [true, true, true, true]);
 * assert.deepEqual(["P@1", "P_5", "pRR", "map", "p_1"].map(isPValueColumn), [false, false, false, false, false]);
 * ```
 */
export function isPValueColumn(name: string): boolean {
  if (/^(pAdjusted|signP|pValue|pRaw)$/.test(name)) return true;
  const words = name.split(/[^A-Za-z0-9]+/);
  return words.some((w, i) =>
    (w === "p" && !/^\d/.test(words[i + 1] ?? "")) || w.toLowerCase() === "pvalue"
  );
}
