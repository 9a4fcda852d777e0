/** The qrels index's query table: ids by their bytes, ranges in order, growth. */
import "../quick.ts";
import { assertEquals } from "../assert.ts";
import { QueryTable } from "../../lib/metrics/engine/query_table.ts";
import { qidOrder } from "../../lib/metrics/engine/query_order.ts";

const enc = new TextEncoder();

/** Every query's id and ranges, in order. */
function contents(t: QueryTable): [string, number, number[][]][] {
  const out: [string, number, number[][]][] = [];
  for (let q = 0; q < t.size; q++) {
    const ranges: number[][] = [];
    for (let r = t.first(q); r >= 0; r = t.next(r)) ranges.push(t.range(r));
    out.push([t.id(q), t.judgments(q), ranges]);
  }
  return out;
}

Deno.test("query table: 20,000 ids (UTF-8, empty, alike), several ranges each, through growth", () => {
  const t = new QueryTable();
  const ids = ["", "é", "q\u{1F600}", ...Array.from({ length: 20000 }, (_, i) => `q${i}`)];
  for (const [i, id] of ids.entries()) {
    const b = enc.encode(id);
    assertEquals(t.find(b, 0, b.length), -1);
    const q = t.add(b, 0, b.length);
    assertEquals(q, i);
    t.close(q, t.addRange(q, 0, 10 * i), 10 * i + 5, 2);
  }
  // A second stretch for every third query, as qrels not grouped by query have.
  for (let i = 0; i < ids.length; i += 3) t.close(i, t.addRange(i, 1, i), i + 1, 1);
  const all = contents(t);
  for (const [i, id] of ids.entries()) {
    assertEquals(t.findId(id), i);
    const want = [[0, 10 * i, 10 * i + 5], ...(i % 3 === 0 ? [[1, i, i + 1]] : [])];
    assertEquals(all[i], [id, i % 3 === 0 ? 3 : 2, want]);
  }
  assertEquals(t.findId("q20000"), -1);
});

Deno.test("query order: byte order of the UTF-8 ids, astral characters, U+E000-U+FFFF and NUL too", () => {
  // Byte order, computed here by comparing the encoded ids (not the kit's compareDocnos).
  const byBytes = (a: string, b: string) => {
    const x = enc.encode(a), y = enc.encode(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length;
  };
  const pieces = ["q", "Q", "1", "10", "\0", "é", "\uffff", "\ue000", "\u{1F600}", "\u{10000}", ""];
  let seed = 26;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % pieces.length;
  for (let trial = 0; trial < 200; trial++) {
    const ids = new Set<string>();
    const n = 1 + (trial % 40);
    while (ids.size < n) {
      ids.add(Array.from({ length: 1 + next() % 4 }, () => pieces[next()]).join(""));
    }
    // Half the trials without astral characters (the engine's own comparison), half with.
    const list = [...ids].filter((id) => trial % 2 === 1 || !/[\u{10000}-\u{10FFFF}]/u.test(id));
    const want = [...list].sort(byBytes);
    assertEquals(qidOrder(list).map((i) => list[i]), want);
  }
});
