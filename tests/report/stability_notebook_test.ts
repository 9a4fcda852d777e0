/**
 * Notebooks 9 and 10 on the samples, through the report's runner: every code cell shows exactly
 * one output (each goes through `display`), nothing fails, and the numbers their headlines show
 * are the library's (recomputed here independently of the notebooks' cells; notebook 9's
 * interval of the variance ratio by the closed form of the inverted Pitman–Morgan test). Both
 * follow the lessons' conventions: result cells carry their question, solutions come last.
 */
import assert from "node:assert/strict";
import { executeNotebook } from "../../lib/report/build/execute.ts";
import { HEADLINE_MIME } from "../../lib/report/notebook/headline.ts";
import {
  loadLtrEvaluationSet,
  loadLtrTrainingSet,
  overSeeds,
  trainRanker,
} from "../../lib/scoring/regimes.ts";
import { measureSpreadOverRuns } from "../../lib/stats/seeds.ts";
import { noiseInteraction } from "../../lib/stats/noise_interaction.ts";
import { pairedVarianceTest } from "../../lib/stats/paired_seeds.ts";
import { tQuantile } from "../exercises/brute.ts";

const notebook = (name: string) =>
  new URL(`../../notebooks/${name}.ipynb`, import.meta.url).pathname;

interface Cell {
  cell_type: string;
  source: string | string[];
  metadata?: { tags?: string[]; kit?: { question?: string } };
  outputs?: { output_type: string; data?: Record<string, unknown> }[];
}

/** Runs a notebook on the samples; its code cells, each checked to show one display. */
async function executed(name: string): Promise<Cell[]> {
  const dir = await Deno.makeTempDir();
  try {
    const source = JSON.parse(await Deno.readTextFile(notebook(name))) as { cells: Cell[] };
    // the committed notebook holds sources only
    for (const c of source.cells) assert.ok(!c.outputs?.length, "no outputs committed");
    await executeNotebook(notebook(name), `${dir}/out.ipynb`, { data: "sample", backend: "cpu" });
    const cells = (JSON.parse(await Deno.readTextFile(`${dir}/out.ipynb`)) as { cells: Cell[] })
      .cells.filter((c) => c.cell_type === "code");
    for (const [i, c] of cells.entries()) {
      const kinds = (c.outputs ?? []).map((o) => o.output_type);
      assert.equal(kinds.length, 1, `${name} code cell ${i}: outputs ${kinds.join(", ")}`);
      assert.notEqual(kinds[0], "error");
      assert.notEqual(kinds[0], "stream", `${name} code cell ${i} printed instead of displaying`);
    }
    return cells;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The entries of the one headline a notebook shows. */
function headlineOf(cells: Cell[]): Record<string, string> {
  const shown = cells.flatMap((c) => c.outputs ?? []).filter((o) => o.data?.[HEADLINE_MIME]);
  assert.equal(shown.length, 1, "one headline");
  return Object.fromEntries(
    (shown[0].data![HEADLINE_MIME] as { entries: [string, string][] })
      .entries,
  );
}

/** MAP per seed 1..20 of both regimes at each noise level, trained here. */
async function perSeedMaps(noises: number[]): Promise<Record<string, number[]>> {
  const wiki = await loadLtrTrainingSet("wikiqa", { dir: "samples" });
  const trec = await loadLtrTrainingSet("trecqa", { dir: "samples" });
  const test = await loadLtrEvaluationSet("wikiqa", "test", { dir: "samples" });
  const transferred = trainRanker(trec, { seed: 42 });
  const seeds = Array.from({ length: 20 }, (_, i) => i + 1);
  const perSeed: Record<string, number[]> = {};
  for (const noise of noises) {
    for (
      const [name, init] of [["target only", undefined], [
        "transfer then adapt",
        transferred,
      ]] as const
    ) {
      const runs = overSeeds(name, seeds, (seed) => trainRanker(wiki, { seed, noise, init }), test);
      perSeed[`${name} ${noise}`] = measureSpreadOverRuns(
        runs.results.map((r) => r.perQuery),
        "map",
      ).perRun;
    }
  }
  return perSeed;
}

const f = (v: number) => v.toFixed(4);
const pm = (v: number[]) => {
  const m = v.reduce((a, b) => a + b, 0) / v.length;
  const sd = Math.sqrt(v.reduce((a, x) => a + (x - m) ** 2, 0) / (v.length - 1));
  return `${f(m)} ± ${f(sd)}`;
};

Deno.test("notebooks 9 and 10: result cells ask their question, solutions come last", async () => {
  for (const name of ["09-stability", "10-robustness"]) {
    const cells = (JSON.parse(await Deno.readTextFile(notebook(name))) as { cells: Cell[] }).cells;
    const tags = (c: Cell) => c.metadata?.tags ?? [];
    const first = cells.findIndex((c) => tags(c).includes("solution"));
    assert.ok(first > 0, `${name}: worked solutions`);
    assert.ok(cells.slice(first).every((c) => tags(c).includes("solution")), `${name}: at the end`);
    const exercises = cells.slice(first).filter((c) =>
      c.cell_type === "markdown" && /^### Exercise \d/.test(
        Array.isArray(c.source) ? c.source.join("") : c.source,
      )
    );
    assert.equal(exercises.length, 2, `${name}: one solution per exercise`);
    const results = cells.filter((c) => tags(c).includes("result"));
    assert.ok(results.length >= 2, `${name}: result cells`);
    for (const c of results) assert.ok(c.metadata?.kit?.question, `${name}: a question`);
  }
});

Deno.test("notebook 9 runs on the samples, one output per code cell, the library's numbers", async () => {
  const shown = headlineOf(await executed("09-stability"));
  const maps = await perSeedMaps([0]);
  const [a, b] = [maps["transfer then adapt 0"], maps["target only 0"]];
  assert.equal(shown["target only MAP, mean ± sd over 20 seeds"], pm(b));
  assert.equal(shown["transfer then adapt MAP, mean ± sd over 20 seeds"], pm(a));
  const pmTest = pairedVarianceTest(a, b);
  assert.equal(shown["Pitman–Morgan p (equal variances)"], f(pmTest.p));
  // the 95% interval of the ratio: the ratios Pitman–Morgan does not reject, in closed form
  // F (K ± sqrt(K^2 - 1)) with K = 1 + 2 (1 - r^2) t^2 / (n - 2)
  const t = tQuantile(a.length - 2), r = pmTest.correlation, F = pmTest.ratio;
  const K = 1 + 2 * (1 - r * r) * t * t / (a.length - 2);
  const [lo, hi] = [F * (K - Math.sqrt(K * K - 1)), F * (K + Math.sqrt(K * K - 1))];
  assert.equal(
    shown["variance ratio (transfer / target) [95% Pitman–Morgan interval]"],
    `${F.toFixed(2)} [${lo.toFixed(2)}, ${hi.toFixed(2)}]`,
  );
});

Deno.test("notebook 10 runs on the samples, one output per code cell, the library's numbers", async () => {
  const shown = headlineOf(await executed("10-robustness"));
  const perSeed = await perSeedMaps([0, 0.1, 0.2]);
  for (const name of ["target only", "transfer then adapt"]) {
    assert.equal(shown[`${name} MAP, mean ± sd over 20 seeds`], pm(perSeed[`${name} 0`]), name);
    assert.equal(shown[`${name} MAP, 20% noise, mean ± sd`], pm(perSeed[`${name} 0.2`]), name);
  }
  // the robustness test: the difference of the drops at 20% noise, with its interval (at the
  // level of two noisy levels)
  const [, x] = noiseInteraction([0, 0.1, 0.2].map((noise) => ({
    noise,
    a: perSeed[`transfer then adapt ${noise}`],
    b: perSeed[`target only ${noise}`],
  })));
  assert.equal(
    shown["difference of drops (transfer - target), 20% noise [97.5% t interval]"],
    `${f(x.difference.mean)} [${f(x.difference.lower)}, ${f(x.difference.upper)}]`,
  );
  assert.equal(shown["p (20% noise, Bonferroni)"], f(x.pAdjusted));
});
