/**
 * Judging and ranking one query block of a run, on bytes: {@link BlockJudge} looks every
 * retrieved docno up in the query's judgments (one hash table per query), and
 * {@link rankInto} puts the block in trec_eval's order (score descending, then docno
 * descending by bytes). What they give is what a measure reads (`RankedQuery`).
 *
 * @module
 */
import { type RankedQuery, UNJUDGED } from "../measures/measure.ts";
import type { QueryTable } from "./query_table.ts";
import type { RunBlock } from "./run_reader.ts";
import { compareScoresDesc } from "../rank.ts";
import { duplicateDocument } from "./reading_rules.ts";
import { compareBytes, decodeField, equalBytes, FNV_OFFSET, FNV_PRIME } from "./trec_scan.ts";

/**
 * The first byte of a judgment record in its long form (`qrels_index.ts` writes the records,
 * {@link BlockJudge.judge} reads them): a short form's first byte holds at most 14 shared bytes
 * in its high four bits, so it is never this.
 */
export const LONG_RECORD = 0xf0;

/**
 * What the judge reads of the qrels. `QrelsIndex` (qrels_index.ts) implements it; it is
 * declared here because the index builds on the judge, so the judge does not import the index.
 */
export interface JudgedQrels {
  /** The qrels file's name, for messages. */
  readonly file: string;
  /** The judged queries. */
  queryTable(): QueryTable;
  /** A query's index in the table, -1 when it is not judged. */
  lookup(qid: string): number;
  /** The judgment records, one chunk per slot. */
  records(): Uint8Array[];
  /** Throws the qrels' error for a document judged twice for one query. */
  duplicate(qid: string, docno: string): never;
}

/** A block retrieving nothing (to digest a query's judgments alone). */
export function emptyBlock(qid: string): RunBlock {
  const none = new Int32Array(0);
  return {
    buf: new Uint8Array(0),
    qid,
    first: 0,
    count: 0,
    docStart: none,
    docEnd: none,
    docHash: none,
    score: new Float64Array(0),
    line: none,
  };
}

/** Room for the hashes of a docno's prefixes up to `max` bytes; the empty prefix's is set. */
function fnvPrefixes(max: number): Int32Array {
  const h = new Int32Array(max + 1);
  h[0] = FNV_OFFSET; // as `hashBytes` starts
  return h;
}

/**
 * Judges one query block against the qrels in one hash table: the block's docnos go in first
 * (a docno twice in the block is an error, as in trec_eval), then the query's judgment
 * records are walked once, each either giving its relevance to the retrieved document with
 * the same docno or entering the table as judged-only (a docno judged twice is an error, as in
 * trec_eval). The scratch arrays are reused from query to query: allocation churn is what
 * costs at this scale. `QrelsIndex.digest` runs it on an empty block to read a query's
 * judgments alone.
 */
export class BlockJudge {
  /** >0: retrieved document i + 1; <0: judged-only document -(j + 1). */
  private slots = new Int32Array(256);
  /** The docno of the record being read (records keep what they share with the previous). */
  private doc = new Uint8Array(65536);
  /** `prefixHash[k]`: the hash of `doc`'s first k bytes (`hashBytes` stopped after k). */
  private prefixHash = fnvPrefixes(65536);
  /** Judged-only docnos, `arena[jStart[j], jEnd[j])`. */
  private arena = new Uint8Array(4096);
  private jStart = new Int32Array(256);
  private jEnd = new Int32Array(256);
  private jRel = new Float64Array(256);
  private only = 0;
  private all = new Float64Array(256);
  /** Views `all[0, n)` by n, made once: a view per query is garbage at this scale. */
  private allViews: Float64Array[] = [];
  private histogram = new Int32Array(256);
  /** Relevance of each document of the block, in block order (`UNJUDGED`: no judgment). */
  rels = new Float64Array(256);
  /** Judgments that count as relevant at the level (trec_eval's `num_rel`). */
  numRel = 0;
  /** The judged query in the qrels' query table (-1: the qrels do not judge it). */
  query = -1;
  /** Every judgment value of the query, highest first. */
  judged: Float64Array = new Float64Array(0);

  /**
   * The judgments of the last judged query that no retrieved document matched, as a Map
   * (docno to relevance): every judgment when the block was empty (`QrelsIndex.digest`).
   */
  judgedOnly(qrels: JudgedQrels): Map<string, number> {
    const m = new Map<string, number>();
    const where = { file: qrels.file, line: 0 };
    for (let j = 0; j < this.only; j++) {
      m.set(decodeField(this.arena, this.jStart[j], this.jEnd[j], where), this.jRel[j]);
    }
    return m;
  }

  /**
   * Judges block `b`; returns false when the qrels have no judgment for its query (its
   * docnos unlooked at, as trec_eval). A docno retrieved or judged twice is an error, unless
   * `countDuplicates` (a qrels-only query under 9.0.8's `-c`, which counts its judgments without
   * looking at them): then each is counted. `known`: the query's index in the qrels, when the
   * caller looked it up already.
   */
  judge(
    b: RunBlock,
    qrels: JudgedQrels,
    level: number,
    file: string,
    countDuplicates = false,
    known = qrels.lookup(b.qid),
  ): boolean {
    const table = qrels.queryTable();
    const query = this.query = known;
    // trec_eval never looks at a query the qrels lack (a docno twice there is no error).
    if (query < 0) return false;
    const judged = table.judgments(query);
    const n = b.count;
    let cap = 8;
    while (cap < 2 * (n + judged)) cap <<= 1;
    // The table keeps the largest size seen; a query uses (and clears) its first `cap` slots.
    if (this.slots.length < cap) this.slots = new Int32Array(cap);
    else this.slots.fill(0, 0, cap);
    if (this.rels.length < n) this.rels = new Float64Array(Math.max(n, 2 * this.rels.length));
    if (this.jStart.length < judged) {
      const m = Math.max(judged, 2 * this.jStart.length);
      this.jStart = new Int32Array(m);
      this.jEnd = new Int32Array(m);
      this.jRel = new Float64Array(m);
      this.all = new Float64Array(m);
      this.allViews = [];
    }
    const slots = this.slots, rels = this.rels, mask = cap - 1;
    const o = b.first, buf = b.buf, ds = b.docStart, de = b.docEnd, dh = b.docHash;
    for (let i = 0; i < n; i++) {
      let h = dh[o + i] & mask;
      for (;;) {
        const slot = slots[h];
        if (slot === 0) {
          slots[h] = i + 1;
          break;
        }
        const k = o + slot - 1;
        if (equalBytes(buf, ds[k], de[k], buf, ds[o + i], de[o + i])) {
          const where = { file, line: b.line[o + i] };
          throw duplicateDocument(b.qid, decodeField(buf, ds[o + i], de[o + i], where), where);
        }
        h = (h + 1) & mask;
      }
      rels[i] = UNJUDGED;
    }
    const chunks = qrels.records();
    const jStart = this.jStart, jEnd = this.jEnd, jRel = this.jRel;
    const all = this.all, doc = this.doc, prefixHash = this.prefixHash;
    let arena = this.arena, used = 0;
    let numRel = 0, only = 0, count = 0, low = 0, high = 0;
    const ranges = table.ranges;
    for (let r = table.first(query); r >= 0; r = table.next(r)) {
      const c = chunks[ranges[4 * r]];
      let p = ranges[4 * r + 1];
      const e = ranges[4 * r + 2];
      while (p < e) {
        // A record, short or long (see qrels_index.ts): how much of the previous docno it
        // shares, its new bytes, its relevance.
        const head = c[p++];
        let shared = head >> 4, len = (head >> 2) & 3, small = head & 3;
        if (head === LONG_RECORD) {
          small = 3;
          shared = c[p++];
          if (shared === 255) {
            shared = (c[p] << 8) | c[p + 1];
            p += 2;
          }
          len = c[p++];
          if (len === 255) {
            len = (c[p] << 8) | c[p + 1];
            p += 2;
          }
        }
        // The docno's hash continues from its shared prefix's (FNV-1a, as `hashBytes`): only
        // the new bytes are hashed, as only they are copied.
        let hash = prefixHash[shared];
        for (let k = 0; k < len; k++) {
          const byte = doc[shared + k] = c[p + k];
          prefixHash[shared + k + 1] = hash = Math.imul(hash ^ byte, FNV_PRIME);
        }
        p += len;
        const docLen = shared + len;
        let rel = small;
        if (small === 3) {
          rel = c[p++];
          if (rel === 0x80) {
            rel = c[p] | (c[p + 1] << 8) | (c[p + 2] << 16) | (c[p + 3] << 24);
            p += 4;
          } else if (rel > 127) rel -= 256;
        }
        let h = hash & mask;
        for (;;) {
          const slot = slots[h];
          if (slot === 0) {
            // Judged, not retrieved: its docno kept for what follows (duplicates, judgedOnly).
            slots[h] = -(only + 1);
            if (used + docLen > arena.length) {
              const bigger = new Uint8Array(2 * (used + docLen));
              bigger.set(arena.subarray(0, used));
              arena = this.arena = bigger;
            }
            for (let k = 0; k < docLen; k++) arena[used + k] = doc[k];
            jStart[only] = used;
            jEnd[only] = used += docLen;
            jRel[only] = rel;
            only++;
            break;
          }
          if (slot > 0) {
            const i = slot - 1;
            if (equalBytes(buf, ds[o + i], de[o + i], doc, 0, docLen)) {
              if (rels[i] !== UNJUDGED) {
                qrels.duplicate(b.qid, decodeField(doc, 0, docLen, { file, line: 0 }));
              }
              rels[i] = rel;
              break;
            }
          } else {
            const j = -slot - 1;
            if (!countDuplicates && equalBytes(arena, jStart[j], jEnd[j], doc, 0, docLen)) {
              qrels.duplicate(b.qid, decodeField(doc, 0, docLen, { file, line: 0 }));
            }
          }
          h = (h + 1) & mask;
        }
        // trec_eval counts judgments >= 0 only (a negative one is "in the pool, unjudged").
        if (rel >= 0 && rel >= level) numRel++;
        if (count === 0 || rel < low) low = rel;
        if (count === 0 || rel > high) high = rel;
        all[count++] = rel;
      }
    }
    this.numRel = numRel;
    this.only = only;
    this.judged = this.allViews[count] ??= all.subarray(0, count);
    this.sortDescending(count, low, high);
    return true;
  }

  /**
   * Sorts the judgment values `all[0, n)` highest first: by counting when they span fewer
   * than 256 values (graded relevance always does), else by the engine's numeric sort.
   */
  private sortDescending(n: number, low: number, high: number): void {
    const all = this.all;
    if (high - low < 256) {
      const hist = this.histogram;
      hist.fill(0, 0, high - low + 1);
      for (let i = 0; i < n; i++) hist[all[i] - low]++;
      let k = 0;
      for (let v = high - low; v >= 0; v--) {
        for (let c = hist[v]; c > 0; c--) all[k++] = v + low;
      }
      return;
    }
    all.subarray(0, n).sort().reverse();
  }
}

/**
 * Ranks a block's documents in trec_eval order (score descending, then docno descending by
 * bytes) into `out[at, at + count)` (the block's positions, 0-based): runs are usually
 * already in score order, which one pass detects, and then only tie groups are sorted.
 * Scores are compared as stored (`trecScore`: 32-bit floats for 9.0.8), by `compareScoresDesc`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rankInto } from "./judge.ts";
 * const buf = new TextEncoder().encode("d1d2d3");
 * const block = { buf, qid: "q", first: 0, count: 3, docStart: Int32Array.of(0, 2, 4),
 *   docEnd: Int32Array.of(2, 4, 6), docHash: new Int32Array(3),
 *   score: Float64Array.of(1, 2, 1), line: new Int32Array(3) };
 * const order = new Int32Array(3);
 * rankInto(block, order, 0);
 * assert.deepEqual([...order], [1, 2, 0]); // d2 (score 2), then the tie d3 > d1
 * ```
 */
export function rankInto(b: RunBlock, out: Int32Array, at: number): void {
  const n = b.count;
  for (let i = 0; i < n; i++) out[at + i] = i;
  // Entries of the block: o + i (`out[at + r]` holds i).
  const o = b.first, s = b.score, buf = b.buf, ds = b.docStart, de = b.docEnd;
  // (Made only where a sort needs it: a closure per query is garbage at this scale.)
  const docDesc = () => (x: number, y: number) =>
    compareBytes(buf, ds[o + y], de[o + y], buf, ds[o + x], de[o + x]);
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) sorted = s[o + i] <= s[o + i - 1];
  if (!sorted) {
    const byDocDesc = docDesc();
    out.subarray(at, at + n).sort((x, y) =>
      compareScoresDesc(s[o + x], s[o + y]) || byDocDesc(x, y)
    );
    return;
  }
  let start = 0;
  while (start < n) {
    let end = start + 1;
    const score = s[o + start];
    while (end < n && s[o + end] === score) end++;
    if (end - start > 16) out.subarray(at + start, at + end).sort(docDesc());
    else {
      // Small tie groups (the usual case): insertion sort by docno descending, in place, the
      // bytes compared here (strcmp order, as `compareBytes`) rather than through a call.
      for (let i = start + 1; i < end; i++) {
        const x = out[at + i];
        const xs = ds[o + x], xl = de[o + x] - xs;
        let j = i - 1;
        for (; j >= start; j--) {
          const y = out[at + j];
          const ys = ds[o + y], yl = de[o + y] - ys;
          const m = xl < yl ? xl : yl;
          let k = 0;
          while (k < m && buf[xs + k] === buf[ys + k]) k++;
          if ((k < m ? buf[xs + k] - buf[ys + k] : xl - yl) <= 0) break;
          out[at + j + 1] = y;
        }
        out[at + j + 1] = x;
      }
    }
    start = end;
  }
}

/**
 * Builds what the measures read from a judged block: its judgments in trec_eval order
 * (ranked ahead by `-M`'s cut, or here). One `RankedQuery` object and its arrays
 * are reused from query to query (per-query garbage is what the young-generation GC pays for
 * at this scale): a measure must not keep it.
 */
export class QueryRanker {
  private order = new Int32Array(256);
  private orderViews: Int32Array[] = [];
  private rels = new Float64Array(256);
  private relViews: Float64Array[] = [];
  private readonly query: RankedQuery;

  constructor(level: number) {
    this.query = { rels: this.rels, numRel: 0, judged: this.rels, level };
  }

  /** The block `judge` has just judged, ranked (see the class comment). */
  rank(b: RunBlock, judge: BlockJudge): RankedQuery {
    const n = b.count;
    let order = b.order, at = b.first;
    if (!order && b.wasm?.rankTies(b.first, n)) {
      // Ranked in the fast path's memory (the usual block: in score order, small tie groups).
      order = b.wasm.order();
      at = 0;
    } else if (!order) {
      if (this.order.length < n) {
        this.order = new Int32Array(Math.max(n, 2 * this.order.length));
        this.orderViews = [];
      }
      order = this.orderViews[n] ??= this.order.subarray(0, n);
      rankInto(b, order, 0);
      at = 0;
    }
    if (this.rels.length < n) {
      this.rels = new Float64Array(Math.max(n, 2 * this.rels.length));
      this.relViews = [];
    }
    const ranked = this.relViews[n] ??= this.rels.subarray(0, n);
    const rels = judge.rels;
    for (let r = 0; r < n; r++) ranked[r] = rels[order[at + r]];
    const q = this.query;
    q.rels = ranked;
    q.numRel = judge.numRel;
    q.judged = judge.judged;
    return q;
  }
}
