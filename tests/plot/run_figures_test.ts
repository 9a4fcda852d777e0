/** The figures of systems with several runs: built from lib/stats' numbers, plain Plotly JSON. */
import "../quick.ts";
import assert from "node:assert/strict";
import {
  runningMeanFigure,
  seedSpreadFigure,
  seedStripFigure,
  stabilityFigure,
} from "../../lib/plot/run_figures.ts";
import { runningMeans } from "../../lib/stats/seeds_needed.ts";
import { spreadOverRuns } from "../../lib/stats/stability.ts";

Deno.test("runningMeanFigure: a band and a line per system, the means of runningMeans", () => {
  const fig = runningMeanFigure({ a: [0.7, 0.72, 0.74], b: [0.6, 0.6, 0.61] }, "MAP");
  assert.equal(fig.data.length, 4);
  assert.deepEqual(fig.data[1].x, [1, 2, 3]);
  assert.deepEqual(fig.data[3].y, runningMeans([0.6, 0.6, 0.61]).map((p) => p.mean));
  JSON.stringify(fig);
});

Deno.test("seedSpreadFigure: every run a point, the mean with a sample-sd bar", () => {
  const fig = seedSpreadFigure(
    [
      { name: "target only", x: [0, 10, 20], runs: [[0.7, 0.72], [0.6, 0.66, 0.63], [0.5]] },
      { name: "transfer", x: [0, 10, 20], runs: [[0.71, 0.71], [0.65, 0.65], [0.55, 0.57]] },
    ],
    "MAP",
    "noise (%)",
  );
  assert.equal(fig.data.length, 4);
  assert.equal((fig.data[0].y as number[]).length, 6);
  assert.equal((fig.data[2].y as number[]).length, 6);
  const means = fig.data[1].y as number[];
  assert.ok(Math.abs(means[1] - 0.63) < 1e-12);
  const bars = (fig.data[1].error_y as { array: number[] }).array;
  assert.ok(Math.abs(bars[1] - 0.03) < 1e-12); // sd of 0.60, 0.66, 0.63
  assert.equal(bars[2], 0); // one run: no spread
  // systems side by side, points within half the gap between settings
  const xs = fig.data[0].x as number[];
  for (const x of xs) assert.ok(x > -5 && x < 25);
  assert.ok((fig.data[1].x as number[])[0] < (fig.data[3].x as number[])[0]);
  assert.throws(() => seedSpreadFigure([], "MAP", "x"), /no series/);
  assert.throws(
    () => seedSpreadFigure([{ name: "a", x: [0], runs: [] }], "MAP", "x"),
    /1 settings, 0 run lists/,
  );
});

Deno.test("seedStripFigure: one column per system, runs as points, mean with its sd", () => {
  const fig = seedStripFigure({ a: [0.7, 0.72, 0.74], b: [0.6] }, "MAP");
  assert.equal(fig.data.length, 4);
  const xs = fig.data[0].x as number[];
  assert.ok(xs.every((x) => Math.abs(x) <= 0.2));
  assert.ok(Math.abs((fig.data[1].y as number[])[0] - 0.72) < 1e-12);
  assert.ok(Math.abs((fig.data[1].error_y as { array: number[] }).array[0] - 0.02) < 1e-12);
  assert.deepEqual((fig.layout.xaxis as { ticktext: string[] }).ticktext, ["a", "b"]);
  assert.deepEqual(fig.data[2].x, [1]);
  assert.throws(() => seedStripFigure({}, "MAP"), /no system/);
});

Deno.test("stability figure: one box per system with every run", () => {
  const fig = stabilityFigure({
    a: spreadOverRuns([[0.9], [0.91]]),
    b: spreadOverRuns([[0.7], [0.9]], { threshold: 0.05 }),
  }, "MAP");
  assert.equal(fig.data.length, 2);
  assert.deepEqual(fig.data[0].y, [0.9, 0.91]);
  assert.equal(fig.data[1].name, "b (unstable)");
  JSON.stringify(fig); // plain data
});
