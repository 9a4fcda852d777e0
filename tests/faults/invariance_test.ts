/**
 * Reordering the lines of an input file changes nothing that is computed from it (the run
 * file's own shuffle is in tests/metrics/properties_test.ts): qrels lines for the trec_eval
 * evaluator, WikiQA rows for the answer-selection protocol (the qrels built from the
 * questions), and QRCD records for the official scorer's means. Seeded, so CI is deterministic.
 */
import "../quick.ts";
import fc from "fast-check";
import { assert, assertEquals } from "../assert.ts";
import { readWikiQaTsv } from "../../lib/data/mod.ts";
import {
  evaluate,
  evaluateTrecFiles,
  qrelsFromQuestions,
  runFromScores,
} from "../../lib/metrics/mod.ts";
import { evaluateQrcd, loadQrcd, overlapBaseline } from "../../lib/qrcd/mod.ts";
import { mem } from "../helpers.ts";

function shuffle<T>(items: T[], seed: number): T[] {
  let s = seed >>> 0;
  return items.map((x) => [s = (s * 1103515245 + 12345) >>> 0, x] as const)
    .sort((a, b) => a[0] - b[0]).map(([, x]) => x);
}

const MEASURES = ["map", "recip_rank", "P.5", "ndcg_cut.10", "Rprec"];

Deno.test("qrels line order does not change trec_eval results", async () => {
  const qid = fc.constantFrom("q1", "q2", "q3", "q10");
  const doc = fc.constantFrom("a", "b", "c", "d", "e", "d1", "d10");
  const judged = fc.dictionary(qid, fc.dictionary(doc, fc.constantFrom(0, 1, 2), { minKeys: 1 }), {
    minKeys: 1,
  });
  const scored = fc.dictionary(qid, fc.dictionary(doc, fc.constantFrom(0, 1, 2.5, -1)), {
    minKeys: 1,
  });
  await fc.assert(
    fc.asyncProperty(judged, scored, fc.integer(), async (q, r, seed) => {
      const qrelsLines = Object.entries(q).flatMap(([id, d]) =>
        Object.entries(d).map(([docno, rel]) => `${id} 0 ${docno} ${rel}`)
      );
      const runLines = Object.entries(r).flatMap(([id, d]) =>
        Object.entries(d).map(([docno, s]) => `${id} Q0 ${docno} 0 ${s} t`)
      );
      fc.pre(Object.keys(r).some((id) => id in q && Object.keys(r[id]).length > 0));
      const run = mem("run", runLines.join("\n") + "\n");
      const opts = { complete: true, warn: false as const };
      const a = await evaluateTrecFiles(
        mem("q", qrelsLines.join("\n") + "\n"),
        run,
        MEASURES,
        opts,
      );
      const shuffled = shuffle(qrelsLines, seed).join("\n") + "\n";
      const b = await evaluateTrecFiles(mem("q", shuffled), run, MEASURES, opts);
      assertEquals(b.summary, a.summary);
      assertEquals(b.perQuery, a.perQuery);
    }),
    { seed: 41, numRuns: 150 },
  );
});

const HEADER = "QuestionID\tQuestion\tDocumentID\tDocumentTitle\tSentenceID\tSentence\tLabel";

Deno.test("WikiQA row order does not change the protocol's MAP / MRR", async () => {
  const question = fc.record({
    labels: fc.array(fc.constantFrom(0, 1), { minLength: 1, maxLength: 6 }),
    scores: fc.array(fc.constantFrom(0, 0.5, 1, 2), { minLength: 6, maxLength: 6 }),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(question, { minLength: 1, maxLength: 5 }), fc.integer(), async (
      qs,
      seed,
    ) => {
      const rows = qs.flatMap((q, i) =>
        q.labels.map((l, j) => `Q${i}\tq${i}?\tD${i}\tT\tD${i}-${j}\ts ${j}\t${l}`)
      );
      const score = new Map(
        qs.flatMap((q, i) => q.labels.map((_, j) => [`D${i}-${j}`, q.scores[j]])),
      );
      const protocol = async (lines: string[]) => {
        const questions = await readWikiQaTsv(mem("w.tsv", [HEADER, ...lines].join("\n") + "\n"));
        const scores = questions.flatMap((x) => x.candidates.map((c) => score.get(c.id)!));
        const run = runFromScores(questions, scores);
        return evaluate(qrelsFromQuestions(questions), run, ["map", "recip_rank"], {
          complete: true,
          warn: false,
        });
      };
      const a = await protocol(rows);
      const b = await protocol(shuffle(rows, seed));
      assertEquals(b.perQuery, a.perQuery);
      // The means are sums in question order: equal up to floating-point reassociation.
      for (const m of a.measures) {
        assert(
          Math.abs(b.summary[m] - a.summary[m]) < 1e-12,
          `${m}: ${b.summary[m]} vs ${a.summary[m]}`,
        );
      }
    }),
    { seed: 42, numRuns: 150 },
  );
});

Deno.test({
  // Means are summed in trec_eval's sorted query order, so reordering the input cannot change
  // the last bit (it did once: 0.7777777777777777 vs ...78 for three questions).
  name: "means do not depend on question order to the last bit",
  fn() {
    const qrels = new Map([
      ["Q0", new Map([["a", 1]])],
      ["Q1", new Map([["b", 1]])],
      ["Q2", new Map([["c", 1], ["d", 0], ["e", 0]])],
    ]);
    const run = new Map([
      ["Q0", new Map([["a", 0]])],
      ["Q1", new Map([["b", 0]])],
      ["Q2", new Map([["c", 0], ["d", 0], ["e", 0]])],
    ]);
    const reversed = new Map([...qrels].reverse());
    const a = evaluate(qrels, run, ["map"], { complete: true, warn: false }).summary.map;
    const b = evaluate(reversed, new Map([...run].reverse()), ["map"], {
      complete: true,
      warn: false,
    }).summary.map;
    assertEquals(b, a);
  },
});

Deno.test("QRCD record order does not change pRR / EM / F1@1", async () => {
  const path = new URL("../../data/samples/qrcd/qrcd_v1.1_dev.jsonl", import.meta.url).pathname;
  const lines = (await Deno.readTextFile(path)).split("\n").filter((l) => l.trim() !== "");
  const gold = await loadQrcd(path);
  const run = overlapBaseline(gold);
  const base = evaluateQrcd(gold, run);
  await fc.assert(
    fc.asyncProperty(fc.integer(), async (seed) => {
      const shuffled = await loadQrcd(mem("dev.jsonl", shuffle(lines, seed).join("\n") + "\n"));
      const r = evaluateQrcd(shuffled, run);
      // Means are sums in record order: equal up to floating-point reassociation.
      for (const k of ["pRR", "exactMatch", "f1At1"] as const) {
        assertEquals(Math.abs(r[k] - base[k]) < 1e-12, true, `${k}: ${r[k]} vs ${base[k]}`);
      }
      assertEquals(r.records, base.records);
    }),
    { seed: 43, numRuns: 50 },
  );
});
