/**
 * The reference runs against brute force: on small random questions, the best run's AP and
 * P@k equal the maximum over every order of the candidates, the worst run's the minimum,
 * and the tied run's expected AP (analyzeTies) the mean over every order.
 */
import "../quick.ts";
import assert from "node:assert/strict";
import type { Question } from "../../lib/data/types.ts";
import { bestRun, evaluate, qrelsFromQuestions, tiedRun, worstRun } from "../../lib/metrics/mod.ts";
import { analyzeTies } from "../../lib/stats/mod.ts";
import { mulberry32 } from "../../lib/stats/random.ts";

function permutations<T>(xs: T[]): T[][] {
  if (xs.length <= 1) return [xs];
  return xs.flatMap((x, i) =>
    permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p])
  );
}

/** AP and P@k of labels in rank order, from the definitions. */
function apOf(labels: number[]): number {
  const rel = labels.filter((l) => l > 0).length;
  let hits = 0, sum = 0;
  labels.forEach((l, i) => {
    if (l > 0) sum += ++hits / (i + 1);
  });
  return rel ? sum / rel : 0;
}
const pAt = (labels: number[], k: number) => labels.slice(0, k).filter((l) => l > 0).length / k;

Deno.test("best, worst and tied runs bound every ranking (brute force over all orders)", () => {
  const random = mulberry32(11);
  for (let t = 0; t < 40; t++) {
    const n = 1 + Math.floor(random() * 6);
    const labels = Array.from({ length: n }, () => (random() < 0.35 ? 1 : 0));
    const question: Question = {
      id: `q${t}`,
      text: "",
      candidates: labels.map((label, i) => ({ id: `d${i}`, text: "", label })),
    };
    const qrels = qrelsFromQuestions([question]);
    const orders = permutations(labels);
    const aps = orders.map(apOf);
    const p5s = orders.map((o) => pAt(o, 5));
    const best = evaluate(qrels, bestRun([question]), ["map", "P.5"]).summary;
    const worst = evaluate(qrels, worstRun([question]), ["map", "P.5"]).summary;
    const close = (a: number, b: number) => Math.abs(a - b) < 1e-12;
    assert.ok(close(best.map, Math.max(...aps)), `best AP ${labels}`);
    assert.ok(close(worst.map, Math.min(...aps)), `worst AP ${labels}`);
    assert.ok(close(best.P_5, Math.max(...p5s)) && close(worst.P_5, Math.min(...p5s)));
    const mean = aps.reduce((a, b) => a + b, 0) / aps.length;
    assert.ok(close(analyzeTies(qrels, tiedRun([question])).map.expected, mean), `mean ${labels}`);
    // Five candidates or fewer: P@5 cannot see the ranking.
    if (n <= 5) assert.equal(best.P_5, worst.P_5);
  }
});
