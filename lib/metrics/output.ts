/**
 * Output formats of an evaluation: trec_eval's text, byte for byte (`%-22s\t%s\t%6.4f` for
 * values, `%ld` for counts, C printf rounding, `-nan` where trec_eval divides 0 by 0), and
 * JSON and CSV (long or wide) for programs and spreadsheets.
 *
 * @module
 */
import { formatFixedC } from "./c_printf.ts";
import type { EvalResult, OutputLine } from "./types.ts";
import { csvText } from "../io/escape.ts";

/**
 * One output line in trec_eval format: a value (`%6.4f`), a count (`%ld`) or a string as is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { trecLine } from "./output.ts";
 * assert(trecLine("map", "all", 0.5) === "map                   \tall\t0.5000");
 * assert(trecLine("num_ret", "q1", 3, true) === "num_ret               \tq1\t3");
 * ```
 */
export function trecLine(name: string, qid: string, value: number | string, integer = false) {
  const v = typeof value === "string"
    ? value
    : integer
    ? String(Math.trunc(value))
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
 * import { formatTrecEval } from "./output.ts";
 * const qrels = new Map([["q1", new Map([["d1", 1]])]]);
 * const run = new Map([["q1", new Map([["d1", 1]])]]);
 * const r = evaluate(qrels, run, ["num_q", "map"]);
 * assert(formatTrecEval(r) === "num_q                 \tall\t1\nmap                   \tall\t1.0000\n");
 * ```
 */
export function formatTrecEval(result: EvalResult, options: { perQuery?: boolean } = {}): string {
  const out: string[] = [];
  if (options.perQuery) {
    const text = result.layout.some((l) => l.kind === "text") ? result.perQueryText : undefined;
    for (const [qid, row] of result.perQuery) {
      for (const l of result.layout) {
        if (!l.perQuery) continue;
        if (l.kind === "value") out.push(trecLine(l.label, qid, row[l.label], l.integer));
        else if (l.kind === "text") {
          out.push(trecLine(l.label, qid, `'${text!.get(qid)![l.label]}'`));
        }
      }
    }
  }
  for (const l of result.layout) {
    if (!l.summary) continue;
    out.push(trecLine(l.label, "all", summaryValue(result, l), l.summaryInteger));
  }
  return out.length ? out.join("\n") + "\n" : "";
}

/** The `all` value of an output line (runid: the run's name; num_q: the query count). */
function summaryValue(result: EvalResult, l: OutputLine): number | string {
  return l.kind === "runid"
    ? result.runId
    : l.kind === "num_q"
    ? result.numQ
    : result.summary[l.label];
}

/** A number for JSON: NaN and infinities (not JSON) become null. */
const jsonNumber = (x: number) => (Number.isFinite(x) ? x : null);

/**
 * An evaluation as JSON: `runid`, `numQ`, `complete`, the output names in order
 * (`measures`), `summary` (the `all` values at full precision) and, with `perQuery`, each
 * query's values (`perQuery`, qid to measure to value; relstring's strings included).
 * Values that are not numbers (trec_eval's `-nan`) are `null`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluate } from "./evaluate.ts";
 * import { formatJson } from "./output.ts";
 * const r = evaluate(new Map([["q1", new Map([["d1", 1]])]]), new Map([["q1", new Map([["d1", 1]])]]), ["map"]);
 * const j = JSON.parse(formatJson(r, { perQuery: true }));
 * assert(j.summary.map === 1 && j.perQuery.q1.map === 1 && j.numQ === 1);
 * ```
 */
export function formatJson(result: EvalResult, options: { perQuery?: boolean } = {}): string {
  const values = result.layout.filter((l) => l.kind === "value" || l.kind === "text");
  const summary: Record<string, number | null> = {};
  for (const l of values) if (l.summary) summary[l.label] = jsonNumber(result.summary[l.label]);
  const out: Record<string, unknown> = {
    runid: result.runId,
    numQ: result.numQ,
    complete: result.complete,
    measures: values.map((l) => l.label),
    summary,
  };
  if (options.perQuery) {
    const perQuery: Record<string, Record<string, number | string | null>> = {};
    const text = result.perQueryText;
    for (const [qid, row] of result.perQuery) {
      const r: Record<string, number | string | null> = {};
      for (const l of values) {
        if (!l.perQuery) continue;
        r[l.label] = l.kind === "text" ? text.get(qid)![l.label] : jsonNumber(row[l.label]);
      }
      perQuery[qid] = r;
    }
    out.perQuery = perQuery;
  }
  return JSON.stringify(out, null, 2) + "\n";
}

/** A number for CSV: shortest round-trip form, `NaN` for trec_eval's `-nan`. */
const csvNumber = (x: number) => String(x);

/**
 * An evaluation as CSV. `long` (the default): one row per query and measure, header
 * `scope,query,measure,value`, per-query rows (with `perQuery`, scope `query`) in qid order
 * then the summary rows (scope `summary`, query `all`; runid and num_q included), as
 * trec_eval's lines. `wide`: one row per query, header `scope,query` and a column per
 * output line (runid and num_q too, filled in the summary row), the summary row last. The
 * scope keeps a query named `all` apart from the summary. Values at full precision; text
 * cells through `csvText` (`lib/io/escape.ts`: safe in a spreadsheet).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluate } from "./evaluate.ts";
 * import { formatCsv } from "./output.ts";
 * const r = evaluate(new Map([["all", new Map([["d1", 1]])]]), new Map([["all", new Map([["d1", 1]])]]), ["map", "num_q"]);
 * assert.equal(formatCsv(r, { shape: "wide", perQuery: true }),
 *   "scope,query,num_q,map\nquery,all,,1\nsummary,all,1,1\n");
 * assert.equal(formatCsv(r), "scope,query,measure,value\nsummary,all,num_q,1\nsummary,all,map,1\n");
 * ```
 */
export function formatCsv(
  result: EvalResult,
  options: { perQuery?: boolean; shape?: "long" | "wide" } = {},
): string {
  const lines: string[] = [];
  const text = result.layout.some((l) => l.kind === "text") ? result.perQueryText : undefined;
  const cell = (qid: string, l: OutputLine, row: Record<string, number>) =>
    l.kind === "text" ? csvText(text!.get(qid)![l.label]) : csvNumber(row[l.label]);
  const summaryCell = (l: OutputLine) => {
    const v = summaryValue(result, l);
    return typeof v === "string" ? csvText(v) : csvNumber(v);
  };
  if (options.shape === "wide") {
    const cols = result.layout;
    lines.push(["scope", "query", ...cols.map((l) => l.label)].map(csvText).join(","));
    if (options.perQuery) {
      for (const [qid, row] of result.perQuery) {
        const cells = cols.map((l) =>
          l.perQuery && (l.kind === "value" || l.kind === "text") ? cell(qid, l, row) : ""
        );
        lines.push(["query", csvText(qid), ...cells].join(","));
      }
    }
    lines.push(["summary", "all", ...cols.map((l) => (l.summary ? summaryCell(l) : ""))].join(","));
  } else {
    lines.push("scope,query,measure,value");
    if (options.perQuery) {
      for (const [qid, row] of result.perQuery) {
        for (const l of result.layout) {
          if (!l.perQuery || (l.kind !== "value" && l.kind !== "text")) continue;
          lines.push(`query,${csvText(qid)},${csvText(l.label)},${cell(qid, l, row)}`);
        }
      }
    }
    for (const l of result.layout) {
      if (!l.summary) continue;
      lines.push(`summary,all,${csvText(l.label)},${summaryCell(l)}`);
    }
  }
  return lines.join("\n") + "\n";
}
