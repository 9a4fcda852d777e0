/**
 * The qrels index's query ids and the ranges of their judgment records, in typed arrays: one
 * open-addressing table keyed by the id's bytes. A `Map` of 100,000 string keys cost the reading
 * thread a few tenths of a second to fill; typed arrays fill in milliseconds, and no id is
 * decoded while reading.
 *
 * @module
 */
import { hashBytes } from "./trec_scan.ts";

/** A {@link QueryTable} as plain data (see `QueryTable.state`). */
export interface QueryTableState {
  names: Uint8Array<ArrayBuffer>;
  queries: Int32Array<ArrayBuffer>;
  ranges: Int32Array<ArrayBuffer>;
  size: number;
  rangeCount: number;
}

const Q = 5; // ints per query
const R = 4; // ints per range
/** Decodes query ids (one decoder: a `TextDecoder` per id cost about 3 KB of garbage each). */
const ID_DECODER = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Query ids to the ranges of their records (see the module comment).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { QueryTable } from "./query_table.ts";
 * const t = new QueryTable();
 * const id = new TextEncoder().encode("q1");
 * const q = t.add(id, 0, id.length);
 * t.close(q, t.addRange(q, 0, 100), 160, 5); // 5 judgments in chunk 0, bytes 100-160
 * assert.equal(t.findId("q1"), q);
 * assert.deepEqual(t.range(t.first(q)), [0, 100, 160]);
 * assert.equal(t.judgments(q), 5);
 * const utf8 = new TextEncoder().encode("q1 é"); // an id is bytes, found by its text too
 * const e = t.add(utf8, 3, utf8.length);
 * assert.equal(t.findId("é"), e);
 * assert.equal(t.findId("e"), -1);
 * ```
 */
export class QueryTable {
  /** The ids' bytes, one after another. */
  names = new Uint8Array(4096);
  /** Per query: `[nameStart, nameEnd, judgments, firstRange, lastRange]`. */
  queries = new Int32Array(Q * 256);
  /** Per range: `[chunk, start, end, nextRange]` (-1: the query's last). */
  ranges = new Int32Array(R * 256);
  size = 0;
  rangeCount = 0;
  private namesUsed = 0;
  /** Query index + 1 per slot, 0 when empty. */
  private slots = new Int32Array(1024);
  private encoded = new Uint8Array(256);

  private slotsFor(size: number): number {
    let cap = 1024;
    while (cap < 2 * size + 2) cap <<= 1;
    return cap;
  }

  private rehash(cap: number): void {
    this.slots = new Int32Array(cap);
    for (let q = 0; q < this.size; q++) {
      const s = this.queries[Q * q], e = this.queries[Q * q + 1];
      let h = hashBytes(this.names, s, e) & (cap - 1);
      while (this.slots[h] !== 0) h = (h + 1) & (cap - 1);
      this.slots[h] = q + 1;
    }
  }

  /** The query whose id is `buf[s, e)`, or -1. */
  find(buf: Uint8Array, s: number, e: number): number {
    const slots = this.slots, mask = slots.length - 1, names = this.names, qs = this.queries;
    for (let h = hashBytes(buf, s, e) & mask;; h = (h + 1) & mask) {
      const slot = slots[h];
      if (slot === 0) return -1;
      const ns = qs[Q * (slot - 1)], ne = qs[Q * (slot - 1) + 1];
      if (ne - ns === e - s) {
        let k = 0;
        while (k < e - s && names[ns + k] === buf[s + k]) k++;
        if (k === e - s) return slot - 1;
      }
    }
  }

  /** The query with this id, or -1. */
  findId(qid: string): number {
    if (this.encoded.length < 3 * qid.length) this.encoded = new Uint8Array(3 * qid.length);
    // An ASCII id (the usual) is copied here: `encodeInto` costs a call through the web API's
    // checks, once per query of the run.
    const bytes = this.encoded;
    let n = 0;
    for (let c; n < qid.length && (c = qid.charCodeAt(n)) < 128; n++) bytes[n] = c;
    if (n < qid.length) n = new TextEncoder().encodeInto(qid, bytes).written;
    return this.find(bytes, 0, n);
  }

  /** Adds a query whose id is `buf[s, e)` (not in the table yet); its index. */
  add(buf: Uint8Array, s: number, e: number): number {
    if (2 * this.size + 4 > this.slots.length) this.rehash(this.slotsFor(this.size + 1));
    const q = this.size++;
    if (Q * this.size > this.queries.length) this.queries = this.grow32(this.queries);
    while (this.namesUsed + e - s > this.names.length) {
      const bigger = new Uint8Array(2 * this.names.length);
      bigger.set(this.names);
      this.names = bigger;
    }
    this.names.set(buf.subarray(s, e), this.namesUsed);
    const qs = this.queries, at = Q * q;
    qs[at] = this.namesUsed;
    qs[at + 1] = this.namesUsed + e - s;
    qs[at + 2] = 0;
    qs[at + 3] = qs[at + 4] = -1;
    this.namesUsed += e - s;
    const mask = this.slots.length - 1;
    let h = hashBytes(buf, s, e) & mask;
    while (this.slots[h] !== 0) h = (h + 1) & mask;
    this.slots[h] = q + 1;
    return q;
  }

  private grow32(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
    const bigger = new Int32Array(2 * a.length);
    bigger.set(a);
    return bigger;
  }

  /** Starts a range of records for query `q` at `start` of `chunk`; its index. */
  addRange(q: number, chunk: number, start: number): number {
    const r = this.rangeCount++;
    if (R * this.rangeCount > this.ranges.length) this.ranges = this.grow32(this.ranges);
    const rs = this.ranges, at = R * r;
    rs[at] = chunk;
    rs[at + 1] = rs[at + 2] = start;
    rs[at + 3] = -1;
    const last = this.queries[Q * q + 4];
    if (last < 0) this.queries[Q * q + 3] = r;
    else this.ranges[R * last + 3] = r;
    this.queries[Q * q + 4] = r;
    return r;
  }

  /** Ends range `r` at `end`, with `added` more judgments for query `q`. */
  close(q: number, r: number, end: number, added: number): void {
    this.ranges[R * r + 2] = end;
    this.queries[Q * q + 2] += added;
  }

  /** The number of judgments of query `q`. */
  judgments(q: number): number {
    return this.queries[Q * q + 2];
  }

  /** The first range of query `q` (then `next`), -1 when none. */
  first(q: number): number {
    return this.queries[Q * q + 3];
  }

  /** The range after `r` of its query, or -1. */
  next(r: number): number {
    return this.ranges[R * r + 3];
  }

  /** Range `r`: `[chunk, start, end]`. */
  range(r: number): [number, number, number] {
    return [this.ranges[R * r], this.ranges[R * r + 1], this.ranges[R * r + 2]];
  }

  /** Where query `q`'s id is in `names`. */
  name(q: number): [number, number] {
    return [this.queries[Q * q], this.queries[Q * q + 1]];
  }

  /** The table as plain data (typed arrays), to send to another thread. */
  state(): QueryTableState {
    return {
      names: this.names.slice(0, this.namesUsed),
      queries: this.queries.slice(0, Q * this.size),
      ranges: this.ranges.slice(0, R * this.rangeCount),
      size: this.size,
      rangeCount: this.rangeCount,
    };
  }

  /** A table from {@link state}. */
  static fromState(s: QueryTableState): QueryTable {
    const t = new QueryTable();
    t.names = s.names.length ? s.names : t.names;
    t.namesUsed = s.names.length;
    t.queries = s.queries.length ? s.queries : t.queries;
    t.ranges = s.ranges.length ? s.ranges : t.ranges;
    t.size = s.size;
    t.rangeCount = s.rangeCount;
    t.rehash(t.slotsFor(t.size));
    return t;
  }

  /**
   * Appends the queries and ranges of `later`, a table of the records that follow this
   * table's in the file (its chunks numbered from `chunkOffset` here): each query's ranges
   * keep file order, as if one table had read both.
   */
  append(later: QueryTable, chunkOffset: number): void {
    for (let lq = 0; lq < later.size; lq++) {
      const [s, e] = later.name(lq);
      let q = this.find(later.names, s, e);
      if (q < 0) q = this.add(later.names, s, e);
      for (let lr = later.first(lq); lr >= 0; lr = later.next(lr)) {
        const [chunk, start, end] = later.range(lr);
        const r = this.addRange(q, chunk + chunkOffset, start); // (may grow `ranges`)
        this.ranges[R * r + 2] = end;
      }
      this.queries[Q * q + 2] += later.judgments(lq);
    }
  }

  /** The id of query `q`. */
  id(q: number): string {
    const s = this.queries[Q * q], e = this.queries[Q * q + 1];
    // (A leading U+FEFF is part of the id: see trec_scan.ts's decoder.)
    return ID_DECODER.decode(this.names.subarray(s, e));
  }
}
