/**
 * Tables in notebooks: rows of plain objects shown as an HTML table (classic Notebook,
 * JupyterLab, VS Code, HTML and PDF exports), with Markdown and plain-text forms for
 * text-only views. Numbers are rounded for display only. Every caption, header and cell is
 * text, never markup or a formula (`htmlText`, `markdownText` of `lib/io/escape.ts`).
 *
 * @module
 */
import type { Displayable, MimeBundle } from "./display.ts";
import { htmlText, markdownText } from "../io/escape.ts";
import { formatP, isPValueColumn } from "../stats/p_value.ts";

/** A table row: column name to value. */
export type Row = Record<string, string | number | boolean | null | undefined>;

/** Options of {@link table}. */
export interface TableOptions {
  /** A caption shown above the table. */
  caption?: string;
  /** Digits after the decimal point for non-integer numbers (default 4). */
  digits?: number;
  /** Column order (default: the keys of all rows, in first-seen order). */
  columns?: string[];
}

/**
 * Formats one cell value: integers as they are, other numbers to `digits` places; in a column
 * of p-values (by its name, `isPValueColumn`) every number as the kit prints a p (`formatP`:
 * `3.4e-6`, never `0.0000`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatCell } from "./table.ts";
 * assert.deepEqual([formatCell(0.61234), formatCell(3.4e-6, 4, "p"), formatCell(7)], ["0.6123", "3.4e-6", "7"]);
 * ```
 */
export function formatCell(value: Row[string], digits = 4, column?: string): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" && column !== undefined && isPValueColumn(column)) {
    return formatP(value);
  }
  if (typeof value === "number") {
    return Number.isInteger(value) ? String(value) : value.toFixed(digits);
  }
  return String(value);
}

/**
 * The MIME bundle of a table (`text/html`, `text/markdown`, `text/plain`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tableBundle } from "./table.ts";
 * const b = tableBundle([{ split: "dev", questions: 126, map: 0.61234 }]);
 * assert((b["text/markdown"] as string).includes("| dev | 126 | 0.6123 |"));
 * // a whole number in a column of fractions: the column's decimals
 * const t = tableBundle([{ map: 0.5 }, { map: 1 }]);
 * assert((t["text/markdown"] as string).endsWith("| 0.5000 |\n| 1.0000 |"));
 * ```
 */
export function tableBundle(rows: readonly Row[], options: TableOptions = {}): MimeBundle {
  const digits = options.digits ?? 4;
  const columns = options.columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const numeric = columns.map((c) => rows.every((r) => r[c] == null || typeof r[c] === "number"));
  // A column holding any fraction is a measure: its whole numbers (a MAP of 1, a difference
  // of 0) get the same decimals; a column of counts keeps them bare.
  const fractional = columns.map((c) =>
    rows.some((r) => typeof r[c] === "number" && !Number.isInteger(r[c]))
  );
  // A column of p-values prints each as the kit prints a p (formatCell with its name).
  const pColumn = columns.map(isPValueColumn);
  const cells = rows.map((r) =>
    columns.map((c, i) => {
      const v = r[c];
      return fractional[i] && !pColumn[i] && typeof v === "number" && Number.isFinite(v)
        ? v.toFixed(digits)
        : formatCell(v, digits, c);
    })
  );
  const align = (i: number) => ` style="text-align:${numeric[i] ? "right" : "left"}"`;
  const html = [
    '<table class="kit-table">',
    options.caption ? `<caption>${htmlText(options.caption)}</caption>` : "",
    "<thead><tr>" + columns.map((c, i) => `<th${align(i)}>${htmlText(c)}</th>`).join("") +
    "</tr></thead>",
    "<tbody>",
    ...cells.map((r) =>
      "<tr>" + r.map((v, i) => `<td${align(i)} dir="auto">${htmlText(v)}</td>`).join("") +
      "</tr>"
    ),
    "</tbody></table>",
  ].join("\n");
  const md = (r: string[]) => "| " + r.map(markdownText).join(" | ") + " |";
  const markdown = [
    ...(options.caption ? [`**${markdownText(options.caption)}**`, ""] : []),
    md(columns),
    "| " + numeric.map((n) => n ? "---:" : "---").join(" | ") + " |",
    ...cells.map(md),
  ].join("\n");
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i].length)));
  const pad = (r: string[]) =>
    r.map((v, i) => numeric[i] ? v.padStart(widths[i]) : v.padEnd(widths[i])).join("  ")
      .trimEnd();
  const plain = [
    ...(options.caption ? [options.caption] : []),
    pad(columns),
    ...cells.map(pad),
  ].join("\n");
  return { "text/html": html, "text/markdown": markdown, "text/plain": plain };
}

/**
 * A table that displays itself as a cell's value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { table } from "./table.ts";
 * const t = table([{ a: 1 }, { a: 2.5 }], { caption: "demo" });
 * assert("text/html" in t[Symbol.for("Jupyter.display")]());
 * ```
 */
export function table(rows: readonly Row[], options: TableOptions = {}): Displayable {
  return { [Symbol.for("Jupyter.display")]: () => tableBundle(rows, options) };
}
