/**
 * The one per-query computation of every route (`QueryEvaluator`): the selected measures
 * query by query into columns, and the trec_eval summary (`evaluate.ts` re-exports it; see its
 * module comment for which queries count).
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import type { EvalOptions, EvalResult, OutputLine, QueryJudgments } from "../types.ts";
import {
  type AnyMeasure,
  type MeasureOptions,
  type RankedQuery,
  UNJUDGED,
} from "../measures/measure.ts";
import { type QueryView } from "../measures/ir_measures.ts";
import { MIN_GEO_MEAN } from "../measures/precision.ts";
import { type MeasureInstance, type MeasureSelection, selectMeasures } from "../measures/select.ts";
import { compareDocnos, rankOrder } from "../rank.ts";
import { qidOrder } from "./query_order.ts";
import { DEFAULT_RELEASE, type TrecRelease } from "../release.ts";

/** The evaluator's settings (see {@link EvalOptions}). */
export interface EvaluatorOptions {
  relevanceLevel?: number;
  judgedOnly?: boolean;
  maxDocs?: number;
  numDocs?: number;
  warn?: EvalOptions["warn"];
  /** The release whose measure definitions apply (10.0 rounds recall cutoffs). */
  release?: TrecRelease;
}

/** What a {@link QueryEvaluator} recorded, as plain data (`state`, `absorb`). */
export interface EvaluatorState {
  qids: string[];
  /** Per measure, the values of the queries in `qids` order (exactly `qids.length` of them). */
  columns: Float64Array[];
  textColumns: string[][];
  completeColumns: (number[] | undefined)[];
  /** The queries recorded whose judgments are all negative (see `allNegativeQueries`). */
  allNegative: string[];
}

/** An instance computed per query, with the index of the query view it reads. */
/** What trec_eval 10.0 prints under `-q -c` for a qrels query the run lacks (`shownForMissing`). */
export interface ShownForMissing {
  /** One per value measure, in the evaluator's order. */
  values: number[];
  /** One per text measure (relstring), in the evaluator's order. */
  texts: string[];
}

/**
 * Whether 10.0's "clean up leftovers" resets the value printed under `label` on a missing
 * query's stand-in: the exact names `num_ret`, `utility`, `relstring`, `rbp_resid`, and every
 * name that starts with `unj` (it compares names: `utility_1,-1,0,0`, `relstring_3` and
 * `rbp_resid_p=0.5` keep the stand-in's values).
 */
export function clearedForMissing(label: string): boolean {
  return ["num_ret", "utility", "relstring", "rbp_resid"].includes(label) ||
    label.startsWith("unj");
}

interface Computed {
  instance: MeasureInstance;
  view: number;
}

const viewKey = (v: QueryView | undefined) =>
  v === undefined || (v.level === undefined && !v.judgedOnly && !v.gains)
    ? ""
    : JSON.stringify([v.level, v.judgedOnly ?? false, v.gains ? [...v.gains] : null]);

/** The query as a view sees it: its own level, judged documents only, mapped gains. */
function applyView(q: RankedQuery, v: QueryView): RankedQuery {
  let rels = q.rels, judged = q.judged;
  if (v.judgedOnly) rels = rels.filter((r) => r >= 0);
  if (v.gains) {
    const g = v.gains;
    const map = (r: number) => (r === UNJUDGED ? r : g.get(r) ?? r);
    rels = rels.map(map);
    judged = judged.map(map).sort().reverse();
  }
  const level = v.level ?? q.level;
  let numRel = q.numRel;
  if (v.level !== undefined || v.gains) {
    numRel = 0;
    for (const x of judged) if (x >= 0 && x >= level) numRel++;
  }
  return { rels, judged, level, numRel };
}

/**
 * The one refusal of a run that shares no query with the qrels (trec_eval's "no queries"):
 * `eval trec`, and every statistic over its query set (`queryValues`, `analyzeTies`), `-c` or
 * not, except trec_eval 10.0's `-c`, which evaluates every qrels query anyway. Given both
 * sides' query ids, it says when the run looks numbered like WikiQA's `.ref` files (every
 * run id a number, the qrels' not) and names the mapping as code that runs when pasted:
 * `renumberRun(run, await loadSplit("wikiqa", "test")).run` (`tests/hints_test.ts` runs it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { noSharedQueries } from "./query_evaluator.ts";
 * assert.match(noSharedQueries("b.run").message, /^b\.run: no query has both results/);
 * assert.match(noSharedQueries(undefined, { run: ["1", "2"], qrels: ["Q1"] }).message, /renumberRun/);
 * ```
 */
export function noSharedQueries(
  file?: string,
  ids?: { run: Iterable<string>; qrels: Iterable<string> },
): KitError {
  const number = /^(0|[1-9]\d*)$/;
  const all = (xs: Iterable<string>, f: (x: string) => boolean) => {
    let n = 0;
    for (const x of xs) if (n++, !f(x)) return false;
    return n > 0;
  };
  const refNumbered = ids !== undefined && all(ids.run, (q) => number.test(q)) &&
    !all(ids.qrels, (q) => number.test(q));
  return new KitError(
    "no query has both results and relevance judgments (check that the run and the qrels " +
      "use the same query ids)" +
      (refNumbered
        ? "; the run's query ids are all numbers and the qrels' are not: a run numbered like " +
          "WikiQA's .ref files (question number in the split's file order, sentence index)? " +
          '`renumberRun(run, await loadSplit("wikiqa", "test")).run` maps it to the corpus ids ' +
          "(both in lib/mod.ts; name the split the run numbers; eval as2 and report map it " +
          "themselves)"
        : ""),
    { file },
  );
}

/**
 * Computes the selected measures query by query and keeps per-query values in
 * columnar arrays; `result()` forms the trec_eval summary. Used by every entry point.
 */
export class QueryEvaluator {
  readonly selection: MeasureSelection;
  readonly level: number;
  /** The settings. */
  readonly options: EvaluatorOptions;
  private readonly values: Computed[];
  private readonly texts: Computed[];
  private readonly views: QueryView[];
  private readonly measureOptions: MeasureOptions;
  private qids: string[] = [];
  /**
   * Per measure, query `i`'s value at `[i]` (`qids.length` of them; the arrays grow by
   * doubling). Typed arrays, not number arrays: their values live outside V8's heap, where
   * 30,000 queries' values and ids, surviving collection after collection, made V8 grow its
   * young generation (1 MB to 4 MB at 30,000 queries, `--trace-gc-nvp`) and the peak memory with
   * it.
   */
  private columns: Float64Array[];
  private textColumns: string[][];
  /** With -c, the terms some measures sum instead of their values (num_rel's). */
  private completeColumns: (number[] | undefined)[];
  private completeIndexes: number[];
  private allNegative: string[] = [];

  constructor(measures: readonly string[], options: number | EvaluatorOptions = {}) {
    this.options = typeof options === "number" ? { relevanceLevel: options } : options;
    const warn = this.options.warn;
    this.level = this.options.relevanceLevel ?? 1;
    this.selection = selectMeasures(measures, warn === false ? () => {} : warn, {
      release: this.options.release,
      level: this.level,
    });
    this.measureOptions = {
      numDocs: this.options.numDocs ?? 0,
      release: this.options.release ?? DEFAULT_RELEASE,
    };
    const keys = [""];
    this.views = [{}];
    const computed = this.selection.instances.map((instance) => {
      const key = viewKey(instance.view);
      let view = keys.indexOf(key);
      if (view < 0) {
        view = keys.push(key) - 1;
        this.views.push(instance.view!);
      }
      return { instance, view };
    });
    const agg = (c: Computed) => c.instance.measure.aggregate;
    this.values = computed.filter((c) => agg(c) !== "meta" && agg(c) !== "none");
    this.texts = computed.filter((c) => agg(c) === "none");
    this.columns = this.values.map(() => new Float64Array(256));
    this.textColumns = this.texts.map(() => []);
    this.completeIndexes = this.values.flatMap((
      c,
      m,
    ) => (c.instance.measure.completeSum ? [m] : []));
    this.completeColumns = this.values.map((
      _,
      m,
    ) => (this.completeIndexes.includes(m) ? [] : undefined));
  }

  /** Ranks one query's documents (as `release` ranks them) and records its measure values. */
  addQuery(
    qid: string,
    docnos: readonly string[],
    scores: ArrayLike<number>,
    judgments: QueryJudgments,
    release: TrecRelease = DEFAULT_RELEASE,
  ): void {
    const order = rankOrder(docnos, scores, release);
    const rels = new Float64Array(order.length);
    for (let i = 0; i < order.length; i++) {
      const r = judgments.get(docnos[order[i]]);
      rels[i] = r === undefined ? UNJUDGED : r;
    }
    this.addRanked(qid, {
      rels,
      numRel: judgments.numRel,
      judged: judgments.judged,
      level: this.level,
    });
  }

  /** Records the values of an already ranked query (`-M` and `-J` are applied here). */
  addRanked(qid: string, query: RankedQuery): void {
    const q = this.trimmed(query);
    const n = this.qids.length;
    this.qids.push(qid);
    if (query.judged[0] < 0) this.allNegative.push(qid); // (highest first)
    if (n === this.columns[0]?.length) this.reserve(2 * n);
    const o = this.measureOptions, values = this.values, columns = this.columns;
    if (this.views.length === 1) {
      // The common case, kept lean: one view, no per-query allocation.
      for (let m = 0; m < values.length; m++) {
        const c = values[m].instance;
        columns[m][n] = c.measure.compute(q, c.param as never, o);
      }
      if (this.completeIndexes.length || this.texts.length) this.recordRest([q]);
      return;
    }
    const seen = this.views.map((v, i) => (i === 0 ? q : applyView(q, v)));
    for (let m = 0; m < values.length; m++) {
      const { instance: c, view } = values[m];
      columns[m][n] = c.measure.compute(seen[view], c.param as never, o);
    }
    this.recordRest(seen);
  }

  /** A ranking as `-M` (its first documents) and then `-J` (judged ones only) leave it. */
  private trimmed(query: RankedQuery): RankedQuery {
    let q = query;
    const { maxDocs, judgedOnly } = this.options;
    if (maxDocs !== undefined && q.rels.length > maxDocs) {
      q = { ...q, rels: q.rels.subarray(0, Math.max(0, maxDocs)) };
    }
    if (judgedOnly) q = { ...q, rels: q.rels.filter((r) => r >= 0) };
    return q;
  }

  /** Room for `n` queries' values in every column. */
  private reserve(n: number): void {
    this.columns = this.columns.map((c) => {
      if (c.length >= n) return c;
      const bigger = new Float64Array(Math.max(n, 2 * c.length));
      bigger.set(c.subarray(0, this.qids.length));
      return bigger;
    });
  }

  /** The queries recorded so far and their values, as plain data for another thread. */
  state(): EvaluatorState {
    const n = this.qids.length;
    return {
      qids: this.qids,
      columns: this.columns.map((c) => c.slice(0, n)),
      textColumns: this.textColumns,
      completeColumns: this.completeColumns,
      allNegative: this.allNegative,
    };
  }

  /**
   * The queries recorded whose judgments are all negative, in byte order: trec_eval (9.0.8 and
   * 10.0) sizes its count of judgments per level by the highest one and cannot evaluate such a
   * query ("Can't calculate measure", or a crash when an earlier query sized the counts); the kit
   * evaluates it with nothing relevant, and says so (`warnAllNegative`).
   */
  allNegativeQueries(): string[] {
    return [...this.allNegative].sort(compareDocnos);
  }

  /**
   * Adds the queries another evaluator of the same measures recorded (its {@link state}):
   * the result is the same as if this one had recorded them (the summary sums in qid order,
   * whatever the order queries came in).
   */
  absorb(other: EvaluatorState): void {
    // (A loop, not push(...): a spread of a million values overflows the stack.)
    const append = <T>(to: T[] | undefined, from: T[] | undefined) => {
      for (let i = 0; to && from && i < from.length; i++) to.push(from[i]);
    };
    const n = this.qids.length;
    this.reserve(n + other.qids.length);
    append(this.qids, other.qids);
    this.columns.forEach((c, m) => c.set(other.columns[m], n));
    this.textColumns.forEach((c, m) => append(c, other.textColumns[m]));
    this.completeColumns.forEach((c, m) => append(c, other.completeColumns[m]));
    append(this.allNegative, other.allNegative);
  }

  /** The text measures and the -c sums of a query, by view. */
  private recordRest(seen: RankedQuery[]): void {
    for (const m of this.completeIndexes) {
      const { instance, view } = this.values[m];
      this.completeColumns[m]!.push(instance.measure.completeSum!(seen[view].judged));
    }
    for (let m = 0; m < this.texts.length; m++) {
      const { instance, view } = this.texts[m];
      this.textColumns[m].push(instance.measure.text!(seen[view], instance.param as never));
    }
  }

  /**
   * What a qrels query missing from the run adds to each measure's sum with `-c`: 0, or the
   * measure's `completeSum` of its judgments (num_rel).
   */
  valuesForMissing(
    judgments: Pick<QueryJudgments, "judged" | "numRel">,
    release: TrecRelease = DEFAULT_RELEASE,
  ): number[] {
    // 10.0 adds what it computed on its stand-in ranking (`shownForMissing`: not always 0,
    // with -l -1 the stand-in document counts as relevant).
    const shown = release === "10.0" ? this.shownForMissing(judgments) : undefined;
    return this.values.map((c, m) =>
      c.instance.measure.completeSum?.(judgments.judged) ?? shown?.values[m] ?? 0
    );
  }

  /**
   * The per-query values and texts trec_eval 10.0 prints under `-q -c` for a qrels query
   * missing from the run: it ranks one unjudged stand-in document for the query, computes
   * every measure on it, then clears the values printed under the names `clearedForMissing`
   * says (to 0, relstring to ''). Its summary still adds
   * `valuesForMissing`.
   */
  shownForMissing(judgments: Pick<QueryJudgments, "judged" | "numRel">): ShownForMissing {
    // (-M and -J apply to the stand-in too: with -J it is dropped, and a measure of the empty
    // ranking that divides 0 by 0 is -nan there, as in 10.0.)
    const q = this.trimmed({
      rels: Float64Array.of(UNJUDGED),
      numRel: judgments.numRel,
      judged: judgments.judged,
      level: this.level,
    });
    const seen = this.views.map((v, i) => (i === 0 ? q : applyView(q, v)));
    return {
      values: this.values.map(({ instance: c, view }) =>
        clearedForMissing(c.label)
          ? 0
          : c.measure.compute(seen[view], c.param as never, this.measureOptions)
      ),
      texts: this.texts.map(({ instance: c, view }) =>
        clearedForMissing(c.label) ? "" : c.measure.text!(seen[view], c.param as never)
      ),
    };
  }

  /** The output lines, in order. */
  layout(): OutputLine[] {
    return this.selection.instances.map((i): OutputLine => {
      const m: AnyMeasure = i.measure;
      const kind = m.aggregate === "meta"
        ? (m.name === "runid" ? "runid" : "num_q")
        : m.aggregate === "none"
        ? "text"
        : "value";
      return {
        label: i.label,
        kind,
        integer: Boolean(m.integer),
        summaryInteger: Boolean(m.integer) && (m.aggregate === "sum" || m.aggregate === "meta"),
        perQuery: !m.summaryOnly,
        summary: m.aggregate !== "none",
      };
    });
  }

  /**
   * The result. `missing` lists qrels queries absent from the run with their values
   * (`valuesForMissing`), which enter the summary only in complete mode; in 10.0's complete
   * mode their per-query lines are printed too, with the values `shown` (`shownForMissing`).
   */
  result(
    info: {
      complete: boolean;
      runOnlyQueries: string[];
      missing: { qid: string; values: number[]; shown?: ShownForMissing }[];
      runId: string;
      release?: TrecRelease;
      /** The run's name, for the error when no query is in both. */
      file?: string;
    },
  ): EvalResult {
    const n = this.qids.length;
    // trec_eval 10.0's -c evaluates every qrels query (a missing one on a stand-in ranking).
    const evaluated10 = info.complete && info.release === "10.0" ? info.missing.length : 0;
    if (n + evaluated10 === 0) {
      throw noSharedQueries(info.file, {
        run: info.runOnlyQueries,
        qrels: info.missing.map((m) => m.qid),
      });
    }
    const labels = this.values.map((c) => c.instance.label);
    const textLabels = this.texts.map((c) => c.instance.label);
    const order = qidOrder(this.qids);
    const qids = this.qids, columns = this.columns, textColumns = this.textColumns;
    // Built on first access: 100,000 row objects cost about 0.1 s, which `eval trec`
    // without -q never needs.
    let perQuery: Map<string, Record<string, number>> | undefined;
    let perQueryText: Map<string, Record<string, string>> | undefined;
    let missingValues: Map<string, Record<string, number>> | undefined;
    const complete = info.complete;
    const listMissing = complete && info.release === "10.0" && info.missing.length > 0;
    type Missing = (typeof info.missing)[number];
    const rows = <T>(
      cols: ArrayLike<T>[],
      names: string[],
      missing: (m: number, x: Missing) => T,
    ) => {
      const entries: [string, Record<string, T>][] = [];
      for (let k = 0; k < order.length; k++) {
        const i = order[k];
        const row: Record<string, T> = {};
        for (let m = 0; m < names.length; m++) row[names[m]] = cols[m][i];
        entries.push([qids[i], row]);
      }
      if (listMissing) {
        for (const x of info.missing) {
          const row: Record<string, T> = {};
          for (let m = 0; m < names.length; m++) row[names[m]] = missing(m, x);
          entries.push([x.qid, row]);
        }
        entries.sort((a, b) => compareDocnos(a[0], b[0]));
      }
      return new Map(entries);
    };
    const numQ = complete ? n + info.missing.length : n;
    const summary: Record<string, number> = {};
    // 10.0's -c evaluates every qrels query in qid order, a missing one in its place: its sums
    // add the missing queries' values there, not after the others (the last bit of a sum can
    // decide a rounding: 0.005 + 0.01 + 0.01 + 0.01 is not 0.01 + 0.01 + 0.01 + 0.005).
    const merged = listMissing ? mergedOrder(qids, order, info.missing.map((x) => x.qid)) : [];
    for (let m = 0; m < labels.length; m++) {
      const measure = this.values[m].instance.measure;
      // Sums in qid order, as trec_eval, so the last bit does not depend on input order.
      // (trec_eval's -c quirk, in both releases: num_rel sums judgments > 0 whatever -l.)
      const col = complete && this.completeColumns[m] ? this.completeColumns[m]! : columns[m];
      if (listMissing) {
        const geometric = measure.aggregate === "geometric";
        let sum = 0;
        for (const k of merged) {
          const v = k >= 0 ? col[k] : info.missing[-1 - k].values[m];
          sum += geometric ? Math.log(Math.max(v, MIN_GEO_MEAN)) : v;
        }
        summary[labels[m]] = geometric
          ? Math.exp(sum / numQ)
          : measure.aggregate === "sum"
          ? sum
          : sum / numQ;
        continue;
      }
      if (measure.aggregate === "geometric") {
        let sum = sumInOrder(col, order, true);
        if (complete) {
          for (const x of info.missing) sum += Math.log(Math.max(x.values[m], MIN_GEO_MEAN));
        }
        summary[labels[m]] = Math.exp(sum / numQ);
        continue;
      }
      let sum = sumInOrder(col, order, false);
      if (complete) { for (const x of info.missing) sum += x.values[m]; }
      summary[labels[m]] = measure.aggregate === "sum" ? sum : sum / numQ;
    }
    return {
      measures: labels,
      summary,
      get perQuery() {
        return perQuery ??= rows(columns, labels, (m, x) => (x.shown?.values ?? x.values)[m]);
      },
      get perQueryText() {
        return perQueryText ??= rows(textColumns, textLabels, (m, x) => x.shown?.texts[m] ?? "");
      },
      layout: this.layout(),
      numQ,
      runOnlyQueries: info.runOnlyQueries,
      missingQueries: info.missing.map((x) => x.qid),
      get missingValues() {
        return missingValues ??= new Map(
          complete
            ? info.missing.map((
              x,
            ) => [x.qid, Object.fromEntries(labels.map((l, m) => [l, x.values[m]]))])
            : [],
        );
      },
      runId: info.runId,
      complete,
    };
  }
}

/**
 * The evaluated queries (`order`: indexes of `qids` in qid order) and the missing ones (`-1 - j`
 * for `missing[j]`) in one qid order.
 */
function mergedOrder(
  qids: readonly string[],
  order: readonly number[],
  missing: string[],
): number[] {
  const gaps = missing.map((_, j) => j).sort((a, b) => compareDocnos(missing[a], missing[b]));
  const out: number[] = [];
  let k = 0;
  for (const j of gaps) {
    while (k < order.length && compareDocnos(qids[order[k]], missing[j]) < 0) out.push(order[k++]);
    out.push(-1 - j);
  }
  while (k < order.length) out.push(order[k++]);
  return out;
}

/**
 * The sum of `col` in `order` (of the logs, floored at {@link MIN_GEO_MEAN}, for a geometric
 * mean). An indexed loop in a function of its own: the summary runs once, mostly before V8
 * optimizes it, and there `for...of` and a sum held across the loop allocate an iterator
 * result and a heap number per value (8 MB for 30,000 queries and four measures, measured with
 * `Deno.memoryUsage()`), which grew V8's young generation at the very end of the evaluation.
 */
function sumInOrder(col: ArrayLike<number>, order: readonly number[], log: boolean): number {
  let sum = 0;
  if (log) {
    for (let k = 0; k < order.length; k++) sum += Math.log(Math.max(col[order[k]], MIN_GEO_MEAN));
  } else {
    for (let k = 0; k < order.length; k++) sum += col[order[k]];
  }
  return sum;
}
