import assert from "node:assert/strict";
import {
  benchPairs,
  benchScoring,
  cachedCrossEncoders,
  FIXTURE_MODEL,
  formatBenchTable,
} from "../../lib/bench/scoring.ts";
import { loadCrossEncoder } from "../../lib/scoring/model/crossencoder.ts";
import { hasWebGpu } from "../../lib/scoring/model/session.ts";

Deno.test("bench: one row per backend and batch size, with a positive rate", async () => {
  const rows = await benchScoring({ backends: ["cpu"], batchSizes: [1, 4], pairs: 8, models: [] });
  assert.deepEqual(rows.map((r) => [r.backend, r.batchSize, r.pairs]), [["cpu", 1, 8], [
    "cpu",
    4,
    8,
  ]]);
  for (const r of rows) {
    assert.ok(r.pairsPerSecond > 0 && Number.isFinite(r.pairsPerSecond));
    assert.ok(Math.abs(r.pairsPerSecond * r.seconds - r.pairs) < 1e-6);
    assert.ok(r.peakRssMiB > 10);
  }
  const table = formatBenchTable(rows).split("\n");
  assert.equal(table.length, 4);
  assert.match(table[2], /^\| tiny fixture .* \| cpu \| 1 \| 8 \| /);
});

Deno.test("bench: cached cross-encoders are complete sequence-classification downloads", async () => {
  const cache = await Deno.makeTempDir();
  try {
    const mk = async (name: string, arch: string, complete: boolean) => {
      const dir = `${cache}/models/${name}/main`;
      await Deno.mkdir(dir, { recursive: true });
      await Deno.writeTextFile(`${dir}/config.json`, JSON.stringify({ architectures: [arch] }));
      if (complete) await Deno.writeTextFile(`${dir}/.complete`, "{}");
      return dir;
    };
    const ce = await mk("org--ce", "BertForSequenceClassification", true);
    await mk("org--qa", "BertForQuestionAnswering", true);
    await mk("org--partial", "BertForSequenceClassification", false);
    assert.deepEqual(await cachedCrossEncoders(cache), [ce]);
    assert.deepEqual(await cachedCrossEncoders(`${cache}/nothing`), []);
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("bench: tokens per pair and padded length as the batches are cut; WebGPU rows against CPU", async () => {
  const hasGpu = await hasWebGpu();
  const rows = await benchScoring({
    backends: hasGpu ? ["webgpu", "cpu"] : ["cpu"],
    batchSizes: [3],
    pairs: 6,
    models: [],
  });
  // the same pairs, tokenized here: 6 pairs sorted by length, two batches of 3
  const pairs = await benchPairs(6);
  const ce = await loadCrossEncoder(FIXTURE_MODEL, { backend: "cpu", scoreCache: false });
  const lengths = pairs.map((p) =>
    ce.model.tokenizer.encodePair(p.question, p.candidate, ce.model.maxLength).ids.length
  ).sort((a, b) => a - b);
  await ce.close();
  const tokens = lengths.reduce((a, b) => a + b, 0);
  const padded = (multiple: number) =>
    [lengths[2], lengths[5]].reduce((n, l) => n + 3 * Math.ceil(l / multiple) * multiple, 0);
  const cpu = rows.find((r) => r.backend === "cpu")!;
  assert.equal(rows[0].backend, "cpu"); // CPU is timed first
  assert.equal(cpu.tokensPerPair, tokens / 6);
  assert.equal(cpu.paddedLength, padded(1) / 6);
  assert.ok(Math.abs(cpu.tokensPerSecond * cpu.seconds - tokens) < 1e-6);
  assert.equal(cpu.maxDiffFromCpu, null);
  if (hasGpu) {
    const gpu = rows.find((r) => r.backend === "webgpu")!;
    assert.equal(gpu.paddedLength, padded(8) / 6);
    assert.ok(gpu.maxDiffFromCpu !== null && gpu.maxDiffFromCpu < 1e-4, `${gpu.maxDiffFromCpu}`);
  } else console.log("no WebGPU adapter: only the CPU row is checked");
});

Deno.test("bench: --shape times a generated model of a real shape, built into the cache", async () => {
  const cacheDir = await Deno.makeTempDir();
  try {
    const rows = await benchScoring({
      shapes: ["minilm-l6"],
      backends: ["cpu"],
      batchSizes: [2],
      pairs: 2,
      cacheDir,
    });
    assert.deepEqual(rows.map((r) => [r.model, r.backend, r.batchSize]), [
      ["minilm-l6 (generated, seed 42)", "cpu", 2],
    ]);
    const config = JSON.parse(
      await Deno.readTextFile(`${cacheDir}/models/generated/minilm-l6-seed42/config.json`),
    );
    assert.equal(config.hidden_size, 384);
  } finally {
    await Deno.remove(cacheDir, { recursive: true });
  }
});
