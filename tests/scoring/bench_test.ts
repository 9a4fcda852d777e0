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
import { anchorUnavailable, runAnchor } from "../../lib/bench/torch_anchor.ts";

Deno.test("bench: one row per backend and batch size, with a positive rate", async () => {
  const rows = await benchScoring({
    backends: ["cpu"],
    batchSizes: [1, 4],
    pairs: 8,
    repeats: 2,
    models: [],
  });
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
  assert.match(table[2], /^\| tiny fixture .* \| cpu \| \d+ \| 1 \| 8 \| /);
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

Deno.test("bench: every backend that runs here by default, the native CPU first; tokens per pair and padded length as the batches are cut; each row against the first", async () => {
  const hasGpu = await hasWebGpu();
  const rows = await benchScoring({ batchSizes: [3], pairs: 6, models: [] });
  // cpu is the native backend (onnxruntime-node): it loads here, under --allow-all
  assert.deepEqual(
    rows.map((r) => r.backend),
    hasGpu ? ["cpu", "wasm", "webgpu"] : ["cpu", "wasm"],
  );
  assert.equal(rows[0].threads, navigator.hardwareConcurrency);
  assert.equal(rows[1].threads, 1);
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
  const wasm = rows.find((r) => r.backend === "wasm")!;
  assert.equal(wasm.paddedLength, padded(1) / 6);
  assert.ok(wasm.maxDiffFromCpu !== null && wasm.maxDiffFromCpu < 1e-4, `${wasm.maxDiffFromCpu}`);
  if (hasGpu) {
    const gpu = rows.find((r) => r.backend === "webgpu")!;
    assert.equal(gpu.paddedLength, padded(8) / 6);
    assert.ok(gpu.maxDiffFromCpu !== null && gpu.maxDiffFromCpu < 1e-4, `${gpu.maxDiffFromCpu}`);
  } else console.log("no WebGPU adapter: only the CPU row is checked");
});

Deno.test("bench: --shape times a generated model of a real shape, built into the cache, beside the PyTorch anchor", async () => {
  const cacheDir = await Deno.makeTempDir();
  const saved = Deno.env.get("OPENBLAS_CORETYPE");
  Deno.env.set("OPENBLAS_CORETYPE", "Haswell");
  try {
    // the anchor's stand-in prints rates of 100 x threads at batch 1, 200 x threads at batch 8
    const fake = new URL("../fixtures/fake-torch/python", import.meta.url).pathname;
    const rows = await benchScoring({
      shapes: ["minilm-l6"],
      backends: ["cpu"],
      batchSizes: [1, 8],
      pairs: 4,
      cacheDir,
      anchor: { python: fake, script: fake, threads: [1, 2] },
    });
    const name = "minilm-l6 (generated, seed 42)";
    assert.deepEqual(rows.map((r) => [r.model, r.backend, r.threads, r.batchSize]), [
      [name, "cpu", navigator.hardwareConcurrency, 1],
      [name, "cpu", navigator.hardwareConcurrency, 8],
      [name, "pytorch", 1, 1],
      [name, "pytorch", 2, 1],
      [name, "pytorch", 1, 8],
      [name, "pytorch", 2, 8],
    ]);
    const [cpu1, cpu8, , torch1, , torch8] = rows;
    // the anchor computes what the kit computed: each batch size's mean padded length
    assert.equal(torch1.tokensPerPair, Math.round(cpu1.paddedLength));
    assert.equal(torch8.tokensPerPair, Math.round(cpu8.paddedLength));
    // each kit row over the best anchor rate at its batch size (2 threads: 200 and 400)
    assert.equal(cpu1.vsPyTorch, cpu1.pairsPerSecond / 200);
    assert.equal(cpu8.vsPyTorch, cpu8.pairsPerSecond / 400);
    assert.equal(rows[2].vsPyTorch, 0.5);
    // OPENBLAS_CORETYPE is removed from the anchor's environment alone; OpenBLAS gets its threads
    assert.match(rows[2].note!, /fake-OPENBLAS_CORETYPE-unset-OPENBLAS_NUM_THREADS-1,/);
    assert.match(rows[3].note!, /fake-OPENBLAS_CORETYPE-unset-OPENBLAS_NUM_THREADS-2,/);
    assert.equal(Deno.env.get("OPENBLAS_CORETYPE"), "Haswell");
    const config = JSON.parse(
      await Deno.readTextFile(`${cacheDir}/models/generated/minilm-l6-seed42/config.json`),
    );
    assert.equal(config.hidden_size, 384);
  } finally {
    if (saved === undefined) Deno.env.delete("OPENBLAS_CORETYPE");
    else Deno.env.set("OPENBLAS_CORETYPE", saved);
    await Deno.remove(cacheDir, { recursive: true });
  }
});

const anchorMissing = await anchorUnavailable();
if (anchorMissing) console.warn(`the real PyTorch anchor test is skipped: ${anchorMissing}`);

Deno.test("bench: the real PyTorch anchor runs the MiniLM-L6 shape at the length asked for", {
  ignore: anchorMissing !== undefined,
}, async () => {
  const run = await runAnchor({}, 1, 9, 4);
  assert.equal(run.parameters, 22_713_601);
  assert.equal(run.threads, 1);
  assert.equal(run.length, 9);
  assert.deepEqual([...run.pairsPerSecond.keys()], [1, 8, 32]);
  for (const rate of run.pairsPerSecond.values()) assert.ok(rate > 0);
});
