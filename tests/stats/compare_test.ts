import "../quick.ts";
import assert from "node:assert/strict";
import {
  compareSystems,
  type PerQueryValues,
  toCsv,
  toLatex,
  toMarkdown,
} from "../../lib/stats/compare.ts";
import { pairedTTest } from "../../lib/stats/significance.ts";
import { KitError } from "../../lib/errors.ts";

const perQuery = (ap: number[], rr = ap): PerQueryValues =>
  new Map(ap.map((v, i) => [`q${String(i).padStart(2, "0")}`, { map: v, recip_rank: rr[i] }]));

Deno.test("three systems: exact p-values, Holm correction and marks (hand-worked)", () => {
  // 8 queries, so the randomization test enumerates all 256 sign vectors.
  const strong = perQuery([1, 1, 1, 1, 1, 1, 1, 1]);
  const weak = perQuery([0, 0, 0, 0, 0, 0, 0, 0]);
  const mixed = perQuery([1, 1, 1, 1, 1, 1, 0, 0]);
  const t = compareSystems({ strong, weak, mixed }, ["map"]);
  assert.equal(t.correction, "holm");
  assert.equal(t.numQ, 8);
  const pair = (a: string, b: string) => t.pairs.find((p) => p.a === a && p.b === b)!;
  // strong vs weak: all differences 1 -> only the two constant sign vectors reach 8: 2/256.
  assert.equal(pair("strong", "weak").p, 2 / 256);
  // strong vs mixed: differences 0 x6, 1 x2 -> |sum| 2 needs both signs equal: 2^6 * 2 / 256.
  assert.equal(pair("strong", "mixed").p, 0.5);
  // weak vs mixed: six -1 differences and two 0 -> |sum| 6 when the six signs agree
  // (2 ways) whatever the two zero signs (4 ways): 8 / 256.
  assert.equal(pair("weak", "mixed").p, 8 / 256);
  // Holm over 3: sorted 2/256, 8/256, 0.5 -> 3 * 2/256, 2 * 8/256, 0.5.
  assert.equal(pair("strong", "weak").pAdjusted, 6 / 256);
  assert.equal(pair("weak", "mixed").pAdjusted, 16 / 256);
  assert.equal(pair("strong", "mixed").pAdjusted, 0.5);
  assert.deepEqual(t.cells.strong.map.betterThan, ["b"]);
  // 0.03125 alone would be significant at 0.05; after Holm (0.0625) it is not.
  assert.deepEqual(t.cells.mixed.map.betterThan, []);
  const uncorrected = compareSystems({ strong, weak, mixed }, ["map"], { correction: "none" });
  assert.deepEqual(uncorrected.cells.mixed.map.betterThan, ["b"]);
  assert.deepEqual(t.cells.weak.map.betterThan, []);
  assert.equal(t.cells.mixed.map.mean, 0.75);
});

Deno.test("t-test option gives the paired t-test p-values; two systems: no correction", () => {
  const a = perQuery([0.6, 0.7, 0.5, 0.9, 0.4]);
  const b = perQuery([0.5, 0.5, 0.5, 0.6, 0.3]);
  const t = compareSystems(new Map([["a", a], ["b", b]]), ["map"], { test: "ttest" });
  assert.equal(t.correction, "none");
  const expected = pairedTTest([0.6, 0.7, 0.5, 0.9, 0.4], [0.5, 0.5, 0.5, 0.6, 0.3]).p;
  assert.equal(t.pairs[0].p, expected);
  assert.equal(t.pairs[0].pAdjusted, expected);
  assert.equal(t.pairs[0].significant, false); // p ~ 0.052
});

Deno.test("pairing is by query id, not by insertion order", () => {
  const a = new Map([["q1", { map: 1 }], ["q2", { map: 0 }], ["q3", { map: 1 }]]);
  const b = new Map([["q3", { map: 1 }], ["q1", { map: 1 }], ["q2", { map: 0 }]]);
  const t = compareSystems({ a, b }, ["map"]);
  assert.equal(t.pairs[0].meanDifference, 0);
  // Paired by id, the two are the same on every query: no test, no p.
  assert.deepEqual([t.pairs[0].identical, t.pairs[0].p, t.pairs[0].pAdjusted], [true, null, null]);
});

Deno.test("different query sets are an error unless intersection is asked for", () => {
  const a = perQuery([1, 0, 1]);
  const b = new Map([...perQuery([1, 0, 1])].slice(0, 2));
  assert.throws(() => compareSystems({ a, b }, ["map"]), KitError);
  assert.equal(compareSystems({ a, b }, ["map"], { queries: "intersection" }).numQ, 2);
  assert.throws(() => compareSystems({ a }, ["map"]), KitError);
  assert.throws(() => compareSystems({ a, b: a }, ["ndcg"]), KitError);
});

Deno.test("exports: Markdown, LaTeX, CSV carry the same numbers", () => {
  const strong = perQuery([1, 1, 1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1, 0.5]);
  const weak_1 = perQuery([0, 0, 0, 0, 0, 0, 0, 0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5]);
  const t = compareSystems({ strong, weak_1 }, ["map", "recip_rank"], {
    bootstrap: { samples: 500 },
  });
  const md = toMarkdown(t);
  assert.match(md, /\| a \| strong \| \*\*1\.0000\*\* \[1\.0000, 1\.0000\]<sup>b<\/sup> \|/);
  // The difference with its paired interval (every difference is 1: the point 1).
  assert.match(
    md,
    /\| MAP \| strong \| weak\\_1 \| 1\.0000 \| \[1\.0000, 1\.0000\] \| 0\.0078 \| 0\.0078 \| yes \|/,
  );
  assert.ok(md.startsWith("| | system | MAP | MRR |"));
  const tex = toLatex(t, { pValues: true });
  assert.ok(tex.includes("weak\\_1"));
  assert.ok(tex.includes("\\textbf{1.0000}$^{b}$"));
  assert.ok(tex.includes(" & System & MAP & MRR \\\\"));
  assert.ok(tex.includes("MAP = map, MRR = recip\\_rank")); // the caption's legend
  const csv = toCsv(t).trim().split("\n").map((l) => l.split(","));
  assert.deepEqual(csv[0], [
    "measure",
    "label",
    "system",
    "mean",
    "ci_lower",
    "ci_upper",
    "better_than",
    "p_vs_a",
    "p_vs_b",
    "diff_vs_a",
    "diff_lower_vs_a",
    "diff_upper_vs_a",
    "diff_vs_b",
    "diff_lower_vs_b",
    "diff_upper_vs_b",
    "p_raw_vs_a",
    "p_raw_vs_b",
    "identical_to",
  ]);
  assert.equal(csv.length, 5);
  const rrStrong = csv.find((r) => r[0] === "recip_rank" && r[2] === "strong")!;
  assert.equal(Number(rrStrong[3]), 0.9375);
  assert.equal(rrStrong[7], "");
  assert.equal(Number(rrStrong[8]), t.pairs.find((p) => p.measure === "recip_rank")!.pAdjusted);
  assert.equal(Number(rrStrong[16]), t.pairs.find((p) => p.measure === "recip_rank")!.p);
});

/** The exact bootstrap distribution of the mean of `d`: every n^n ordered resample, equally likely. */
function exactBootstrapMeans(d: readonly number[]): number[] {
  const n = d.length;
  const means: number[] = [];
  const idx = new Array(n).fill(0);
  for (;;) {
    means.push(idx.reduce((s, i) => s + d[i], 0) / n);
    let k = 0;
    while (k < n && ++idx[k] === n) idx[k++] = 0;
    if (k === n) return means;
  }
}

Deno.test("paired difference interval: the quantiles of the exact bootstrap distribution (all n^n resamples)", () => {
  // Per-query values of two systems; the differences a - b are 0.5, -0.25, 1, 0, 0.75.
  const a = [1, 0.25, 1, 0.5, 1];
  const b = [0.5, 0.5, 0, 0.5, 0.25];
  const t = compareSystems({ a: perQuery(a), b: perQuery(b) }, ["map"], {
    bootstrap: { samples: 40_000 },
  });
  const pair = t.pairs[0];
  const diffs = a.map((x, i) => x - b[i]);
  const exact = exactBootstrapMeans(diffs); // 3125 resamples
  const below = (x: number) => exact.filter((m) => m < x - 1e-12).length / exact.length;
  const atOrBelow = (x: number) => exact.filter((m) => m <= x + 1e-12).length / exact.length;
  // `lower` is a 2.5% quantile and `upper` a 97.5% quantile of the exact distribution, up to
  // the sampling error of 40,000 resamples (sd of a proportion near 0.025: 0.0008).
  assert.ok(below(pair.ci!.lower) <= 0.025 + 0.004, `P(< lower) = ${below(pair.ci!.lower)}`);
  assert.ok(atOrBelow(pair.ci!.lower) >= 0.025 - 0.004);
  assert.ok(below(pair.ci!.upper) <= 0.975 + 0.004);
  assert.ok(
    atOrBelow(pair.ci!.upper) >= 0.975 - 0.004,
    `P(<= upper) = ${atOrBelow(pair.ci!.upper)}`,
  );
  assert.equal(pair.ci!.mean, pair.meanDifference);
  assert.equal(pair.meanDifference, 0.4);
  assert.match(pair.ci!.method, /^paired percentile bootstrap/);
});

Deno.test("paired difference interval: pairs queries (a constant gain has a zero-width interval)", () => {
  // Each system varies a lot over queries, but a beats b by exactly 0.1 on every query: the
  // paired interval is the point 0.1, while the systems' own intervals overlap widely.
  const b = [0, 0.9, 0.2, 0.6, 0.1, 0.8, 0.3, 0.5];
  const a = b.map((x) => x + 0.1);
  const t = compareSystems({ a: perQuery(a), b: perQuery(b) }, ["map"], {
    bootstrap: { samples: 2000 },
  });
  const ci = t.pairs[0].ci!;
  assert.ok(Math.abs(ci.lower - 0.1) < 1e-12 && Math.abs(ci.upper - 0.1) < 1e-12);
  assert.ok(t.cells.a.map.ci!.lower < t.cells.b.map.ci!.upper); // the unpaired view overlaps
  // Without --bootstrap no interval is computed.
  assert.equal(compareSystems({ a: perQuery(a), b: perQuery(b) }, ["map"]).pairs[0].ci, undefined);
});

Deno.test("paired difference interval in the exports: Markdown column, CSV mirrored per side", () => {
  const a = perQuery([1, 0.5, 1, 0, 1, 1]);
  const b = perQuery([0, 0.5, 1, 0, 0.5, 0]);
  const t = compareSystems({ a, b }, ["map"], { bootstrap: { samples: 1000 } });
  const md = toMarkdown(t);
  assert.match(md, /\| 95% CI \(paired bootstrap\) \|/);
  const ci = t.pairs[0].ci!;
  assert.ok(md.includes(`[${ci.lower.toFixed(4)}, ${ci.upper.toFixed(4)}]`));
  const [head, rowA, rowB] = toCsv(t).trim().split("\n").map((l) => l.split(","));
  const col = (name: string) => head.indexOf(name);
  assert.equal(Number(rowA[col("diff_vs_b")]), t.pairs[0].meanDifference);
  assert.equal(Number(rowA[col("diff_lower_vs_b")]), ci.lower);
  assert.equal(Number(rowB[col("diff_vs_a")]), -t.pairs[0].meanDifference);
  assert.equal(Number(rowB[col("diff_lower_vs_a")]), -ci.upper);
  assert.match(toLatex(t, { pValues: true }), /CI & \$p\$/);
});

Deno.test("exports: a system name with | or LaTeX's special characters keeps its table whole", () => {
  const q = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
  const t = compareSystems({
    "x|y": q([1, 1, 1, 1, 1, 1, 1, 1]),
    "a\\b{c}~^<>&%$#_": q([0, 0, 0, 0, 0, 0, 0, 0]),
  }, [
    "map",
  ]);
  const md = toMarkdown(t);
  for (const line of md.split("\n").filter((l) => l.startsWith("|"))) {
    // Every row of a table has its header's number of cells (an unescaped | adds one).
    const cells = line.replace(/\\\|/g, "").split("|").length;
    assert.ok(cells === 5 || cells === 9, line);
  }
  assert.match(md, /^\| a \| x\\\|y \| \*\*1\.0000\*\*/m);
  // Markdown: every character with a meaning escaped with a backslash (CommonMark's escapes).
  assert.match(md, /\| MAP \| x\\\|y \| a\\\\b\{c\}\\~\^\\<\\>\\&%\\\$\\#\\_ \|/);
  const tex = toLatex(t, { pValues: true });
  assert.match(tex, /^a & x\\textbar\{\}y & /m);
  assert.ok(
    tex.includes(
      "a\\textbackslash{}b\\{c\\}\\textasciitilde{}\\textasciicircum{}\\textless{}\\textgreater{}" +
        "\\&\\%\\$\\#\\_",
    ),
    tex,
  );
  assert.ok(!tex.includes("\\textbackslash\\{\\}"), tex);
});
