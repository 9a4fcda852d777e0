import "../quick.ts";
import assert from "node:assert/strict";
import { loadSplit } from "../../lib/data/mod.ts";
import { KitError } from "../../lib/errors.ts";
import { ltrExamples } from "../../lib/scoring/ltr.ts";
import { addLabelNoise, noisyIndexes } from "../../lib/scoring/noise.ts";

Deno.test("noise flips exactly round(p * n) distinct labels (halves up)", () => {
  // [n, p, expected]: hand-rounded
  const cases: [number, number, number][] = [
    [8672, 0.1, 867], // 867.2
    [8672, 0.2, 1734], // 1734.4
    [10, 0.15, 2], // 1.5 -> 2
    [5, 0.5, 3], // 2.5 -> 3
    [3, 0.1, 0], // 0.3 -> 0
    [7, 0, 0],
    [7, 1, 7],
    [0, 0.2, 0],
  ];
  for (const [n, p, k] of cases) {
    for (const seed of [0, 1, 42]) {
      const idx = noisyIndexes(n, p, seed);
      assert.equal(idx.length, k, `${n} ${p}`);
      assert.equal(new Set(idx).size, k);
      for (let i = 0; i < idx.length; i++) {
        assert.ok(idx[i] < n);
        if (i) assert.ok(idx[i] > idx[i - 1], "increasing");
      }
    }
  }
  assert.deepEqual([...noisyIndexes(7, 1, 3)], [0, 1, 2, 3, 4, 5, 6]);
});

Deno.test("noise is deterministic per seed, differs across seeds, and is uniform", () => {
  assert.deepEqual(noisyIndexes(1000, 0.2, 5), noisyIndexes(1000, 0.2, 5));
  assert.notDeepEqual(noisyIndexes(1000, 0.2, 5), noisyIndexes(1000, 0.2, 6));
  // every index is chosen with probability p: 4000 seeds, 5 of 20 each -> 1000 per index
  // expected (sd about 27); deterministic seeds, so the bound cannot flake
  const hits = new Array(20).fill(0);
  for (let seed = 0; seed < 4000; seed++) for (const i of noisyIndexes(20, 0.25, seed)) hits[i]++;
  for (const h of hits) assert.ok(h > 880 && h < 1120, `index chosen ${h} times`);
});

Deno.test("addLabelNoise flips the chosen labels and only those; the input stays", async () => {
  const { questions } = await loadSplit("wikiqa", "train", { filter: "no-all", dir: "samples" });
  const ex = ltrExamples(questions, { source: "wikiqa train no-all" });
  const before = ex.labels.slice();
  const noisy = addLabelNoise(ex, 0.1, 9);
  const chosen = new Set(noisyIndexes(ex.count, 0.1, 9));
  assert.equal(chosen.size, Math.round(0.1 * ex.count));
  for (let i = 0; i < ex.count; i++) {
    assert.equal(noisy.labels[i], chosen.has(i) ? 1 - before[i] : before[i]);
  }
  assert.deepEqual(ex.labels, before, "input unchanged");
  assert.equal(noisy.x, ex.x, "features shared");
  assert.deepEqual(noisy.noise, { fraction: 0.1, seed: 9, flipped: chosen.size });
  assert.throws(() => addLabelNoise(noisy, 0.1, 1), /already carry label noise/);
});

Deno.test("noise shares outside [0, 1] and bad counts are refused", () => {
  for (const p of [-0.1, 1.01, NaN]) {
    assert.throws(() => noisyIndexes(10, p, 1), KitError);
  }
  assert.throws(() => noisyIndexes(-1, 0.1, 1), /non-negative integer/);
  assert.throws(() => noisyIndexes(2.5, 0.1, 1), /non-negative integer/);
});
