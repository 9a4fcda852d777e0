import "../quick.ts";
import assert from "node:assert/strict";
import fc from "fast-check";
import { analyzeTies, queryTies } from "../../lib/stats/ties.ts";
import { evaluate } from "../../lib/metrics/mod.ts";

/** Every permutation of `xs`. */
function permutations<T>(xs: T[]): T[][] {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) =>
    permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p])
  );
}

/** AP of a ranked list of relevance flags, written independently of the module. */
function ap(ranked: boolean[], numRelevant: number): number {
  if (numRelevant === 0) return 0;
  let total = 0;
  for (let k = 0; k < ranked.length; k++) {
    if (!ranked[k]) continue;
    const hitsSoFar = ranked.slice(0, k + 1).filter(Boolean).length;
    total += hitsSoFar / (k + 1);
  }
  return total / numRelevant;
}

function rr(ranked: boolean[]): number {
  for (let k = 0; k < ranked.length; k++) if (ranked[k]) return 1 / (k + 1);
  return 0;
}

/** All orders of a run that respect the scores (ties permuted), by brute force. */
function bruteForce(scores: Map<string, number>, relevant: Set<string>, numRelevant: number) {
  const distinct = [...new Set(scores.values())].sort((a, b) => b - a);
  const groups = distinct.map((s) => [...scores].filter(([, v]) => v === s).map(([d]) => d));
  let orders: string[][] = [[]];
  for (const g of groups) {
    orders = orders.flatMap((prefix) => permutations(g).map((p) => [...prefix, ...p]));
  }
  const aps = orders.map((o) => ap(o.map((d) => relevant.has(d)), numRelevant));
  const rrs = orders.map((o) => rr(o.map((d) => relevant.has(d))));
  const summary = (xs: number[]) => ({
    min: Math.min(...xs),
    max: Math.max(...xs),
    expected: xs.reduce((a, b) => a + b, 0) / xs.length,
  });
  return { ap: summary(aps), rr: summary(rrs) };
}

const close = (a: number, b: number) => Math.abs(a - b) < 1e-12;

Deno.test("hand-worked: two relevant documents tied with two non-relevant, after one non-relevant", () => {
  // Ranks: x (0.9, not relevant), then {a, b relevant; c, d not} tied at 0.5.
  const scores = new Map([["x", 0.9], ["a", 0.5], ["b", 0.5], ["c", 0.5], ["d", 0.5]]);
  const judgments = new Map([["a", 1], ["b", 1], ["c", 0], ["d", 0]]);
  const t = queryTies("q", scores, judgments);
  // trec_eval: 0.5 group in docno descending order d, c, b, a -> relevant at ranks 4, 5.
  assert.ok(close(t.ap.trecEval, (1 / 4 + 2 / 5) / 2));
  // Best: relevant at 2, 3 -> (1/2 + 2/3) / 2; worst: same as trec_eval here.
  assert.ok(close(t.ap.max, (1 / 2 + 2 / 3) / 2));
  assert.ok(close(t.ap.min, (1 / 4 + 2 / 5) / 2));
  // RR: first relevant at 2 (best), 4 (worst); P(first at 2) = 1/2, 3: 1/3, 4: 1/6.
  assert.ok(close(t.rr.expected, 0.5 / 2 + (1 / 3) / 3 + (1 / 6) / 4));
  assert.equal(t.tiedGroups, 1);
  assert.equal(t.tiedDocs, 4);
  assert.equal(t.mixedGroups, 1);
});

Deno.test("ties among only non-relevant or only relevant documents change nothing", () => {
  const scores = new Map([["a", 2], ["b", 2], ["c", 1], ["d", 1]]);
  const t = queryTies("q", scores, new Map([["a", 1], ["b", 1]]));
  assert.equal(t.tiedGroups, 2);
  assert.equal(t.mixedGroups, 0);
  for (const r of [t.ap, t.rr]) {
    assert.equal(r.min, 1);
    assert.equal(r.max, 1);
    assert.ok(close(r.expected, 1));
  }
});

Deno.test("unretrieved relevant documents count in R; relevance level applies", () => {
  const scores = new Map([["a", 1], ["b", 1]]);
  const judgments = new Map([["a", 2], ["b", 1], ["z", 2]]);
  const t = queryTies("q", scores, judgments, { relevanceLevel: 2 });
  assert.equal(t.relevant, 2); // a and z
  assert.ok(close(t.ap.max, 1 / 2)); // a at rank 1, z never retrieved
  assert.ok(close(t.ap.min, (1 / 2) / 2));
  assert.ok(close(t.ap.expected, (0.5 * 1 + 0.5 * 0.5) / 2));
});

Deno.test("property: range and expectation equal brute force over all tie orders", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.boolean()), {
        minLength: 1,
        maxLength: 7,
      }),
      fc.integer({ min: 0, max: 2 }),
      (docs, unretrievedRelevant) => {
        const scores = new Map<string, number>();
        const judgments = new Map<string, number>();
        docs.forEach(([score, rel], i) => {
          scores.set(`d${i}`, score);
          judgments.set(`d${i}`, rel ? 1 : 0);
        });
        for (let i = 0; i < unretrievedRelevant; i++) judgments.set(`u${i}`, 1);
        const relevant = new Set([...judgments].filter(([, r]) => r >= 1).map(([d]) => d));
        const brute = bruteForce(scores, relevant, relevant.size);
        const t = queryTies("q", scores, judgments);
        for (const m of ["ap", "rr"] as const) {
          assert.ok(close(t[m].min, brute[m].min), `${m} min ${t[m].min} vs ${brute[m].min}`);
          assert.ok(close(t[m].max, brute[m].max), `${m} max ${t[m].max} vs ${brute[m].max}`);
          assert.ok(
            close(t[m].expected, brute[m].expected),
            `${m} expected ${t[m].expected} vs ${brute[m].expected}`,
          );
          assert.ok(t[m].min <= t[m].trecEval + 1e-15 && t[m].trecEval <= t[m].max + 1e-15);
        }
      },
    ),
    { numRuns: 300, seed: 7 },
  );
});

Deno.test("analyzeTies: query selection like trec_eval, -c adds missing queries as 0", () => {
  const qrels = new Map([
    ["q1", new Map([["a", 1], ["b", 0]])],
    ["q2", new Map([["c", 1]])],
  ]);
  const run = new Map([
    ["q1", new Map([["a", 1], ["b", 1]])],
    ["q9", new Map([["x", 1]])],
  ]);
  const t = analyzeTies(qrels, run);
  assert.equal(t.numQ, 1);
  assert.equal(t.map.min, 0.5);
  assert.equal(t.map.max, 1);
  assert.equal(t.map.trecEval, 0.5); // b before a (docno descending)
  const c = analyzeTies(qrels, run, { complete: true });
  assert.equal(c.numQ, 2);
  assert.equal(c.map.expected, 0.375);
  assert.equal(c.queriesAffected, 1);
  assert.equal(c.mixedGroups, 1);
});

Deno.test("property: the trec_eval value equals the metric engine's AP and RR", () => {
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 2 })), {
        minLength: 1,
        maxLength: 12,
      }),
      (docs) => {
        const scores = new Map<string, number>();
        const judgments = new Map<string, number>();
        docs.forEach(([score, rel], i) => {
          scores.set(`d${(i * 7) % 13}x${i}`, score / 2);
          judgments.set(`d${(i * 7) % 13}x${i}`, rel);
        });
        const qrels = new Map([["q", judgments]]);
        const run = new Map([["q", scores]]);
        const engine = evaluate(qrels, run, ["map", "recip_rank"]).perQuery.get("q")!;
        const t = queryTies("q", scores, judgments);
        assert.ok(close(t.ap.trecEval, engine.map));
        assert.ok(close(t.rr.trecEval, engine.recip_rank));
      },
    ),
    { numRuns: 200, seed: 3 },
  );
});
