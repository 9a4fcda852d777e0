/**
 * Blocks of page 00 that hold user strings (system and file names): a sentence, a framed list
 * of warnings. Escaped HTML (never Markdown, whose HTML passes through) and plain text. Light:
 * a task's report part (lib/tasks/task.ts) shows its section with these.
 *
 * @module
 */
import type { Displayable, MimeBundle } from "../../plot/display.ts";
import { htmlText } from "../../io/escape.ts";

/** A warning or note on one run, with its system and file name. */
export interface RunLine {
  system: string;
  /** The file's name. */
  file: string;
  text: string;
}

/**
 * A sentence on the page that may hold user strings: escaped HTML (never Markdown, whose
 * HTML passes through) and plain text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { note } from "./blocks.ts";
 * const b = note("best: <script>x</script>")[Symbol.for("Jupyter.display")]();
 * assert.equal(b["text/html"], '<p class="kit-note">best: &lt;script&gt;x&lt;/script&gt;</p>');
 * ```
 */
export function note(text: string): Displayable {
  const bundle: MimeBundle = {
    "text/html": `<p class="kit-note">${htmlText(text)}</p>`,
    "text/plain": text,
  };
  return { [Symbol.for("Jupyter.display")]: () => bundle };
}

/**
 * The warnings of every run as a framed block on the page (or a line saying there is none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { warningsBlock } from "./blocks.ts";
 * const html = warningsBlock([{ system: "<i>x</i>", file: "a.run", text: "1 question missing" }])[Symbol.for("Jupyter.display")]()["text/html"];
 * assert(String(html).includes("&lt;i&gt;x&lt;/i&gt;") && String(html).includes("kit-warnings"));
 * ```
 */
export function warningsBlock(
  lines: readonly RunLine[],
  none =
    "No protocol warning: every run ranks the whole candidate set of every question of the split, and nothing else.",
  title = "Protocol warnings",
): Displayable {
  const text = lines.length === 0
    ? none
    : `${lines.length} warning(s):\n` + lines.map((l) => `- ${l.system} (${l.file}): ${l.text}`)
      .join("\n");
  const html = lines.length === 0
    ? `<p class="kit-note">${htmlText(text)}</p>`
    : '<div class="kit-warnings" style="border:2px solid #d62728;border-radius:4px;' +
      `padding:0.5em 1em;background:#fff5f5"><b>${htmlText(title)}</b> (the numbers below ` +
      "are computed anyway, with these departures)<ul>" +
      lines.map((l) =>
        `<li><b>${htmlText(l.system)}</b> (${htmlText(l.file)}): ${htmlText(l.text)}</li>`
      ).join("") + "</ul></div>";
  const bundle: MimeBundle = { "text/html": html, "text/plain": text };
  return { [Symbol.for("Jupyter.display")]: () => bundle };
}
