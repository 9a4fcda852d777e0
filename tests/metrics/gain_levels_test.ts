/**
 * The ndcg family's gain levels (`gainLevels`): levels with gaps, named gains (integer and
 * fractional), against trec_eval 9.0.8 itself; and a relevance of 100,000,000, which listed a
 * hundred million levels (minutes, gigabytes) before the integer-gain case left out the levels
 * that change nothing.
 */
import { assert, assertEquals, assertRejects } from "../assert.ts";
import { KitError } from "../../lib/errors.ts";
import { evaluateTrecFiles, formatTrecEval } from "../../lib/metrics/mod.ts";
import { mem } from "../helpers.ts";

const TREC_EVAL = new URL("../../.tools/trec_eval-9.0.8/trec_eval", import.meta.url).pathname;
const built = (() => {
  try {
    return Deno.statSync(TREC_EVAL).isFile;
  } catch {
    if (Deno.env.get("QA_KIT_REQUIRE_TREC_EVAL") === "1") throw new Error("trec_eval not built");
    return false;
  }
})();

// trec_eval evaluates one instance per measure (the first given with parameters, else the plain
// one), so the plain measures and each kind of named gains go in separate calls: integer,
// negative (the ideal walk's top from a level nobody judges), not an integer (trec_eval's full
// list of levels).
const MEASURE_SETS = [
  ["ndcg", "G", "ndcg_rel", "Rndcg", "ndcg_cut.5"],
  ["ndcg.1=3,2=9", "G.9=20", "ndcg_rel.1=2", "Rndcg.5=7"],
  ["ndcg.5=-1,9=2,40=1", "G.1=-2,5=-1", "Rndcg.1=-3,2=-2,5=-1,9=-4,40=-5"],
  ["ndcg.2=2.5,9=0.4", "G.5=1.5", "ndcg_rel.9=0.4", "Rndcg.2=2.5,40=0.5"],
];

Deno.test({
  name: "gain levels with gaps and named gains give trec_eval 9.0.8's values",
  ignore: !built,
  async fn() {
    let seed = 26;
    // (The high bits of a linear congruential generator: its low bits cycle.)
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) >>> 16) % n;
    const rels = [-1, 0, 0, 1, 2, 5, 9, 40];
    const dir = await Deno.makeTempDir();
    let compared = 0;
    for (let trial = 0; trial < 40; trial++) {
      let qrels = "", run = "";
      for (const q of ["1", "2", "3"]) {
        for (let d = 0; d < 12; d++) {
          if (next(3) > 0) qrels += `${q} 0 d${d} ${rels[next(rels.length)]}\n`;
          if (next(4) > 0) run += `${q} Q0 d${d} 1 ${next(5)} r\n`;
        }
      }
      if (!run) continue;
      await Deno.writeTextFile(`${dir}/q`, qrels);
      await Deno.writeTextFile(`${dir}/r`, run);
      for (const measures of MEASURE_SETS) {
        const args = ["-q", ...measures.flatMap((m) => ["-m", m]), `${dir}/q`, `${dir}/r`];
        const want = await new Deno.Command(TREC_EVAL, { args, stdout: "piped" }).output();
        // (trec_eval refuses G when a query has no judgment >= 0, where the kit gives 0: left.)
        if (!want.success) continue;
        const got = await evaluateTrecFiles(`${dir}/q`, `${dir}/r`, measures, { warn: false });
        const text = formatTrecEval(got, { perQuery: true });
        assertEquals(text, new TextDecoder().decode(want.stdout));
        compared++;
      }
    }
    assert(compared >= 120, `only ${compared} cases compared`);
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test("a relevance of 100,000,000: the ndcg family by hand, without listing every level", async () => {
  // One relevant document retrieved first of two: every nDCG is 1, and so is G (the gain over
  // the ideal's). trec_eval 9.0.8 itself did not finish in a minute on these two lines.
  const qrels = () => mem("qrels", "q 0 a 100000000\nq 0 b 0\n");
  const run = () => mem("run", "q Q0 a 1 2 r\nq Q0 b 2 1 r\n");
  const got = await evaluateTrecFiles(qrels(), run(), ["ndcg", "ndcg_rel", "Rndcg", "G"]);
  assertEquals(got.summary, { ndcg: 1, ndcg_rel: 1, Rndcg: 1, G: 1 });
  const named = await evaluateTrecFiles(qrels(), run(), ["ndcg.100000000=3,5=2"]);
  assertEquals(named.summary, { "ndcg_100000000=3,5=2": 1 });
});

Deno.test("a gain that is not an integer with a relevance of 2,147,483,647 is refused, saying why", async () => {
  const e = await assertRejects(
    () =>
      evaluateTrecFiles(
        mem("qrels", "q 0 a 2147483647\n"),
        mem("run", "q Q0 a 1 1 r\n"),
        ["ndcg.1=2.5"],
      ),
    /a gain that is not an integer \(1=2\.5\) takes every relevance level/,
  );
  assert(e instanceof KitError);
});
