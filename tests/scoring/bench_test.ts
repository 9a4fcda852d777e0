import assert from "node:assert/strict";
import { benchScoring, cachedCrossEncoders, formatBenchTable } from "../../lib/bench/scoring.ts";

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
