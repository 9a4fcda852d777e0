/**
 * Page 00's tests as a paper cites them: one test per distinct question (systems identical on
 * every question of a measure are one system: their pairs with a third are one test, counted
 * once in m), the family chosen on purpose (`all`, `mine`, `baseline:NAME`) and named at each
 * verdict, every t, df, p, interval and effect size against SciPy; your numbers on a published
 * row's other question set computed, and the published rows' verdicts.
 */
import assert from "node:assert/strict";
import { SAMPLES_DIR } from "../../lib/data/paths.ts";
import { evaluateSystems } from "../../lib/report/systems/report.ts";
import type { SystemsReport } from "../../lib/report/systems/report.ts";
import { familyRows, readingsText } from "../../lib/report/systems/sections/significance.ts";
import { specFromFlags } from "../../lib/report/systems/spec.ts";
import { PUBLISHED_RESULTS, publishedGaps } from "../../lib/report/systems/published.ts";
import { runPython, scipyPython } from "../helpers.ts";

const SAMPLE_RUN = `${SAMPLES_DIR}/runs/wikiqa-test.run`;

/** The sample run with every score negated: a system that ranks the other way. */
async function reversedRun(dir: string): Promise<string> {
  const lines = (await Deno.readTextFile(SAMPLE_RUN)).trim().split("\n").map((l) => {
    const f = l.split(/\s+/);
    return [f[0], f[1], f[2], f[3], String(-Number(f[4])), "reversed"].join(" ");
  });
  await Deno.writeTextFile(`${dir}/reversed.run`, lines.join("\n") + "\n");
  return `${dir}/reversed.run`;
}

/**
 * Brute force, from the per-question values alone: per measure, the number of distinct
 * unordered pairs of value vectors among the pairs asked whose two vectors differ.
 */
function distinctTests(r: SystemsReport, pairs: [string, string][], measure: string): number {
  const vector = (name: string) => {
    const s = r.systems.find((s) => s.name === name)!;
    return Object.keys(s.perQuery).sort().map((q) => s.perQuery[q][measure].toFixed(12)).join();
  };
  const keys = new Set<string>();
  for (const [a, b] of pairs) {
    const [x, y] = [vector(a), vector(b)];
    if (x !== y) keys.add([x, y].sort().join("|"));
  }
  return keys.size;
}

async function abc(dir: string, family?: string): Promise<SystemsReport> {
  return await evaluateSystems({
    data: "sample",
    systems: [
      { name: "a", model: "lexical:bm25" }, // the kit's BM25 under another name
      { name: "b", runs: [SAMPLE_RUN] },
      { name: "c", runs: [await reversedRun(dir)] },
    ],
    ...(family ? { family } : {}),
  }, { bootstrapSamples: 100, log: () => {} });
}

Deno.test("family all: m counts distinct tests; adjusted p = min(1, m p); SciPy agrees on t, df, p, interval, d_z", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const r = await abc(dir);
    const f = r.family!;
    assert.equal(f.choice, "all");
    const users = ["a", "b", "c"], baselines = ["BM25 (kit)", "ltr (kit)"];
    const asked: [string, string][] = [
      ["a", "b"],
      ["a", "c"],
      ["b", "c"],
      ...users.flatMap((u) => baselines.map((b): [string, string] => [u, b])),
    ];
    assert.deepEqual(f.pairs, asked);
    for (const m of f.measures) {
      assert.equal(f.sizes[m], distinctTests(r, asked, m), m);
      assert.equal(f.tests.filter((t) => t.measure === m).length, f.sizes[m], m);
    }
    // a is the kit's BM25: on MAP their pair is identical and a – b, BM25 (kit) – b are one test.
    assert.ok(f.identical.some((t) => t.measure === "map" && t.a === "a" && t.b === "BM25 (kit)"));
    const ab = f.tests.find((t) => t.measure === "map" && t.a === "a" && t.b === "b")!;
    assert.deepEqual(ab.same, [["BM25 (kit)", "b"]]);
    for (const t of f.tests) assert.equal(t.pAdjusted, Math.min(1, f.sizes[t.measure] * t.p));
    // Every verdict row names its family and m.
    for (const row of familyRows(r)) {
      const measure = r.measures.find((m) => m.label === row.measure)!.name;
      assert.deepEqual([row.family, row.m], ["all", f.sizes[measure]]);
    }
    const python = scipyPython();
    if (!python) {
      console.error("no python3 with SciPy: the tests checked without it");
      return;
    }
    const value = (name: string, m: string) => {
      const s = r.systems.find((s) => s.name === name)!;
      return Object.keys(s.perQuery).sort().map((q) => s.perQuery[q][m]);
    };
    const cases = f.tests.map((t) => ({
      a: value(t.a, t.measure),
      b: value(t.b, t.measure),
      level: 1 - f.alpha / f.sizes[t.measure],
    }));
    const scipy = await runPython(
      python,
      `import json, sys, numpy as np
from scipy import stats
out = []
for c in json.load(sys.stdin):
    r = stats.ttest_rel(c["a"], c["b"])
    ci = r.confidence_interval(c["level"])
    d = np.array(c["a"]) - np.array(c["b"])
    out.append([float(r.statistic), float(r.df), float(r.pvalue), float(ci.low), float(ci.high),
                float(d.mean() / d.std(ddof=1))])
print(json.dumps(out))`,
      cases,
    ) as number[][];
    f.tests.forEach((t, i) => {
      const [stat, df, p, low, high, dz] = scipy[i];
      const close = (x: number, y: number, what: string) =>
        assert.ok(Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(y)), `${what}: ${x} vs ${y}`);
      close(t.t, stat, "t");
      assert.equal(t.df, df);
      close(t.p, p, "p");
      close(t.lower, low, "lower");
      close(t.upper, high, "upper");
      close(t.effectSize, dz, "d_z");
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("families mine and baseline:NAME: the pairs and m they state, named at each verdict and on stderr", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cases: [string, [string, string][]][] = [
      ["mine", [["a", "b"], ["a", "c"], ["b", "c"]]],
      ["baseline:BM25 (kit)", [["a", "BM25 (kit)"], ["b", "BM25 (kit)"], ["c", "BM25 (kit)"]]],
      ["baseline:b", [["a", "b"], ["c", "b"]]],
    ];
    for (const [choice, pairs] of cases) {
      const r = await abc(dir, choice);
      const f = r.family!;
      assert.equal(f.choice, choice);
      assert.deepEqual(f.pairs, pairs, choice);
      for (const m of f.measures) assert.equal(f.sizes[m], distinctTests(r, pairs, m), choice);
      for (const row of familyRows(r)) assert.equal(row.family, choice);
    }
    // Said on stderr with its m.
    const lines: string[] = [];
    await evaluateSystems({
      data: "sample",
      systems: [{ name: "b", runs: [SAMPLE_RUN] }],
      family: "baseline:ltr (kit)",
    }, { bootstrapSamples: 50, log: (l) => lines.push(l) });
    assert.ok(
      lines.some((l) =>
        /^the family of tests: each of your systems against ltr \(kit\) \(baseline:ltr \(kit\);/
          .test(l)
      ),
      lines.join("\n"),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--family: checked with the other flags, before anything runs", () => {
  const base = { runs: [`b=${SAMPLE_RUN}`], models: [], data: "sample" as const };
  assert.equal(specFromFlags({ ...base }, "/")!.family, "all");
  assert.equal(specFromFlags({ ...base, family: "mine" }, "/")!.family, "mine");
  assert.throws(
    () => specFromFlags({ ...base, family: "some" }, "/"),
    /all, mine or baseline:NAME|all\|mine\|baseline/,
  );
  assert.throws(
    () => specFromFlags({ ...base, family: "baseline:nobody" }, "/"),
    /--family baseline:nobody: no answer-selection system is named 'nobody' \(the systems: b, BM25 \(kit\), ltr \(kit\)\)/,
  );
  assert.throws(
    () => specFromFlags({ ...base, family: "baseline:BM25 (kit)", baselines: false }, "/"),
    /no answer-selection system is named 'BM25 \(kit\)'/,
  );
  assert.throws(
    () => specFromFlags({ runs: [], models: [], family: "mine" }, "/"),
    /--family is for your systems/,
  );
});

Deno.test("readingsText: another family's different decision in one sentence; none when none changes", () => {
  const base = { family: { choice: "all", description: "all pairs involving your systems" } };
  assert.equal(readingsText({ family: { ...base.family, readings: [] } } as never), "");
  const text = readingsText({
    family: {
      ...base.family,
      readings: [{
        measure: "map",
        a: "x",
        b: "y",
        choice: "mine",
        m: 3,
        pAdjusted: 0.0402,
        significant: true,
      }],
    },
  } as never);
  assert.equal(
    text,
    "The family is chosen before the results are read ('all': all pairs involving your " +
      "systems) and is the one reported; under another family the decision would change: " +
      "x – y would be significant under 'mine' on MAP (m = 3, adjusted p 0.0402).",
  );
});

Deno.test("a published row on another question set: your numbers on it computed, a question the run lacks completed", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // Q304 has one candidate, correct: in no-all (5 questions), not in clean (4).
    const without = (await Deno.readTextFile(SAMPLE_RUN)).split("\n")
      .filter((l) => !l.startsWith("Q304 ")).join("\n");
    await Deno.writeTextFile(`${dir}/without.run`, without);
    const r = await evaluateSystems({
      data: "sample",
      baselines: false,
      systems: [{ name: "full", runs: [SAMPLE_RUN] }, {
        name: "without",
        runs: [`${dir}/without.run`],
      }],
    }, { bootstrapSamples: 50 });
    assert.equal(r.corpus!.questions, 4);
    const [set] = r.published.sets!;
    assert.deepEqual([set.filter, set.questions], ["no-all", 5]);
    const full = set.systems.find((s) => s.name === "full")!;
    const cut = set.systems.find((s) => s.name === "without")!;
    assert.deepEqual([full.completed, cut.completed], [0, 1]);
    // The same numbers as the kit's own page on no-all, another route through the evaluator.
    const noAll = await evaluateSystems({
      data: "sample",
      filter: "no-all",
      baselines: false,
      systems: [{ name: "full", runs: [SAMPLE_RUN] }],
    }, { bootstrapSamples: 50 });
    for (const s of [full, cut]) {
      assert.equal(s.map, noAll.systems[0].mean.map);
      assert.equal(s.mrr, noAll.systems[0].mean.recip_rank);
    }
    // Hand-worked: AP 1, 7/12, 1/3, 1/2 on the clean four, and 1 on Q304.
    assert.ok(Math.abs(full.map - (1 + 7 / 12 + 1 / 3 + 1 / 2 + 1) / 5) < 1e-15);
    // A page on no-all computes the clean rows' set (237 questions on the real corpus) likewise.
    assert.deepEqual(noAll.published.sets!.map((s) => [s.filter, s.questions]), [["clean", 4]]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("published rows: reproduced under half the last printed digit, close to within 0.01, on the row's set", () => {
  const wikiqa = PUBLISHED_RESULTS.filter((r) => r.dataset === "wikiqa");
  const gap = (
    name: string,
    map: number,
    mrr: number,
    on?: Record<string, { map: number; mrr: number }>,
  ) => publishedGaps([{ name, map, mrr, filter: "clean", ...(on ? { on } : {}) }], wikiqa)[0];
  assert.equal(gap("CNN-Cnt repro", 0.652, 0.6652).verdict, "reproduced");
  assert.equal(gap("CNN-Cnt repro", 0.65204, 0.66516).verdict, "reproduced");
  assert.equal(gap("CNN-Cnt repro", 0.65206, 0.6652).verdict, "close");
  assert.equal(gap("CNN-Cnt repro", 0.64, 0.6652).verdict, "differs");
  assert.match(
    gap("CNN-Cnt repro", 0.65206, 0.6652).explanation,
    /^close to \(within 0\.01\), not equal to/,
  );
  // TANDA prints 3 decimals, and counts 243 questions: the numbers on that set are used.
  const tanda = gap("TANDA RoBERTa-L mine", 0.5, 0.5, { "no-all": { map: 0.9204, mrr: 0.9334 } });
  assert.deepEqual([tanda.published, tanda.verdict, tanda.questions, tanda.map], [
    "TANDA RoBERTa-L",
    "reproduced",
    243,
    0.9204,
  ]);
  assert.equal(
    gap("TANDA RoBERTa-L", 0.5, 0.5, { "no-all": { map: 0.9206, mrr: 0.933 } }).verdict,
    "close",
  );
  // Without numbers on the row's set, no row is set beside it.
  assert.equal(gap("TANDA RoBERTa-L", 0.92, 0.933), undefined);
  // Numbers alike without the name: never called a reproduction.
  const near = gap("mine", 0.619, 0.6281);
  assert.deepEqual([near.published, near.why], ["CNN", "near"]);
  assert.doesNotMatch(near.explanation, /reproduced/);
  assert.match(near.explanation, /not a claim that it is that system/);
  // A gap of 0 is never "no reason known ... check the split".
  assert.doesNotMatch(gap("CNN-Cnt repro", 0.652, 0.6652).explanation, /no reason known/);
});
