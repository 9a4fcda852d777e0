/**
 * Headline numbers: the few results a notebook wants on the report's index page. A
 * notebook shows them with `headline(...)`; the display bundle carries them as JSON under
 * a kit MIME type (which the index builder reads back from the executed notebook) next to
 * the HTML and text that frontends show.
 *
 * @module
 */
import type { Displayable, MimeBundle } from "../../plot/display.ts";
import { formatCell } from "../../plot/table.ts";
import { htmlText } from "../../io/escape.ts";

/** The MIME type that carries headline numbers in a notebook's outputs. */
export const HEADLINE_MIME = "application/vnd.qa-kit.headline+json";

/** Headline numbers of one notebook. */
export interface Headline {
  /** What the numbers are (e.g. "WikiQA test, clean"). */
  title: string;
  /** Name to value. */
  numbers: Record<string, number | string>;
}

/**
 * The MIME bundle of a headline.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { headlineBundle, HEADLINE_MIME } from "./headline.ts";
 * const b = headlineBundle({ title: "dev", numbers: { MAP: 0.61234 } });
 * assert(JSON.stringify(b[HEADLINE_MIME]) === '{"title":"dev","entries":[["MAP",0.61234]]}');
 * assert((b["text/plain"] as string).includes("MAP: 0.6123"));
 * ```
 */
export function headlineBundle(h: Headline): MimeBundle {
  const items = Object.entries(h.numbers).map(([k, v]) => [k, formatCell(v, 4, k)] as const);
  return {
    // Entries, not an object: nbformat writes JSON with sorted keys, which would lose the order.
    [HEADLINE_MIME]: { title: h.title, entries: Object.entries(h.numbers) },
    "text/html": `<div class="kit-headline"><b>${htmlText(h.title)}</b><br>` +
      items.map(([k, v]) => `${htmlText(k)}: <b>${htmlText(v)}</b>`).join(" &middot; ") +
      "</div>",
    "text/plain": `${h.title}: ` + items.map(([k, v]) => `${k}: ${v}`).join(", "),
  };
}

/**
 * Shows headline numbers (and records them for the report's index page).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { headline } from "./headline.ts";
 * const h = headline("WikiQA test (clean)", { MAP: 0.6, MRR: 0.61 });
 * assert("text/html" in h[Symbol.for("Jupyter.display")]());
 * ```
 */
export function headline(title: string, numbers: Record<string, number | string>): Displayable {
  return { [Symbol.for("Jupyter.display")]: () => headlineBundle({ title, numbers }) };
}

/**
 * The headlines found in a notebook's outputs, in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { headlineBundle, headlinesOf } from "./headline.ts";
 * const nb = { cells: [{ outputs: [{ data: headlineBundle({ title: "t", numbers: { a: 1 } }) }] }] };
 * assert(headlinesOf(nb)[0].title === "t");
 * ```
 */
export function headlinesOf(
  nb: { cells: { outputs?: { data?: Record<string, unknown> }[] }[] },
): Headline[] {
  const found: Headline[] = [];
  for (const c of nb.cells) {
    for (const o of c.outputs ?? []) {
      const h = o.data?.[HEADLINE_MIME] as
        | { title: string; entries: [string, number | string][] }
        | undefined;
      if (h) found.push({ title: h.title, numbers: Object.fromEntries(h.entries) });
    }
  }
  return found;
}
