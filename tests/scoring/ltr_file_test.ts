import "../quick.ts";
import assert from "node:assert/strict";
import { loadSplit } from "../../lib/data/mod.ts";
import { KitError } from "../../lib/errors.ts";
import { ltrExamples, scoreLtrExamples, trainLtr } from "../../lib/scoring/ltr.ts";
import {
  formatLtrModel,
  LTR_MODEL_FORMAT,
  parseLtrModel,
  readLtrModel,
  writeLtrModel,
} from "../../lib/scoring/ltr_file.ts";

async function sampleModel() {
  const train = await loadSplit("wikiqa", "train", { filter: "no-all", dir: "samples" });
  return trainLtr(train.questions, { seed: 7 });
}

Deno.test("a saved model reloads exactly and scores bit for bit the same", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const model = await sampleModel();
    await writeLtrModel(`${dir}/m.json`, model);
    const back = await readLtrModel(`${dir}/m.json`);
    assert.deepEqual(back, model);
    const { questions } = await loadSplit("wikiqa", "test", { filter: "clean", dir: "samples" });
    const ex = ltrExamples(questions);
    assert.deepEqual(scoreLtrExamples(back, ex), scoreLtrExamples(model, ex));
    const json = JSON.parse(await Deno.readTextFile(`${dir}/m.json`));
    assert.equal(json.format, LTR_MODEL_FORMAT);
    assert.equal(json.version, 1);
    assert.equal(json.stages.length, 1);
    // never replaced without force; replaced with it
    await assert.rejects(writeLtrModel(`${dir}/m.json`, model), /existing file/);
    await writeLtrModel(`${dir}/m.json`, { ...model, bias: 1 }, { force: true });
    assert.equal((await readLtrModel(`${dir}/m.json`)).bias, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a broken model file is refused with its name and the problem", async () => {
  const good = JSON.parse(formatLtrModel(await sampleModel()));
  const cases: [unknown, RegExp][] = [
    [{ ...good, format: "something-else" }, /not a qa-eval-kit ranker model/],
    [[1, 2], /not a qa-eval-kit ranker model/],
    [{ ...good, version: 2 }, /version 2 \(this kit reads version 1\)/],
    [{ ...good, weights: good.weights.slice(1) }, /weights must hold 13 numbers/],
    [{ ...good, mean: [...good.mean.slice(1), "x"] }, /mean\[12\] \(is_first\) is not a number/],
    [{ ...good, std: [0, ...good.std.slice(1)] }, /std\[0\] \(wordcnt\) must be positive/],
    [{ ...good, features: ["nope", ...good.features.slice(1)] }, /unknown ranker feature 'nope'/],
    [{ ...good, features: ["bm25", ...good.features.slice(1)] }, /listed twice/],
    [{ ...good, bias: null }, /bias is not a number/],
    [{ ...good, seed: 1.5 }, /seed and trainPairs must be integers/],
    [{ ...good, stages: {} }, /stages must be a list/],
  ];
  for (const [json, message] of cases) {
    assert.throws(
      () => parseLtrModel(JSON.stringify(json), "m.json"),
      (e) => e instanceof KitError && e.file === "m.json" && message.test(e.message),
      String(message),
    );
  }
  assert.throws(() => parseLtrModel("{not json", "m.json"), /m.json: not valid JSON/);
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(readLtrModel(`${dir}/none.json`), /none.json: no such ranker model file/);
    await assert.rejects(
      readLtrModel(dir),
      /is a folder, not a regular file; expected a saved ranker model/,
    );
    await assert.rejects(readLtrModel("/dev/zero"), /zero: is a character device/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
