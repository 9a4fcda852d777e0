/**
 * CSV (RFC 4180) of page 00's tables: text fields through `csvText` (quoted, and a leading
 * `=`, `+`, `-`, `@` made inert, so a spreadsheet never runs a system name as a formula).
 *
 * @module
 */
import { csvText } from "../../io/escape.ts";
import type { Row } from "../../plot/table.ts";

/** A cell: text through `csvText`, numbers as they are, nothing as empty. */
export function csvField(v: string | number | boolean | null | undefined): string {
  return v == null ? "" : typeof v === "string" ? csvText(v) : String(v);
}

/**
 * Table rows as CSV (RFC 4180), the columns of the first row.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rowsCsv } from "./csv.ts";
 * assert.equal(rowsCsv([{ q: 'say "hi", then', v: 0.5 }]), 'q,v\n"say ""hi"", then",0.5\n');
 * // A run name a spreadsheet would run as a formula stays text.
 * assert.equal(rowsCsv([{ system: "=cmd|' /C calc'!A1" }]), "system\n'=cmd|' /C calc'!A1\n");
 * ```
 */
export function rowsCsv(rows: readonly Row[]): string {
  const columns = Object.keys(rows[0] ?? {});
  return [columns, ...rows.map((r) => columns.map((c) => r[c]))]
    .map((r) => r.map(csvField).join(",")).join("\n") + "\n";
}
