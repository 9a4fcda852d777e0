import assert from "node:assert/strict";
import { scoreCommand } from "../../lib/cli/score.ts";
import { LTR_FLAGS } from "../../lib/cli/ltr_flags.ts";
import { evaluate, qrelsFromQuestions, readRun, runFromScores } from "../../lib/metrics/mod.ts";
import { POSITION_FEATURES, scoreLtrExamples } from "../../lib/scoring/ltr.ts";
import { readLtrModel } from "../../lib/scoring/ltr_file.ts";
import { scoreSplit } from "../../lib/scoring/pipeline.ts";
import {
  evaluateRanker,
  loadLtrEvaluationSet,
  loadLtrTrainingSet,
  overSeeds,
  protocolFeatures,
  trainRanker,
  writeSeedRuns,
} from "../../lib/scoring/regimes.ts";
import { realDataTest } from "../helpers.ts";
import type { PerQueryValues } from "../../lib/stats/compare.ts";
import {
  compareOverRuns,
  measureSpreadOverRuns,
  singleRunComparisons,
} from "../../lib/stats/seeds.ts";
import { varianceRatioTest } from "../../lib/stats/seeds_needed.ts";

const sets = async (dir = "samples") => ({
  source: await loadLtrTrainingSet("trecqa", { dir }),
  target: await loadLtrTrainingSet("wikiqa", { dir }),
  test: await loadLtrEvaluationSet("wikiqa", "test", { dir }),
});

Deno.test("training sets follow the protocol: split, filter and features per dataset", async () => {
  const { source, target, test } = await sets();
  assert.deepEqual([source.split, source.filter], ["train-all", "raw"]);
  assert.deepEqual([target.split, target.filter], ["train", "no-all"]);
  assert.equal(test.filter, "clean");
  for (const f of POSITION_FEATURES) {
    assert.ok(target.features.includes(f) && !source.features.includes(f));
  }
  assert.deepEqual(source.features, protocolFeatures("trecqa"));
  assert.equal(target.examples.source, "wikiqa train no-all");
  // no-all: every question has a correct candidate
  for (const q of target.questions) assert.ok(q.candidates.some((c) => c.label > 0));
});

Deno.test("trainRanker gives scoreSplit's ltr model, and evaluateRanker its MAP", async () => {
  const { target, test } = await sets();
  const model = trainRanker(target, { seed: 5 });
  const viaPipeline = await scoreSplit("ltr", "wikiqa", "test", { seed: 5, dir: "samples" });
  assert.deepEqual(model, viaPipeline.ltrModel);
  const ev = evaluate(
    qrelsFromQuestions(viaPipeline.questions),
    runFromScores(viaPipeline.questions, viaPipeline.scores),
    ["map", "recip_rank"],
  );
  assert.deepEqual(evaluateRanker(model, test).summary, ev.summary);
});

Deno.test("transfer then adapt: two stages, the noise recorded, refusals", async () => {
  const { source, target } = await sets();
  const transferred = trainRanker(source, { seed: 42, epochs: 5 });
  const a = trainRanker(target, { init: transferred, seed: 3, noise: 0.2, epochs: 5 });
  const b = trainRanker(target, { init: transferred, seed: 3, noise: 0.2, epochs: 5 });
  assert.deepEqual(a, b, "deterministic");
  assert.deepEqual(a.stages!.map((s) => s.data), ["trecqa train-all raw", "wikiqa train no-all"]);
  assert.deepEqual(a.stages![1].noise, {
    fraction: 0.2,
    seed: 3,
    flipped: Math.round(0.2 * target.examples.count),
  });
  // the noise seed can differ from the training seed
  const c = trainRanker(target, { init: transferred, seed: 3, noise: 0.2, noiseSeed: 4 });
  assert.equal(c.stages![1].noise!.seed, 4);
  // zero epochs from a model: that model, as it is
  assert.equal(trainRanker(target, { init: transferred, epochs: 0 }), transferred);
  // a WikiQA model has position features, which TREC-QA training must not use
  assert.throws(
    () => trainRanker(source, { init: trainRanker(target, { epochs: 1 }) }),
    /position, inv_position, is_first, which training on trecqa leaves out .*leak labels/,
  );
});

Deno.test("overSeeds: one model and one evaluation per seed", async () => {
  const { target, test } = await sets();
  const runs = overSeeds("target only", [3, 1, 2], (seed) => trainRanker(target, { seed }), test);
  assert.deepEqual(runs.models.map((m) => m.seed), [3, 1, 2]);
  assert.equal(
    runs.results[1].summary.map,
    evaluateRanker(trainRanker(target, { seed: 1 }), test).summary.map,
  );
  assert.equal(runs.results[0].perQuery.size, test.questions.length);
  assert.throws(() => overSeeds("x", [], () => runs.models[0], test), /no seeds/);
  assert.throws(() => overSeeds("x", [1, 1], () => runs.models[0], test), /repeated/);
});

Deno.test("score --model ltr: transfer, adapt with noise, save and reuse, as the library does", async () => {
  const dir = await Deno.makeTempDir();
  // every call: the learned ranker on the samples; scored calls: WikiQA test (clean)
  const score = (...flags: string[]) =>
    scoreCommand.run(["--model", "ltr", "--dir", "samples", ...flags]);
  const onTest = ["--dataset", "wikiqa", "--split", "test"];
  try {
    const { source, target, test } = await sets();
    // transfer step alone: train on TREC-QA and save, nothing scored
    await score("--dataset", "trecqa", "--save-model", `${dir}/trec.json`);
    assert.deepEqual(await readLtrModel(`${dir}/trec.json`), trainRanker(source));
    // adapt on WikiQA from it, 20% of the labels flipped with seed 3, scored on test clean
    await score(
      ...onTest,
      "--init-model",
      `${dir}/trec.json`,
      "--seed",
      "3",
      "--noise",
      "0.2",
      "--out",
      `${dir}/a.run`,
      "--save-model",
      `${dir}/a.json`,
    );
    const adapted = trainRanker(target, { init: trainRanker(source), seed: 3, noise: 0.2 });
    assert.deepEqual(await readLtrModel(`${dir}/a.json`), adapted);
    const run = await readRun(`${dir}/a.run`);
    const scores = scoreLtrExamples(adapted, test.examples);
    let i = 0;
    for (const q of test.questions) {
      for (const c of q.candidates) {
        const expected = scores[i++];
        assert.ok(Math.abs(run.get(q.id)!.get(c.id)! - expected) <= 1e-6 * Math.abs(expected));
      }
    }
    assert.equal(
      evaluate(test.qrels, run, ["map"]).summary.map,
      evaluateRanker(adapted, test, ["map"]).summary.map,
    );
    // the saved model scores the same with --epochs 0
    await score(
      ...onTest,
      "--init-model",
      `${dir}/a.json`,
      "--epochs",
      "0",
      "--out",
      `${dir}/b.run`,
    );
    assert.deepEqual(await readRun(`${dir}/b.run`), run);
    // train on another dataset than the scored one
    await score(
      ...onTest,
      "--train-dataset",
      "trecqa",
      "--save-model",
      `${dir}/c.json`,
      "--out",
      `${dir}/c.run`,
    );
    assert.deepEqual(await readLtrModel(`${dir}/c.json`), trainRanker(source));
    // an existing model file is kept without --force
    await assert.rejects(
      score("--dataset", "trecqa", "--save-model", `${dir}/c.json`),
      /c.json: refusing to overwrite an existing file \(pass --force/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("score: training flag errors", async () => {
  const base = "--dataset wikiqa --split test --dir samples --out /nonexistent/x.run".split(" ");
  const cases: [string[], RegExp][] = [
    [["--model", "lexical:bm25", "--noise", "0.1"], /--noise is an option of --model ltr/],
    [
      ["--model", "lexical:bm25", "--init-model", "m.json"],
      /--init-model is an option of --model ltr/,
    ],
    [["--model", "ltr", "--noise", "1.5"], /--noise takes a share of labels between 0 and 1/],
    [["--model", "ltr", "--noise", "ten"], /--noise takes a share/],
    [["--model", "ltr", "--noise-seed=-1"], /--noise-seed takes a non-negative integer/],
    [["--model", "ltr", "--epochs", "2.5"], /--epochs takes a non-negative integer/],
    [["--model", "ltr", "--train-dataset", "squad"], /unknown training dataset 'squad'/],
    [["--model", "ltr", "--train-filter", "dirty"], /unknown training filter 'dirty'/],
    [["--model", "ltr", "--train-split", "nope"], /nope/],
    [
      ["--model", "ltr", "--init-model", "/nonexistent/m.json"],
      /m.json: no such ranker model file/,
    ],
  ];
  for (const [flags, message] of cases) {
    await assert.rejects(scoreCommand.run([...flags, ...base]), message, flags.join(" "));
  }
});

Deno.test("docs/scoring.md documents every ltr training flag", async () => {
  const doc = await Deno.readTextFile(new URL("../../docs/scoring.md", import.meta.url));
  for (const f of LTR_FLAGS) {
    assert.ok(doc.includes(`\`--${f.name}`), `--${f.name} in docs/scoring.md`);
  }
});

Deno.test("writeSeedRuns: one run file per seed, in the folder whatever the name", async () => {
  const folder = await Deno.makeTempDir();
  try {
    const { target, test } = await sets();
    const runs = overSeeds("../my system", [4, 9], (seed) => trainRanker(target, { seed }), test);
    const paths = await writeSeedRuns(runs, test, folder);
    assert.deepEqual(paths, [
      `${folder}/_._my_system-seed4.run`,
      `${folder}/_._my_system-seed9.run`,
    ]);
    for (let i = 0; i < 2; i++) {
      const back = evaluate(test.qrels, await readRun(paths[i]), ["map", "recip_rank"]);
      assert.deepEqual(back.summary, runs.results[i].summary);
    }
    await assert.rejects(writeSeedRuns(runs, test, folder), /existing file/);
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

realDataTest(
  "notebook 10's table in docs/scoring.md: regimes x label noise over seeds 1-20",
  "trecqa",
  async (dir) => {
    const { source, target, test } = await sets(dir);
    const transferred = trainRanker(source, { seed: 42 });
    const seeds = Array.from({ length: 20 }, (_, i) => i + 1);
    // [noise, regime] -> MAP mean, sd; MRR mean, sd (docs/scoring.md)
    const expected: [number, string, number, number, number, number][] = [
      [0, "target only", 0.6876, 0.0035, 0.6999, 0.0038],
      [0, "transfer then adapt", 0.6868, 0.0027, 0.6988, 0.0028],
      [0.1, "target only", 0.6755, 0.0085, 0.6853, 0.0092],
      [0.1, "transfer then adapt", 0.6737, 0.0092, 0.6835, 0.0103],
      [0.2, "target only", 0.6653, 0.0122, 0.6739, 0.0135],
      [0.2, "transfer then adapt", 0.6630, 0.0142, 0.6716, 0.0159],
    ];
    const byNoise = new Map<number, PerQueryValues[][]>();
    for (const [noise, name, map, mapSd, mrr, mrrSd] of expected) {
      const init = name === "target only" ? undefined : transferred;
      const runs = overSeeds(
        name,
        seeds,
        (seed) => trainRanker(target, { seed, noise, init }),
        test,
      );
      const perQuery = runs.results.map((r) => r.perQuery);
      byNoise.set(noise, [...(byNoise.get(noise) ?? []), perQuery]);
      const m = measureSpreadOverRuns(perQuery, "map"),
        r = measureSpreadOverRuns(perQuery, "recip_rank");
      assert.deepEqual(
        [m.mean, m.sd, r.mean, r.sd].map((v) => v.toFixed(4)),
        [map, mapSd, mrr, mrrSd].map((v) => v.toFixed(4)),
        `${name} at ${noise}`,
      );
    }
    const [ft, tanda] = byNoise.get(0)!;
    const f = varianceRatioTest(
      measureSpreadOverRuns(tanda, "map").perRun,
      measureSpreadOverRuns(ft, "map").perRun,
    );
    assert.equal(f.p.toFixed(2), "0.24");
    const p = (noise: number) =>
      compareOverRuns({ a: byNoise.get(noise)![0], b: byNoise.get(noise)![1] }, ["map"]).pairs[0]
        .p!;
    assert.deepEqual([p(0), p(0.1), p(0.2)].map((v) => v.toFixed(3)), ["0.280", "0.005", "0.016"]);
    const picked = singleRunComparisons(tanda, ft, "map", { pairs: "extremes" }).map((c) => c.p);
    assert.deepEqual(picked.map((v) => v.toFixed(4)), ["0.0230", "0.0235"]);
    assert.equal(evaluateRanker(transferred, test).summary.map.toFixed(4), "0.6190");
  },
);
