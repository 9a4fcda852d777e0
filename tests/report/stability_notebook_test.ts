/**
 * Notebook 9 on the samples, through the report's runner: every code cell shows exactly one
 * output (each goes through `display`), nothing fails, and the numbers it shows are the
 * library's (recomputed here independently of the notebook's cells).
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

const NOTEBOOK = new URL("../../notebooks/09-stability.ipynb", import.meta.url).pathname;

interface Cell {
  cell_type: string;
  source: string | string[];
  outputs?: { output_type: string; data?: Record<string, unknown> }[];
}

Deno.test("notebook 9 runs on the samples, one output per code cell, the library's numbers", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const source = JSON.parse(await Deno.readTextFile(NOTEBOOK)) as { cells: Cell[] };
    // the committed notebook holds sources only
    for (const c of source.cells) assert.ok(!c.outputs?.length, "no outputs committed");
    await executeNotebook(NOTEBOOK, `${dir}/out.ipynb`, { data: "sample", backend: "cpu" });
    const cells = (JSON.parse(await Deno.readTextFile(`${dir}/out.ipynb`)) as { cells: Cell[] })
      .cells.filter((c) => c.cell_type === "code");
    for (const [i, c] of cells.entries()) {
      const kinds = (c.outputs ?? []).map((o) => o.output_type);
      assert.equal(kinds.length, 1, `code cell ${i}: outputs ${kinds.join(", ")}`);
      assert.notEqual(kinds[0], "error");
      assert.notEqual(kinds[0], "stream", `code cell ${i} printed instead of displaying`);
    }
    // the headline: MAP mean ± sd over seeds 1..20 of each regime, clean and 20% noise
    const headline = cells.at(-1)!.outputs![0].data![HEADLINE_MIME] as {
      entries: [string, string][];
    };
    const shown = Object.fromEntries(headline.entries);
    const wiki = await loadLtrTrainingSet("wikiqa", { dir: "samples" });
    const trec = await loadLtrTrainingSet("trecqa", { dir: "samples" });
    const test = await loadLtrEvaluationSet("wikiqa", "test", { dir: "samples" });
    const transferred = trainRanker(trec, { seed: 42 });
    const seeds = Array.from({ length: 20 }, (_, i) => i + 1);
    const perSeed: Record<string, number[]> = {};
    for (const noise of [0, 0.1, 0.2]) {
      for (
        const [name, init] of [["target only", undefined], [
          "transfer then adapt",
          transferred,
        ]] as const
      ) {
        const runs = overSeeds(
          name,
          seeds,
          (seed) => trainRanker(wiki, { seed, noise, init }),
          test,
        );
        const s = measureSpreadOverRuns(runs.results.map((r) => r.perQuery), "map");
        const key = `${name} MAP${noise ? ", 20% noise" : ""}`;
        if (noise !== 0.1) {
          assert.equal(shown[key], `${s.mean.toFixed(4)} ± ${s.sd.toFixed(4)}`, key);
        }
        perSeed[`${name} ${noise}`] = s.perRun;
      }
    }
    // the robustness test: the difference of the drops at 20% noise, with its interval (at the
    // level of two noisy levels)
    const [, x] = noiseInteraction([0, 0.1, 0.2].map((noise) => ({
      noise,
      a: perSeed[`transfer then adapt ${noise}`],
      b: perSeed[`target only ${noise}`],
    })));
    const f = (v: number) => v.toFixed(4);
    assert.equal(
      shown["transfer drops more by, 20% noise"],
      `${f(x.difference.mean)} [${f(x.difference.lower)}, ${f(x.difference.upper)}]`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
