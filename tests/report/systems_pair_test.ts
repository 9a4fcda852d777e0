/**
 * The error analysis's pair and its rows: the default pair (your two best), one definition per
 * row (means over a system's runs, their sd, the candidate most runs put first), the
 * breakdowns' groups.
 */
import assert from "node:assert/strict";
import {
  breakdownRows,
  comparedPair,
  identicalOn,
  pairDifferenceRows,
  pairTextRows,
} from "../../lib/report/systems/pair_data.ts";
import { loadSplit } from "../../lib/data/splits.ts";
import { qrelsFromQuestions, runFromScores } from "../../lib/metrics/convert.ts";
import { scoreSplit } from "../../lib/scoring/pipeline.ts";
import { queryValues } from "../../lib/stats/query_set.ts";
import { realDataTest } from "../helpers.ts";

const q = {
  id: "q1",
  text: "Who wrote it?",
  candidates: [
    { id: "a", text: "wrong one", label: 0 },
    { id: "b", text: "right one", label: 1 },
    { id: "c", text: "another wrong", label: 0 },
  ],
};
const scores = (a: number, b: number, c: number) =>
  new Map([["q1", new Map([["a", a], ["b", b], ["c", c]])]]);

Deno.test("pair rows: AP and RR as means over runs with sd, the first candidate most runs put first", () => {
  // Two runs: b first (AP 1), then a first (AP 1/2); one-run system: c, a, b (AP 1/3).
  const seeds = {
    name: "seeds",
    runs: [scores(0.5, 0.9, 0.1), scores(0.9, 0.5, 0.1)],
    perRun: [
      new Map([["q1", { map: 1, recip_rank: 1 }]]),
      new Map([["q1", { map: 0.5, recip_rank: 0.5 }]]),
    ],
  };
  const one = {
    name: "one",
    runs: [scores(0.5, 0.1, 0.9)],
    perRun: [new Map([["q1", { map: 1 / 3, recip_rank: 1 / 3 }]])],
  };
  const [row] = pairTextRows([q], seeds, one);
  // sd of (1, 0.5) with n - 1: sqrt(0.125) = 0.3536.
  assert.equal(row["seeds: AP"], "0.7500 ± 0.3536");
  assert.equal(row["seeds: RR"], "0.7500 ± 0.3536");
  // A tie between b and a (one run each): the smaller id, a, is named, with its count.
  assert.equal(row["seeds: first"], "[wrong] wrong one (first in 1 of 2 runs)");
  assert.equal(row["one: AP"], 1 / 3);
  assert.equal(row["one: first"], "[wrong] another wrong");
  assert.equal(row["correct answer(s)"], "right one");
  const [d] = pairDifferenceRows([q], seeds, one);
  assert.equal(d["AP first - second"], 0.75 - 1 / 3);
  assert.equal(d.type, "who");
});

Deno.test("the default pair: your two best; with one system, it against the strongest other baseline", () => {
  const spec = {
    systems: [
      { name: "mine", runs: ["/r"] },
      { name: "my ltr", runs: [], model: "ltr" },
    ],
  };
  const maps = (m: Record<string, number>) => new Map(Object.entries(m));
  const pair = (s: typeof spec, m: Record<string, number>) => {
    const p = comparedPair(s, maps(m))!;
    return [p.a, p.b];
  };
  // Two systems of yours: your two best, whatever the baselines score (before: your best
  // against "ltr (kit)").
  assert.deepEqual(
    pair(spec, { mine: 0.5, "my ltr": 0.7, "ltr (kit)": 0.69, "BM25 (kit)": 0.6 }),
    ["my ltr", "mine"],
  );
  assert.deepEqual(
    pair(spec, { mine: 0.8, "my ltr": 0.7, "ltr (kit)": 0.9, "BM25 (kit)": 0.6 }),
    ["mine", "my ltr"],
  );
  // One, scored from ltr: compared with BM25, not "ltr (kit)".
  const one = { systems: [spec.systems[1]] };
  assert.deepEqual(pair(one, { "my ltr": 0.7, "ltr (kit)": 0.69, "BM25 (kit)": 0.6 }), [
    "my ltr",
    "BM25 (kit)",
  ]);
  // Run files: the strongest baseline.
  assert.deepEqual(
    pair({ systems: [spec.systems[0]] }, { mine: 0.8, "ltr (kit)": 0.69, "BM25 (kit)": 0.6 }),
    [
      "mine",
      "ltr (kit)",
    ],
  );
  // The pair given wins.
  assert.deepEqual(
    pair({ ...spec, compare: ["BM25 (kit)", "mine"] } as never, { mine: 0.8, "my ltr": 0.7 }),
    ["BM25 (kit)", "mine"],
  );
  // No system of yours (QRCD runs only): no pair.
  assert.equal(comparedPair({ systems: [] }, maps({ "ltr (kit)": 0.69 })), undefined);
});

Deno.test("the default pair skips a system identical to the best on every question's MAP", () => {
  const q = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
  const values = new Map([
    ["mine", q([1, 0.5, 0])],
    ["mine again", q([1, 0.5, 0])],
    ["other", q([0.5, 0.5, 0])],
    ["BM25 (kit)", q([1, 0.5, 0])],
    ["ltr (kit)", q([0, 0.5, 0.5])],
  ]);
  const same = identicalOn(values, "map");
  const maps = (names: string[]) =>
    new Map(names.map((n) => [n, [...values.get(n)!.values()].reduce((s, r) => s + r.map, 0) / 3]));
  const systems = (...names: string[]) => ({
    systems: names.map((name) => ({ name, runs: ["/r"] })),
  });
  const all = ["mine", "mine again", "other", "BM25 (kit)", "ltr (kit)"];
  // Two runs of yours tie at the top: the next best that differs, and the reason says why.
  const p = comparedPair(systems("mine", "mine again", "other"), maps(all), same)!;
  assert.deepEqual([p.a, p.b], ["mine", "other"]);
  assert.match(p.reason, /next best that is not identical to it on every question \(mine again /);
  // All of yours identical: the strongest baseline that is not identical either (BM25 (kit)
  // is the same run), said so.
  const b = comparedPair(systems("mine", "mine again"), maps(all), same)!;
  assert.deepEqual([b.a, b.b], ["mine", "ltr (kit)"]);
  assert.match(
    b.reason,
    /^your systems are identical on every question by MAP \(mine, mine again\)/,
  );
  // One system, the only baseline identical to it: no pair rather than one with nothing to show.
  assert.equal(
    comparedPair(systems("mine"), maps(["mine", "BM25 (kit)"]), same),
    undefined,
  );
  // Nothing differs at all: the two best, the reason saying no question tells them apart.
  const none = comparedPair(systems("mine", "mine again"), maps(["mine", "mine again"]), same)!;
  assert.deepEqual([none.a, none.b], ["mine", "mine again"]);
  assert.match(none.reason, /identical on every question by MAP .*no question tells them apart/);
});

realDataTest(
  "breakdowns on WikiQA test: the groups partition the questions and average to MAP",
  "wikiqa",
  async (dir) => {
    const split = await loadSplit("wikiqa", "test", { dir });
    const s = await scoreSplit("lexical:bm25", "wikiqa", "test", { filter: "clean", dir });
    const values =
      queryValues(qrelsFromQuestions(split.questions), runFromScores(s.questions, s.scores), [
        "map",
      ], {
        complete: true,
        warn: false,
      }).perQuery;
    const map = [...values.values()].reduce((a, v) => a + v.map, 0) / values.size;
    for (const by of ["type", "candidates"] as const) {
      const rows = breakdownRows(split.questions, new Map([["bm25", values]]), by);
      const n = rows.reduce((a, r) => a + (r.questions as number), 0);
      assert.equal(n, 237, by);
      const weighted = rows.reduce((a, r) =>
        a + (r["bm25: MAP"] as number) * (r.questions as number), 0) / n;
      assert.ok(Math.abs(weighted - map) < 1e-12, `${by}: ${weighted} vs ${map}`);
    }
    const types = breakdownRows(split.questions, new Map([["bm25", values]]), "type");
    assert.equal(types[0]["question type"], "what"); // WikiQA's commonest question word
  },
);
