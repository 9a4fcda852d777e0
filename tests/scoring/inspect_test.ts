import "../quick.ts";
import assert from "node:assert/strict";
import type { Question } from "../../lib/data/types.ts";
import {
  batchPlan,
  loadCrossEncoder,
  ltrTrainer,
  pairSegments,
  pairsOf,
} from "../../lib/scoring/mod.ts";
import { splitByQuery } from "../../lib/stats/mod.ts";
import { DEFAULT_MODEL } from "../../lib/report/notebook/params.ts";

function q(id: string, labels: number[]): Question {
  return {
    id,
    text: `question ${id}`,
    candidates: labels.map((label, i) => ({ id: `${id}-${i}`, text: `c${i}`, label })),
  };
}

Deno.test({
  name: "batch plan: sorted by length, padded to the longest (tiny model, CPU)",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const ce = await loadCrossEncoder(DEFAULT_MODEL, { backend: "cpu", scoreCache: false });
    try {
      const texts = ["a", "a b c d e f", "a b", "a b c d e f g h i j k", "a b c"];
      const pairs = pairsOf([{
        id: "a",
        text: "who",
        candidates: texts.map((text, i) => ({ id: `${i}`, text, label: 0 })),
      }]);
      assert.equal(pairs.length, 5);
      assert.equal(pairsOf([q("x", [0, 0, 0])], 2).length, 2, "limit");
      const lengths = pairs.map((p) =>
        ce.model.tokenizer.encodePair(p.question, p.candidate, ce.model.maxLength).ids.length
      ).sort((x, y) => x - y);
      const plan = batchPlan(ce.model, pairs, 2, 1);
      assert.deepEqual(plan.map((r) => r.pairs), [2, 2, 1]);
      assert.deepEqual(plan.map((r) => r["padded length"]), [lengths[1], lengths[3], lengths[4]]);
      const share = 1 - (lengths[0] + lengths[1]) / (2 * lengths[1]);
      assert.ok(Math.abs((plan[0]["padding share"] as number) - share) < 1e-12);
      assert.equal(
        batchPlan(ce.model, pairs, 8, 8)[0]["padded length"],
        Math.ceil(lengths[4] / 8) * 8,
      );
      // The two segments hold every token of the pair: [CLS] q [SEP] | c [SEP].
      const seg = pairSegments(ce.model, "who wrote it", "she wrote it");
      assert.equal(
        (seg[0].tokens as number) + (seg[1].tokens as number),
        ce.model.tokenizer.encodePair("who wrote it", "she wrote it", ce.model.maxLength).ids
          .length,
      );
    } finally {
      await ce.close();
    }
  },
});

Deno.test("the ranker as a held-out trainer: trained on the slice it is given", async () => {
  const pool = Array.from({ length: 20 }, (_, i) => q(`q${i}`, [1, 0, 0]));
  const split = splitByQuery(pool, { counts: { train: 12, test: 5, validation: 3 }, seed: 1 });
  const scorer = await ltrTrainer(pool)(split.train, {});
  const scores = await scorer(split.test[0]);
  assert.equal(scores.length, 3);
  // Position features: the first candidate is always the correct one here, so it wins.
  assert.ok(scores[0] > scores[1] && scores[0] > scores[2]);
  // Without position features the candidates (same texts, no overlap) are indistinguishable.
  const blind = await ltrTrainer(pool)(split.train, { features: ["wordcnt"] });
  const [a, b, c] = await blind(split.test[0]);
  assert.ok(a === b && b === c);
});
