/**
 * What page 00's sections share to show numbers: the kit's forms of a value, a p and an
 * interval, and a framed list (identical systems, one test asked twice). Views only: every
 * number was computed by `evaluateSystems`.
 *
 * User strings (system names, question ids and texts, file names) go into rows as they are
 * (the table escapes them), into notes and blocks through `htmlText`, and into figures through
 * `plotlyText`, because Plotly reads a few HTML tags in its labels (`lib/io/escape.ts`).
 *
 * @module
 */
import type { Displayable, MimeBundle } from "../../plot/display.ts";
import { formatP } from "../../stats/p_value.ts";
import { htmlText } from "../../io/escape.ts";

/** A value to `digits` decimals (default 4). */
export function fmt(x: number, digits = 4): string {
  return x.toFixed(digits);
}

/**
 * A p-value as the tables show it: the kit's one form (`formatP`: four decimals rounded as C
 * rounds them, exponent form below 0.0001; never a p of "0.0000").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pText } from "./tables.ts";
 * assert.deepEqual([pText(0.04213), pText(3.4158e-6), pText(1), pText(1 / 32)], ["0.0421", "3.4e-6", "1.0000", "0.0312"]);
 * ```
 */
export function pText(p: number): string {
  return formatP(p);
}

/** An interval as `[lower, upper]`, four decimals. */
export function intervalText(lower: number, upper: number): string {
  return `[${fmt(lower)}, ${fmt(upper)}]`;
}

/**
 * A titled list in a red frame (identical systems: likely a mistake; one test asked several
 * times): escaped HTML and plain text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { framedList } from "./tables.ts";
 * const b = framedList("Identical systems", ["<a> and b"])[Symbol.for("Jupyter.display")]();
 * assert.equal(b["text/plain"], "Identical systems:\n- <a> and b");
 * assert.match(String(b["text/html"]), /&lt;a&gt; and b/);
 * ```
 */
export function framedList(title: string, lines: readonly string[]): Displayable {
  const text = `${title}:\n` + lines.map((l) => `- ${l}`).join("\n");
  const html = '<div class="kit-warnings" style="border:2px solid #d62728;border-radius:4px;' +
    `padding:0.5em 1em;background:#fff5f5"><b>${htmlText(title)}</b><ul>` +
    lines.map((l) => `<li>${htmlText(l)}</li>`).join("") + "</ul></div>";
  const bundle: MimeBundle = { "text/html": html, "text/plain": text };
  return { [Symbol.for("Jupyter.display")]: () => bundle };
}
