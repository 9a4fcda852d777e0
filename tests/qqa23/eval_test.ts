/**
 * Qur'an QA 2023 Task A evaluation: each rule of the official scorer worked by hand, a brute-force
 * reference on random runs, ties, numpy's summation, the checker's refusals (each names the line,
 * the question and the rule), bad qrels, abstention, and the command as users run it.
 */
import assert from "node:assert/strict";
import {
  abstain,
  abstentionSweep,
  checkQqa23FileName,
  evaluateQqa23,
  numpyMean,
  numpyPairwiseSum,
  parseQqa23Qrels,
  parseQqa23Run,
  pickThreshold,
  qqa23RunWarnings,
  readQqa23Qrels,
  readQqa23Run,
  sweepThresholds,
} from "../../lib/qqa23/mod.ts";
import { KitError } from "../../lib/errors.ts";
import { mulberry32, type Random, randomInt } from "../../lib/stats/random.ts";
import { mem, runCli } from "../helpers.ts";

/** The worked example of docs/qqa23.md. */
const DOC_QRELS = [
  "101\t0\t2:1-5\t1",
  "101\t0\t2:6-10\t1",
  "102\t0\t3:1-4\t1",
  "103\t0\t-1\t1",
  "104\t0\t-1\t1",
].join("\n") + "\n";
const DOC_RUN = [
  "101\tQ0\t7:1-3\t1\t0.9\trun1",
  "101\tQ0\t-1\t2\t0.85\trun1",
  "101\tQ0\t2:6-10\t3\t0.8\trun1",
  "101\tQ0\t2:1-5\t4\t0.5\trun1",
  "102\tQ0\t-1\t1\t0.3\trun1",
  "103\tQ0\t-1\t1\t0.2\trun1",
].join("\n") + "\n";

/** The KitError `fn` throws (fails when it throws nothing or something else). */
function kitError(fn: () => unknown): KitError {
  try {
    fn();
  } catch (e) {
    if (e instanceof KitError) return e;
    throw e;
  }
  throw new assert.AssertionError({ message: "expected a KitError" });
}

Deno.test("the worked example of docs/qqa23.md: official and complete by hand", () => {
  const r = evaluateQqa23(parseQqa23Qrels(DOC_QRELS), parseQqa23Run(DOC_RUN));
  // 101: 7:1-3, -1, 2:6-10, 2:1-5: relevant at ranks 3 and 4: AP = (1/3 + 2/4) / 2, RR = 1/3.
  const ap101 = (1 / 3 + 2 / 4) / 2;
  assert.deepEqual(
    r.perQuestion.map((q) => [q.qid, q.kind, q.map_cut_10, q.recip_rank, q.weight]),
    [
      ["101", "answered", ap101, 1 / 3, 1],
      ["102", "answered", 0, 0, 1], // -1 alone for a question with answers: 0
      ["103", "zero-answer", 1, 1, 1], // -1 alone: 1
      ["104", "zero-answer", 0, 0, 2], // missing: two zeros officially
    ],
  );
  // Officially [101, 102, 103, 104, 104]; numpy adds fewer than 8 values in a plain loop.
  assert.equal(r.official.map_cut_10, (0 + ap101 + 0 + 1 + 0 + 0) / 5);
  assert.equal(r.official.recip_rank, (0 + 1 / 3 + 0 + 1 + 0 + 0) / 5);
  assert.equal(r.official.numQ, 5);
  assert.equal(r.official.map_cut_10.toFixed(6), "0.283333"); // 17/60
  assert.equal(r.complete.map_cut_10.toFixed(6), "0.354167"); // 17/48
  assert.equal(r.complete.recip_rank.toFixed(6), "0.333333");
  assert.equal(r.complete.numQ, 4);
  assert.deepEqual(r.differences.length, 1);
  assert.match(r.differences[0], /^1 zero-answer question missing from the run counts twice .*104/);
  // Without 102 in the run: left out officially, and the two rules happen to cancel.
  const without = evaluateQqa23(
    parseQqa23Qrels(DOC_QRELS),
    parseQqa23Run(DOC_RUN.replace(/^102.*\n/m, "")),
  );
  assert.equal(without.official.map_cut_10.toFixed(6), "0.354167");
  assert.equal(without.official.numQ, 4);
  assert.equal(without.complete.map_cut_10, r.complete.map_cut_10);
  assert.match(without.differences[1], /^1 question with answers missing .* left out .*102\)$/);
});

Deno.test("zero-answer rule: -1 alone scores 1; -1 with passages, passages, missing score 0", () => {
  const qrels = parseQqa23Qrels("1\t0\t-1\t1\n2\t0\t-1\t1\n3\t0\t-1\t1\n4\t0\t-1\t0\n");
  const run = parseQqa23Run(
    "1 Q0 -1 1 5 t\n2 Q0 -1 1 5 t\n2 Q0 7:1-2 2 4 t\n3 Q0 7:1-2 1 4 t\n",
  );
  const r = evaluateQqa23(qrels, run);
  assert.deepEqual(r.perQuestion.map((q) => [q.qid, q.map_cut_10, q.weight]), [
    ["1", 1, 1],
    ["2", 0, 1],
    ["3", 0, 1],
    ["4", 0, 2], // the relevance of the -1 line does not matter
  ]);
  // The run has lines outside the zero-answer questions? No: but the qrels have no question with
  // answers either, so pandas' empty frames add three zeros (see the next test).
  assert.equal(r.official.numQ, 5 + 3);
  assert.equal(r.complete.numQ, 4);
  assert.equal(r.complete.map_cut_10, 0.25);
});

Deno.test("pandas' empty frames: qrels without answered questions, run without other lines", () => {
  const qrels = parseQqa23Qrels("1\t0\t-1\t1\n2\t0\t-1\t1\n");
  const only = evaluateQqa23(qrels, parseQqa23Run("1\tQ0\t-1\t1\t0\tx\n"));
  // [0, 0, 0 ('qid', 'Q0', 'docid'), 1, 0, 0]: 1/6, as the script prints 0.166667.
  assert.equal(only.official.map_cut_10, 1 / 6);
  assert.equal(only.official.numQ, 6);
  assert.match(only.differences.at(-1)!, /qid, Q0, docid.*adding 3 zeros/);
  // A line for a question the qrels lack makes the run frame non-empty: no phantom zeros.
  const other = evaluateQqa23(qrels, parseQqa23Run("1\tQ0\t-1\t1\t0\tx\n5\tQ0\tA\t1\t0\tx\n"));
  assert.equal(other.official.map_cut_10, 1 / 3);
  assert.deepEqual(other.ignored, ["5"]);
});

Deno.test("answered questions: missing ones left out, unknown ones ignored, -1 a plain passage", () => {
  const qrels = parseQqa23Qrels("1\t0\tA\t1\n1\t0\tB\t1\n2\t0\tC\t1\n3\t0\tD\t1\n");
  const run = parseQqa23Run(
    ["1 Q0 -1 1 0.9 t", "1 Q0 A 2 0.5 t", "9 Q0 A 1 1 t", "3 Q0 D 1 1 t"].join("\n"),
  );
  const r = evaluateQqa23(qrels, run);
  assert.deepEqual(r.perQuestion.map((q) => [q.qid, q.map_cut_10, q.recip_rank, q.weight]), [
    ["1", 0.25, 0.5, 1], // -1 is rank 1, not relevant
    ["2", 0, 0, 0],
    ["3", 1, 1, 1],
  ]);
  assert.equal(r.official.map_cut_10, (0.25 + 1) / 2);
  assert.equal(r.complete.map_cut_10, (0.25 + 0 + 1) / 3);
  assert.deepEqual(r.ignored, ["9"]);
  assert.equal(r.differences.length, 1);
  const warnings = qqa23RunWarnings(run, qrels);
  assert.match(warnings[0], /not judged .* question 9$/);
  assert.match(warnings[1], /question 1 has answers and the run lists -1 among its passages/);
});

Deno.test("AP@10 divides by every relevant passage; -1 is never relevant to a judged question", () => {
  const rel = Array.from({ length: 12 }, (_, i) => `1\t0\tp${i}\t1`).join("\n");
  const lines = Array.from({ length: 10 }, (_, i) => `1 Q0 p${i} ${i + 1} ${20 - i} t`);
  const r = evaluateQqa23(parseQqa23Qrels(rel), parseQqa23Run(lines.join("\n")));
  assert.equal(r.official.map_cut_10, 10 / 12);
  assert.equal(r.official.recip_rank, 1);
});

Deno.test("the official order of values: question ids as text ('10' before '9'), then zero-answer", () => {
  // Ten questions with answers and a zero-answer one: 11 values, so the 8-accumulator sum; the
  // order decides the last bit, and the kit follows pandas' groupby order.
  const ids = ["9", "10", "11", "2", "30", "4", "5", "6", "7", "8"];
  const qrels = parseQqa23Qrels(
    ids.map((q) => `${q}\t0\tA\t1\n${q}\t0\tB\t1\n${q}\t0\tC\t1`).join("\n") + "\n99\t0\t-1\t1\n",
  );
  const run = parseQqa23Run(
    ids.map((q, i) => `${q} Q0 X${i} 1 ${i + 2} t\n${q} Q0 ${"ABC"[i % 3]} 2 1 t`).join("\n"),
  );
  const r = evaluateQqa23(qrels, run);
  assert.deepEqual(
    r.perQuestion.map((q) => q.qid),
    ["10", "11", "2", "30", "4", "5", "6", "7", "8", "9", "99"],
  );
  const values = r.perQuestion.flatMap((q) => Array(q.weight).fill(q.map_cut_10));
  assert.equal(r.official.map_cut_10, numpyMean(values));
});

Deno.test("ties: trec_eval's order (32-bit scores, then the docid descending)", () => {
  const qrels = parseQqa23Qrels("1\t0\tA\t1\n2\t0\tA\t1\n");
  // Question 1: A and Z tie at 0.5: Z (the larger docid) ranks first. Question 2: 0.30000001 and
  // 0.3 are the same 32-bit float, so B outranks A though its score is lower as a double.
  const run = parseQqa23Run(
    "1 Q0 A 1 0.5 t\n1 Q0 Z 2 0.5 t\n2 Q0 A 1 0.30000001 t\n2 Q0 B 2 0.3 t\n",
  );
  const r = evaluateQqa23(qrels, run);
  assert.deepEqual(r.perQuestion.map((q) => q.recip_rank), [0.5, 0.5]);
  // As doubles (trec_eval 10.0's reading) question 2's A ranks first.
  const doubles = evaluateQqa23(qrels, run, { release: "10.0" });
  assert.deepEqual(doubles.perQuestion.map((q) => q.recip_rank), [0.5, 1]);
});

Deno.test("numpyMean: numpy's pairwise summation, bit for bit", () => {
  // np.mean of x_i = ((i * 7919) % 1000) / 997 + 1 / (i + 3), printed by numpy 1.24 (repr).
  const expected: [number, number][] = [
    [5, 0.8584911878492619],
    [8, 0.7719008712645874],
    [13, 0.5782558680849708],
    [127, 0.5279466457125861],
    [128, 0.5294692324179663],
    [129, 0.5303379615690021],
    [300, 0.5179703427132087],
    [1000, 0.5069904768926227],
  ];
  for (const [n, mean] of expected) {
    const xs = Array.from({ length: n }, (_, i) => ((i * 7919) % 1000) / 997 + 1 / (i + 3));
    assert.equal(numpyMean(xs), mean, `n = ${n}`);
  }
  // Below 8 values it is the plain loop; 0.1 ten times sums to exactly 1 (a loop: 0.999...).
  assert.equal(numpyPairwiseSum([0.1, 0.2, 0.3]), 0.1 + 0.2 + 0.3);
  assert.equal(numpyPairwiseSum(Array(10).fill(0.1)), 1);
  assert(Number.isNaN(numpyMean([])));
});

// ---- A brute-force reference: the script's steps written out again, on random data. ----

/** AP@10 and RR of one question as trec_eval 9.0.8 computes them, from scratch. */
function bruteQuestion(
  judged: Map<string, number>,
  lines: { docid: string; score: number }[],
): [number, number] {
  const ranked = [...lines].sort((a, b) => {
    const d = Math.fround(b.score) - Math.fround(a.score);
    if (d !== 0) return d;
    return a.docid < b.docid ? 1 : a.docid > b.docid ? -1 : 0;
  });
  const numRel = [...judged.values()].filter((v) => v >= 1).length;
  let found = 0, sum = 0, rr = 0;
  ranked.slice(0, 10).forEach((l, i) => {
    if ((judged.get(l.docid) ?? 0) >= 1) {
      found++;
      sum += found / (i + 1);
      if (rr === 0) rr = 1 / (i + 1);
    }
  });
  return [numRel ? sum / numRel : 0, rr];
}

/** The script's result, brute force: per question values and the two lists. */
function bruteScript(qrelsText: string, runText: string) {
  const qrelsRows = qrelsText.split("\n").filter((l) => l).map((l) => l.split("\t"));
  const runRows = runText.split("\n").filter((l) => l).map((l) => l.split(/\s+/));
  const zeroIds = qrelsRows.filter((r) => r[2] === "-1").map((r) => r[0]);
  const normalQrels = new Map<string, Map<string, number>>();
  for (const [q, , d, rel] of qrelsRows) {
    if (zeroIds.includes(q)) continue;
    if (!normalQrels.has(q)) normalQrels.set(q, new Map());
    normalQrels.get(q)!.set(d, Number(rel));
  }
  const runBy = new Map<string, { docid: string; score: number }[]>();
  for (const [q, , d, , s] of runRows) {
    if (!runBy.has(q)) runBy.set(q, []);
    runBy.get(q)!.push({ docid: d, score: Number(s) });
  }
  const map: number[] = [], rr: number[] = [];
  for (const q of [...runBy.keys()].sort()) {
    if (zeroIds.includes(q) || !normalQrels.has(q)) continue;
    const [a, r] = bruteQuestion(normalQrels.get(q)!, runBy.get(q)!);
    map.push(a);
    rr.push(r);
  }
  for (const q of zeroIds) {
    const lines = runBy.get(q) ?? [];
    if (!runBy.has(q)) {
      map.push(0);
      rr.push(0);
    }
    const v = lines.length === 1 && lines[0].docid === "-1" ? 1 : 0;
    map.push(v);
    rr.push(v);
  }
  // The complete protocol: every judged question once.
  const complete: number[] = [];
  for (const q of new Set(qrelsRows.map((r) => r[0]))) {
    const lines = runBy.get(q);
    if (zeroIds.includes(q)) complete.push(lines?.length === 1 && lines[0].docid === "-1" ? 1 : 0);
    else complete.push(lines ? bruteQuestion(normalQrels.get(q)!, lines)[0] : 0);
  }
  return { map, rr, complete };
}

const plainMean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Random qrels and a random run over a small collection, with ties and abstentions. */
function randomCase(random: Random): { qrels: string; run: string } {
  const docs = Array.from({ length: 30 }, (_, i) => `${1 + (i % 7)}:${i}-${i + 3}`);
  const qrels: string[] = [], run: string[] = [];
  const n = 3 + randomInt(random, 25);
  for (let q = 1; q <= n; q++) {
    const qid = String(100 + randomInt(random, 900) * 10 + q % 10);
    if (qrels.some((l) => l.startsWith(`${qid}\t`))) continue;
    const zero = random() < 0.25;
    const rel = new Set<string>();
    if (zero) qrels.push(`${qid}\t0\t-1\t1`);
    else {
      for (let k = 1 + randomInt(random, 12); k > 0; k--) rel.add(docs[randomInt(random, 30)]);
      for (const d of rel) qrels.push(`${qid}\t0\t${d}\t${random() < 0.1 ? 0 : 1}`);
    }
    const mode = random();
    if (mode < 0.15) continue; // left out
    if (mode < 0.4) {
      run.push(`${qid} Q0 -1 1 ${randomInt(random, 5)} t`);
      continue;
    }
    const picked = new Set<string>();
    for (let k = 1 + randomInt(random, 10); k > 0; k--) {
      picked.add(
        random() < 0.4 && rel.size
          ? [...rel][randomInt(random, rel.size)]
          : docs[randomInt(random, 30)],
      );
    }
    if (random() < 0.3 && picked.size < 10) picked.add("-1");
    for (const d of picked) {
      const score = random() < 0.5
        ? String(randomInt(random, 4))
        : (randomInt(random, 1000) / 100).toFixed(2);
      run.push(`${qid} Q0 ${d} 1 ${score} t`);
    }
  }
  if (random() < 0.5) run.push(`7 Q0 ${docs[0]} 1 1 t`); // a question the qrels lack
  if (run.length === 0) run.push(`7 Q0 ${docs[0]} 1 1 t`);
  return { qrels: qrels.join("\n") + "\n", run: run.join("\n") + "\n" };
}

Deno.test("brute force: random qrels and runs, every rule of the script written out again", () => {
  const random = mulberry32("qqa23-brute");
  for (let i = 0; i < 300; i++) {
    const c = randomCase(random);
    if (!c.qrels.trim()) continue;
    const kit = evaluateQqa23(parseQqa23Qrels(c.qrels), parseQqa23Run(c.run));
    const brute = bruteScript(c.qrels, c.run);
    const phantom = kit.differences.some((d) => d.includes("empty frames")) ? 3 : 0;
    const values = kit.perQuestion.flatMap((q) => Array(q.weight).fill(q.map_cut_10));
    assert.deepEqual([...Array(phantom).fill(0), ...values], [
      ...Array(phantom).fill(0),
      ...brute.map,
    ], `case ${i}`);
    assert.deepEqual(
      kit.perQuestion.flatMap((q) => Array(q.weight).fill(q.recip_rank)),
      brute.rr,
      `case ${i}`,
    );
    assert(
      Math.abs(kit.official.map_cut_10 - plainMean([...Array(phantom).fill(0), ...brute.map])) <
        1e-12,
    );
    assert(Math.abs(kit.complete.map_cut_10 - plainMean(brute.complete)) < 1e-12, `case ${i}`);
    assert.equal(kit.official.numQ, brute.map.length + phantom);
  }
});

// ---- The checker's refusals: each names the line, the question and the rule. ----

Deno.test("refused: the checker's rules, in its order, each naming the line and the rule", () => {
  const ok = "1\tQ0\tA\t1\t0.5\tt";
  const cases: [string, RegExp, number | undefined][] = [
    [`${ok}\n\n${ok.replace("A", "B")}\n`, /a blank line: Wrong column delimiter/, 2],
    [
      `${ok}\n1 Q0 B 1 0.5 t\n`,
      /Wrong column delimiter: line 2 has no tab and line 1 has no space/,
      2,
    ],
    [
      Array.from({ length: 12 }, (_, i) => `5\tQ0\tD${i}\t1\t1\tt`).join("\n"),
      /question 5: 12 lines, more than the 10 passages .*11th line/,
      11,
    ],
    // The limit comes first, as in the checker, even after a bad line.
    [
      "1\tQ0\tA\t1\n" + Array.from({ length: 11 }, (_, i) => `5\tQ0\tD${i}\t1\t1\tt`).join("\n"),
      /question 5: 11 lines/,
      12,
    ],
    ["1\tQ0\tA\t1\t0.5\n", /Less columns than expected: 5, expected 6/, 1],
    ["1\tQ0\tA\t1\t0.5\tt\textra\n", /More columns than expected: 7/, 1],
    ["1 Q0 A 1 0.5 t \n", /More columns than expected: 7/, 1], // a trailing space
    ["1 Q0  A 1 0.5 t\n", /More columns than expected: 7/, 1], // two spaces
    [`${ok}\n2\tQ0\tA\t1\t1e-3\tt\n`, /question 2: The score is not a float: '1e-3'/, 2],
    ["1\tQ0\tA\t1\t+1\tt\n", /The score is not a float: '\+1'/, 1],
    ["1\tQ0\tA\t1\t.5\tt\n", /The score is not a float: '\.5'/, 1],
    ["1\tQ0\tA\t1\t1.\tt\n", /The score is not a float: '1\.'/, 1],
    ["1\tQ0\tA\t1\tNaN\tt\n", /The score is not a float: 'NaN'/, 1],
    [`${ok}\n${ok}\n`, /Duplication of pair\(question_id=1, doc_id=A\) on lines 1 and 2/, 2],
  ];
  for (const [text, pattern, line] of cases) {
    const e = kitError(() => parseQqa23Run(text, "bigIR_run01.tsv"));
    assert.match(e.message, pattern, JSON.stringify(text));
    assert.equal(e.line, line, JSON.stringify(text));
    assert.equal(e.file, "bigIR_run01.tsv");
  }
});

Deno.test("an empty run passes the checker: read with a warning, every question missing", () => {
  const run = parseQqa23Run("");
  assert.match(run.warnings[0], /an empty run/);
  const r = evaluateQqa23(parseQqa23Qrels(DOC_QRELS), run);
  assert.deepEqual(r.official, { map_cut_10: 0, recip_rank: 0, numQ: 4 }); // 103, 103, 104, 104
  assert.deepEqual(r.complete, { map_cut_10: 0, recip_rank: 0, numQ: 4 });
  // Without a zero-answer question the official mean is numpy's mean of nothing: NaN.
  const none = evaluateQqa23(parseQqa23Qrels("1\t0\tA\t1\n"), run);
  assert(Number.isNaN(none.official.map_cut_10));
  assert.equal(none.complete.map_cut_10, 0);
});

Deno.test("refused: what the checker passes but the scorer (pandas) would read otherwise", () => {
  const cases: [string, RegExp, number][] = [
    ['1\tQ0\tA\t1\t0.5\t"tag\n', /question 1: a '"', which pandas .* reads as a quote/, 1],
    [
      "1 Q0 A 1 0.5 t\tx\n1 Q0 B 1 0.5 t\n",
      /white space other than single spaces .* \(a tab\?\)/,
      1,
    ],
    ["1\tQ0\t\t1\t0.5\tt\n", /question 1: empty docid/, 1],
    ["\tQ0\tA\t1\t0.5\tt\n", /empty qid/, 1],
    ["1\tQ0\tA B\t1\t0.5\tt\n", /docid 'A B' holds white space/, 1],
    ["1\tQ0\tNA\t1\t0.5\tt\n", /docid 'NA' is read by pandas .* missing value/, 1],
    [
      "1\tQ0\tA\t1\t0.5\tt\n01\tQ0\tA\t1\t0.5\tt\n",
      /question 1, passage A: also on line 1 once pandas/,
      2,
    ],
    ["1\tQ0\tA\t1\t0.5\tt\n1.5\tQ0\tA\t1\t0.5\tt\n", /qid '1\.5'.*decimal numbers/, 2],
    ["1\tQ0\tA\t1\t0.5\tt\r2\tQ0\tA\t1\t0.5\tt\n", /carriage return inside the line/, 1],
    [
      "1\tQ0\tA\t1\t1\tt\n2\tQ0\tA\t1\t-99999999999999999999\tt\n",
      /question 2: score -99999999999999999999 is an integer past 64 bits/,
      2,
    ],
  ];
  for (const [text, pattern, line] of cases) {
    const e = kitError(() => parseQqa23Run(text));
    assert.match(e.message, pattern, JSON.stringify(text));
    assert.equal(e.line, line, JSON.stringify(text));
  }
});

Deno.test("read as the scorer reads: integer ids rewritten, tabs or spaces, BOM and CRLF", async () => {
  const run = parseQqa23Run(
    "007\tQ0\t2:1-5\t1\t3\tmy run\n7\tQ0\t-01\t1\t2\tmy run\n".replace("7\tQ0\t-01", "8\tQ0\t-1"),
  );
  assert.deepEqual([...run.questions.keys()], ["7", "8"]);
  assert.equal(run.delimiter, "tab"); // a space inside the tag is fine with tabs
  const ints = parseQqa23Run("5 Q0 -01 1 0 t\n");
  assert.equal(ints.questions.get("5")![0].docid, "-1"); // an all-integer docid column
  const bytes = new TextEncoder().encode("\uFEFF1\tQ0\tA\t1\t0.5\tt\r\n2\tQ0\t-1\t1\t0\tt\r\n");
  const read = await readQqa23Run(mem("bigIR_run01.tsv", bytes));
  assert.deepEqual([...read.questions.keys()], ["1", "2"]);
  assert.deepEqual(read.warnings, []); // in memory: no file-name rule
  await assert.rejects(
    readQqa23Run(mem("r.tsv", new Uint8Array([0x31, 0x09, 0xff, 0x0a]))),
    /r\.tsv:1: invalid UTF-8/,
  );
});

Deno.test("the file-name rule is a warning, applied to the name without its last 4 characters", async () => {
  assert.equal(checkQqa23FileName("bigIR_run01.tsv"), undefined);
  assert.equal(checkQqa23FileName("/x/abc_de.txt"), undefined);
  for (const bad of ["ab_run01.tsv", "bigIR_r.tsv", "bigIR-run01.tsv", "bigIR_run01.trec", "run"]) {
    assert.match(checkQqa23FileName(bad) ?? "", /TeamID_RunID/, bad);
  }
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/my-run.txt`, "1\tQ0\tA\t1\t0.5\tt\n");
  const run = await readQqa23Run(`${dir}/my-run.txt`);
  assert.equal(run.warnings.length, 1);
  assert.match(run.warnings[0], /the official checker refuses it, the kit only warns/);
});

Deno.test("bad qrels: each refused with its file and line", async () => {
  const cases: [string, RegExp, number | undefined][] = [
    ["", /no judgments/, undefined],
    ["1 0 A 1\n", /expected 4 tab-separated fields .* found 1/, 1],
    ["1\t0\tA\n", /found 3/, 1],
    ["1\t0\tA\t1\n1\t0\tB\t1.0\n", /relevance '1\.0' is not an integer/, 2],
    ["1\t0\tA\t1\n1\t0\tA\t0\n", /question 1, passage A: judged again \(first on line 1\)/, 2],
    ["1\t0\tA\t1\n2\t0\t-1\t1\n1\t0\t-1\t1\n", /question 1 has both .* \(lines 1 and 3\)/, 3],
    ["1\t0\tA\t1\n\t0\tB\t1\n", /empty qid/, 2],
    ["1\t0\tnull\t1\n", /passage id 'null' is read by pandas/, 1],
    ["1\t0\tA\t1\n1.5\t0\tB\t1\n", /qid '1\.5'.*decimal numbers/, 2],
  ];
  for (const [text, pattern, line] of cases) {
    const e = kitError(() => parseQqa23Qrels(text, "q.gold"));
    assert.match(e.message, pattern, JSON.stringify(text));
    assert.equal(e.line, line, JSON.stringify(text));
  }
  // Blank lines are skipped, as pandas does; a BOM and CRLF are the text layer's.
  const q = await readQqa23Qrels(mem("q.gold", "\uFEFF1\t0\tA\t1\r\n\r\n2\t0\t-1\t1\r\n\n"));
  assert.deepEqual([...q.judged.keys()], ["1"]);
  assert.deepEqual(q.zeroAnswer, ["2"]);
  assert.equal(q.firstLine.get("2"), 3);
});

Deno.test("abstention: -1 alone below T, the sweep's thresholds, the pick", () => {
  const qrels = parseQqa23Qrels(DOC_QRELS);
  const run = parseQqa23Run(DOC_RUN);
  // Top scores: 101 0.9, 102 0.3, 103 0.2.
  assert.deepEqual(sweepThresholds(run), [-Infinity, 0.3, 0.9, Infinity]);
  const at = abstain(run, 0.3);
  assert.deepEqual(at.abstained, ["103"]);
  assert.deepEqual(at.questions.get("103")!.map((l) => [l.docid, l.line]), [["-1", 6]]);
  const rows = abstentionSweep(qrels, run);
  assert.deepEqual(rows.map((r) => r.abstained), [0, 1, 2, 3]);
  // Abstaining 101 too (T = Infinity) turns its 5/12 into 0; 103 and 102 are -1 already.
  assert.equal(rows[3].official.map_cut_10, 1 / 5);
  assert.equal(rows[0].official.map_cut_10, evaluateQqa23(qrels, run).official.map_cut_10);
  assert.equal(pickThreshold(rows).threshold, -Infinity); // ties go to the fewest abstentions
  const explicit = abstentionSweep(qrels, run, [0.25]);
  assert.equal(explicit.length, 1);
  assert.equal(explicit[0].abstained, 1);
});

// ---- The command, as users run it. ----

async function files(): Promise<{ dir: string; qrels: string; run: string }> {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/dev.gold`, DOC_QRELS);
  await Deno.writeTextFile(`${dir}/kitqa_run1.tsv`, DOC_RUN);
  return { dir, qrels: `${dir}/dev.gold`, run: `${dir}/kitqa_run1.tsv` };
}

Deno.test("eval qqa23: trec_eval-style lines with the official numbers; the complete protocol on stderr", async () => {
  const f = await files();
  const r = await runCli(["eval", "qqa23", f.qrels, f.run]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    "num_q                 \tall\t5\nmap_cut_10            \tall\t0.2833\n" +
      "recip_rank            \tall\t0.2667\n",
  );
  assert.match(r.stderr, /complete protocol .*map_cut_10 0\.3542, recip_rank 0\.3333 over 4/);
  assert.match(r.stderr, /why: 1 zero-answer question missing from the run counts twice/);
  assert.match(r.stderr, /warning: question 101 has answers and the run lists -1/);
  const q = await runCli(["eval", "qqa23", "-q", f.qrels, f.run]);
  assert.match(
    q.stdout,
    /^map_cut_10 +\t101\t0\.4167\nrecip_rank +\t101\t0\.3333\nofficial_weight +\t101\t1\n/,
  );
  assert.match(q.stdout, /official_weight +\t104\t2\n/);
});

Deno.test("eval qqa23 --json: full precision; -q each question; standard input", async () => {
  const f = await files();
  const r = await runCli(["eval", "qqa23", "--json", "-q", f.qrels, "-"], { stdin: DOC_RUN });
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  const expected = evaluateQqa23(parseQqa23Qrels(DOC_QRELS), parseQqa23Run(DOC_RUN));
  assert.equal(out.map_cut_10, expected.official.map_cut_10);
  assert.equal(out.recip_rank, expected.official.recip_rank);
  assert.deepEqual(out.complete, expected.complete);
  assert.deepEqual(out.differences, expected.differences);
  assert.equal(out.perQuestion.length, 4);
  assert.equal(out.perQuestion[3].weight, 2);
});

Deno.test("eval qqa23 --abstain-sweep: the table, and the pick on stderr", async () => {
  const f = await files();
  const r = await runCli(["eval", "qqa23", "--abstain-sweep", f.qrels, f.run]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split("\n");
  assert.equal(
    lines[0],
    "threshold\tabstained\tmap_cut_10\trecip_rank\tcomplete_map_cut_10\tcomplete_recip_rank",
  );
  assert.deepEqual(lines.slice(1).map((l) => l.split("\t").slice(0, 2)), [
    ["-Infinity", "0"],
    ["0.3", "1"],
    ["0.9", "2"],
    ["Infinity", "3"],
  ]);
  assert.match(r.stderr, /T = -Infinity/);
  const j = await runCli(["eval", "qqa23", "--abstain-sweep", "--json", f.qrels, f.run]);
  assert.deepEqual(
    JSON.parse(j.stdout).abstain_sweep.map((x: { threshold: unknown }) => x.threshold),
    [
      "-Infinity",
      0.3,
      0.9,
      "Infinity",
    ],
  );
});

Deno.test("eval qqa23: a refused run is one line and exit status 2; a split name reads the corpus", async () => {
  const f = await files();
  await Deno.writeTextFile(`${f.dir}/bad_run1.tsv`, "1\tQ0\tA\t1\t1e-3\tt\n");
  const r = await runCli(["eval", "qqa23", f.qrels, `${f.dir}/bad_run1.tsv`]);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, "");
  assert.equal(
    r.stderr.trim().split("\n").length,
    1,
  );
  assert.match(r.stderr, /bad_run1\.tsv:1: question 1: The score is not a float: '1e-3'/);
  // A split name: that split's qrels in the corpus folder (--dir).
  await Deno.mkdir(`${f.dir}/corpus/qqa23`, { recursive: true });
  await Deno.writeTextFile(
    `${f.dir}/corpus/qqa23/QQA23_TaskA_ayatec_v1.2_qrels_dev.gold`,
    DOC_QRELS,
  );
  const s = await runCli(["eval", "qqa23", "--dir", `${f.dir}/corpus`, "--json", "dev", f.run]);
  assert.equal(s.code, 0, s.stderr);
  assert.match(s.stderr, /reading the dev qrels from .*qrels_dev\.gold/);
  assert.equal(JSON.parse(s.stdout).numQ, 5);
});
