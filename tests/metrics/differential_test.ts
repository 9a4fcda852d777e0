/**
 * A differential test against the trec_eval binaries (9.0.8 and 10.0, built by `./kit setup`
 * from ../shared/tools): random qrels and runs whose files are written as users write them,
 * each case evaluated by the kit (as `eval trec` does: the file engine, then trec_eval's
 * output format) and by the binary, and compared byte for byte. The cases cover what the
 * grouped quicktest-style oracle (`trec_eval_test.ts`) does not: runs whose queries are not
 * contiguous, JSON runs (the binary reads the same run as TREC), scores that overflow a
 * 32-bit float or a double (`3.5e38`, `1e39`, `1e300`, `1e400`, `inf`), full-precision ties
 * (`0.6` and `0.6000000000000001`), numbers written other ways (`2.0` as a relevance, `-l
 * 2.0`), and the garbage trec_eval reads silently (`0x10`, `1e`, `nan`, `2.7`, `1e3` as a
 * relevance, `-l 2.5`), which the kit refuses.
 *
 * Every case ends one of these ways, counted and printed: identical output; refused by the
 * kit, for a reason among those docs/measures.md lists (the binary read the input another way);
 * both stop (the binary and the kit refuse the same input); trec_eval stops where the kit
 * evaluates (a query whose judgments are all negative, which trec_eval cannot size); 10.0
 * crashes (compared only where it does not). Anything else fails the test.
 */
import { QUICKTEST_10 } from "./quicktest.ts";
import { assert, assertEquals } from "../assert.ts";
import fc from "fast-check";
import { KitError } from "../../lib/errors.ts";
import {
  evaluateTrecFiles,
  formatRun,
  formatTrecEval,
  readRunWithId,
} from "../../lib/metrics/mod.ts";
import { relevanceLevel } from "../../lib/cli/args.ts";
import type { TrecRelease } from "../../lib/metrics/release.ts";
import { runCli } from "../helpers.ts";

function findBinary(release: TrecRelease): string | undefined {
  const path = new URL(`../../.tools/trec_eval-${release}/trec_eval`, import.meta.url).pathname;
  try {
    if (Deno.statSync(path).isFile) return path;
  } catch { /* not built */ }
  if (Deno.env.get("QA_KIT_REQUIRE_TREC_EVAL") === "1") {
    throw new Error(
      `trec_eval ${release} is not built but QA_KIT_REQUIRE_TREC_EVAL=1: ./kit setup`,
    );
  }
  console.error(`skipping the ${release} differential test: run ./kit setup to build ${path}`);
  return undefined;
}

const BINARIES: Record<TrecRelease, string | undefined> = {
  "9.0.8": findBinary("9.0.8"),
  "10.0": findBinary("10.0"),
};

const QIDS = ["1", "2", "10", "Q3"];
const DOCS = ["a", "b", "c", "d1", "d10", "d2", "x"];
/** Scores as written: ties in 32-bit floats and in doubles, overflow, infinities. */
const SCORES = [
  "1",
  "1",
  "2",
  "0.5",
  "0.3",
  "0.30000001",
  "0.6",
  "0.6000000000000001",
  "-1",
  "1e0",
  "3.5e38",
  "1e39",
  "1e300",
  "-1e39",
  "1e400",
  "-1e400",
];
/** Scores trec_eval's atof reads but the kit refuses (or reads only in TREC files). */
const SCORES_ODD = ["inf", "-Infinity", "0x10", "1e", "nan", "1.5abc"];
const RELS = ["0", "0", "1", "1", "2", "-1", "3", "2.0", "1.0"];
const RELS_ODD = ["2.7", "1e3", "0x1"];
const LEVELS = ["1", "1", "1", "2", "0", "-1", "2.0", "2.5"];

/** Whether a score text is a JSON number (a JSON run can only hold those). */
const isJsonNumber = (s: string) => /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(s);

/** The measure lists of both releases (`-m` given once each). */
const MEASURE_LISTS: string[][] = [
  ["official"],
  ["all_trec"],
  [
    "map",
    "recip_rank",
    "P.1,2",
    "iprec_at_recall",
    "11pt_avg",
    "ndcg_cut.3",
    "relstring",
  ], // Parameterised measures (one instance of a measure per call, as trec_eval keeps one): 10.0's
  // -q -c clears only the exact names num_ret, utility and relstring on a missing query's
  // stand-in ranking, so the named variants keep what the stand-in gives them.
  ["utility.1,-1,0,0", "relstring.3", "num_ret", "success.1,3", "set_F.0.5"],
  [
    "utility.2,-1,0.5,0",
    "relstring",
    "num_rel_ret",
    "recall.2",
    "map_cut.1,3",
  ],
  ["utility", "relstring.1", "P.3", "ndcg_cut.2"],
  // Fractions and cutoffs of the other parameterised measures (a sweep of 10.0 -q -c over
  // every parameterised measure, 20,800 comparisons, found no other difference).
  ["iprec_at_recall.0,.5,1", "Rprec_mult.0.5,1.5", "11pt_avg.0,0.5", "relative_P.1,3"],
];

/**
 * 10.0's own measures (rbp, rbp_resid, unj) with the parameters 10.0 takes: p and level=gain
 * pairs (negative gains, which rescale every gain; -1, the documents outside the qrels; names
 * it ignores), cutoffs; 10.0's -q -c clears unj_* and rbp_resid (not rbp_resid_p=...). And the
 * measures before rbp that decide what its two unset variables hold: ones that clear them
 * (P, set_P, ...), leave them (recip_rank, utility), leave a fraction (set_F, relstring, gm_map:
 * harmless with the default gains), or change rbp (ndcg_cut, iprec_at_recall: refused).
 */
const MEASURE_LISTS_10: string[][] = [
  ["rbp", "rbp_resid", "unj"],
  ["rbp.p=0.5", "rbp_resid.p=0.95", "unj.1,3"],
  ["rbp.p=0.95", "rbp_resid.p=0.5", "unj.2"],
  ["rbp.p=0.8,1=3,2=1", "unj.20"],
  ["rbp.2=-1,0=0.5,p=0.7", "rbp_resid"],
  ["rbp.-1=2,x=5,p=0.6", "rbp_resid.p=0.8,1=4"],
  ["all_trec", "rbp.p=0.5", "unj.1,2"],
  ["official", "rbp"],
  ["ndcg_cut.3", "set_P", "rbp.p=0.5"],
  ["recip_rank", "utility", "rbp"],
  ["set_F.0.5", "rbp"],
  ["relstring", "rbp.p=0.5"],
  ["gm_map", "rbp"],
  ["ndcg_cut.3", "rbp"],
  ["iprec_at_recall", "rbp.p=0.95"],
];

/** Whether a measure list names one of 10.0's own measures (or its all_trec). */
const hasOwn10 = (measures: string[]) =>
  measures.some((m) => /^(rbp|rbp_resid|unj|all_trec)(\.|$)/.test(m));

const caseArb = (release: TrecRelease) =>
  fc.record({
    qrels: fc.dictionary(
      fc.constantFrom(...QIDS),
      fc.dictionary(fc.constantFrom(...DOCS), fc.constantFrom(...RELS), { minKeys: 1, maxKeys: 5 }),
      { minKeys: 1, maxKeys: 4 },
    ),
    run: fc.dictionary(
      fc.constantFrom(...QIDS),
      fc.dictionary(fc.constantFrom(...DOCS), fc.constantFrom(...SCORES), {
        minKeys: 1,
        maxKeys: 6,
      }),
      { minKeys: 1, maxKeys: 4 },
    ),
    /** One odd value put into the qrels or the run (or none). */
    odd: fc.oneof(
      { weight: 4, arbitrary: fc.constant(null) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          ...SCORES_ODD.map((s) => ["score", s] as const),
          ...RELS_ODD.map((r) => ["rel", r] as const),
        ),
      },
    ),
    layout: fc.constantFrom("grouped", "ungrouped", "json"),
    /**
     * A docno twice: in the run (scored lowest: below -M's cut it is no error in trec_eval) or
     * in the qrels (a query the run may lack: -c counts it without looking in 9.0.8).
     */
    duplicate: fc.constantFrom(undefined, undefined, undefined, "run", "qrels"),
    shuffle: fc.array(fc.nat(), { minLength: 30, maxLength: 30 }),
    complete: fc.boolean(),
    perQuery: fc.boolean(),
    level: fc.constantFrom(...LEVELS),
    maxDocs: fc.constantFrom(undefined, undefined, 0, 1, 3),
    /** -J: judged documents only (with -c and 10.0, the stand-in of a missing query is dropped). */
    judgedOnly: fc.constantFrom(false, false, true),
    measures: fc.constantFrom(
      ...MEASURE_LISTS,
      ...(release === "10.0" ? MEASURE_LISTS_10 : []),
    ),
  });
type Case = ReturnType<typeof caseArb> extends fc.Arbitrary<infer T> ? T : never;

/** The files of a case: qrels text, the run as the binary reads it, the run the kit reads. */
function files(c: Case): { qrels: string; trecRun: string; kitRun: string; kitName: string } {
  const qrelsLines = Object.entries(c.qrels).flatMap(([q, docs]) =>
    Object.entries(docs).map(([d, r]) => [q, d, r])
  );
  const runLines = Object.entries(c.run).flatMap(([q, docs]) =>
    Object.entries(docs).map(([d, s]) => [q, d, s])
  );
  if (c.odd) {
    const [where, text] = c.odd;
    const lines = where === "rel" ? qrelsLines : runLines;
    lines[0][2] = text;
  }
  if (c.duplicate === "run" && c.layout !== "json") {
    const [q, d] = runLines[0];
    runLines.push([q, d, "-5"]);
  }
  if (c.duplicate === "qrels") qrelsLines.push([...qrelsLines[qrelsLines.length - 1]]);
  const qrels = qrelsLines.map(([q, d, r]) => `${q} 0 ${d} ${r}\n`).join("");
  const trec = (lines: string[][]) =>
    lines.map(([q, d, s], i) => `${q} Q0 ${d} ${i + 1} ${s} kit\n`).join("");
  const trecRun = trec(runLines);
  if (c.layout === "json") {
    const byQuery = Object.groupBy(runLines, ([q]) => q);
    const body = Object.entries(byQuery).map(([q, lines]) =>
      `${JSON.stringify(q)}: {${lines!.map(([, d, s]) => `${JSON.stringify(d)}: ${s}`).join(", ")}}`
    );
    return { qrels, trecRun, kitRun: `{${body.join(",\n")}}\n`, kitName: "run.json" };
  }
  if (c.layout === "ungrouped") {
    // The same lines in another order (queries interleaved): the binary reads this file too.
    const order = runLines.map((l, i) => ({ l, k: c.shuffle[i % c.shuffle.length] * 64 + i }));
    order.sort((x, y) => x.k - y.k);
    const text = trec(order.map((x) => x.l));
    return { qrels, trecRun: text, kitRun: text, kitName: "run.txt" };
  }
  return { qrels, trecRun, kitRun: trecRun, kitName: "run.txt" };
}

/** Why the kit refused, as a short reason (docs/measures.md's list). */
function reasonOf(message: string): string {
  const reasons: [RegExp, string][] = [
    [/score '.*' is hexadecimal/, "score in hexadecimal (atof reads C hex)"],
    [/score '.*' is NaN/, "NaN score (trec_eval cannot order it)"],
    [/score '.*' is not a decimal number/, "score atof reads only in part (1e, 1.5abc)"],
    [/relevance '.*' is \d+, but/, "relevance atol reads as another integer (1e3 as 1)"],
    [/relevance '.*' is not an integer/, "relevance that is not an integer (2.7, 0x1)"],
    [/-l takes an integer/, "-l that is not an integer (2.5)"],
    [/invalid JSON/, "not JSON (inf, -Infinity, 0x10 in a JSON run)"],
    [/duplicate judgment/, "a docno judged twice in a query evaluated"],
    [/duplicate document .*\(trec_eval rejects this too\)$/, "a docno twice in a ranking"],
    [
      /trec_eval 10\.0's rbp reads two variables it never sets/,
      "rbp after a measure whose leftovers change it (10.0 reads its min and max unset)",
    ],
  ];
  for (const [re, reason] of reasons) if (re.test(message)) return reason;
  return `other: ${message}`;
}

async function trecEval(bin: string, args: string[]) {
  const out = await new Deno.Command(bin, { args, stdout: "piped", stderr: "piped" }).output();
  return {
    code: out.code,
    signal: out.signal,
    stdout: new TextDecoder().decode(out.stdout),
    stderr: new TextDecoder().decode(out.stderr),
  };
}

async function differential(release: TrecRelease, numRuns: number, seed: number) {
  const bin = BINARIES[release]!;
  const dir = await Deno.makeTempDir();
  const counts = new Map<string, number>();
  const count = (k: string) => counts.set(k, (counts.get(k) ?? 0) + 1);
  let cases = 0;
  await fc.assert(
    fc.asyncProperty(caseArb(release), async (c) => {
      // Mostly cases with a query in both files (the rest: what each does with none).
      if (!Object.keys(c.run).some((q) => q in c.qrels) && c.shuffle[0] % 4 !== 0) return;
      if (c.layout === "json" && c.odd?.[0] === "score" && isJsonNumber(c.odd[1])) return;
      cases++;
      const f = files(c);
      await Deno.writeTextFile(`${dir}/qrels`, f.qrels);
      await Deno.writeTextFile(`${dir}/run`, f.trecRun);
      await Deno.writeTextFile(`${dir}/${f.kitName}`, f.kitRun);
      const flags = [
        ...(c.perQuery ? ["-q"] : []),
        ...(c.complete ? ["-c"] : []),
        `-l${c.level}`,
        ...(c.maxDocs === undefined ? [] : [`-M${c.maxDocs}`]),
        ...(c.judgedOnly ? ["-J"] : []),
        ...c.measures.flatMap((m) => ["-m", m]),
      ];
      const te = await trecEval(bin, [...flags, `${dir}/qrels`, `${dir}/run`]);
      let kit: { out: string } | { refused: string };
      try {
        const r = await evaluateTrecFiles(`${dir}/qrels`, `${dir}/${f.kitName}`, c.measures, {
          complete: c.complete,
          relevanceLevel: relevanceLevel(c.level),
          maxDocs: c.maxDocs,
          judgedOnly: c.judgedOnly,
          release,
          warn: false,
        });
        kit = { out: formatTrecEval(r, { perQuery: c.perQuery }) };
      } catch (e) {
        if (!(e instanceof KitError)) throw e;
        kit = { refused: e.message };
      }
      const where = `trec_eval ${release} ${flags.join(" ")} (${c.layout})\nqrels:\n${f.qrels}` +
        `run:\n${f.kitRun}`;
      if (te.signal !== null) {
        count(`trec_eval ${release} crashes (${te.signal}): not compared`);
      } else if (te.code === 0 && "out" in kit) {
        if (kit.out !== te.stdout) {
          throw new Error(`differs:\nkit:\n${kit.out}\ntrec_eval:\n${te.stdout}\n${where}`);
        }
        count("identical");
        if (release === "10.0" && hasOwn10(c.measures)) {
          count("identical, with 10.0's rbp, rbp_resid or unj");
        }
      } else if (te.code === 0 && "refused" in kit) {
        const reason = reasonOf(kit.refused);
        // Only the documented refusals: a duplicate is refused where trec_eval refuses it.
        assert(
          !reason.startsWith("other") && !reason.startsWith("a docno"),
          `refused: ${kit.refused}\n${where}`,
        );
        count(`refused: ${reason}`);
      } else if ("refused" in kit) {
        const why = /trec_eval 10.0 stops here/.test(kit.refused)
          ? "a qrels query the run lacks, without -c (10.0)"
          : /no query has both/.test(kit.refused)
          ? "no query in both files"
          : reasonOf(kit.refused);
        count(`both stop: ${why}`);
      } else {
        // Only an all-negative query: trec_eval sizes its level counts by the highest judgment.
        // (10.0's -c evaluates every qrels query, the ones the run lacks too.)
        const evaluated = release === "10.0" && c.complete
          ? Object.keys(c.qrels)
          : Object.keys(c.run);
        const allNegative = evaluated.some((q) =>
          q in c.qrels && Object.values(c.qrels[q]).every((r) => Number(r) < 0)
        );
        assert(
          allNegative,
          `trec_eval stops (${te.stderr.trim()}), the kit evaluates\n${where}`,
        );
        count("trec_eval stops on an all-negative query; the kit evaluates it");
      }
    }),
    { numRuns, seed },
  );
  await Deno.remove(dir, { recursive: true });
  const lines = [...counts].sort((a, b) => b[1] - a[1]).map(([k, n]) => `  ${n}\t${k}`);
  console.log(`differential vs trec_eval ${release}: ${cases} cases\n${lines.join("\n")}`);
  return counts;
}

Deno.test({
  name: "differential vs trec_eval 9.0.8: ungrouped, JSON, overflowing and odd inputs",
  ignore: !BINARIES["9.0.8"],
  async fn() {
    const counts = await differential("9.0.8", 600, 28);
    // The test must meet every kind of case it is about, not pass on nothing.
    assert((counts.get("identical") ?? 0) > 200, JSON.stringify([...counts]));
    assert([...counts.keys()].some((k) => k.startsWith("refused: score")));
    assert([...counts.keys()].some((k) => k.startsWith("refused: relevance")));
  },
});

Deno.test({
  name: "differential vs trec_eval 10.0 (--trec-eval 10.0), wherever 10.0 does not crash",
  ignore: !BINARIES["10.0"],
  async fn() {
    const counts = await differential("10.0", 900, 2810);
    assert((counts.get("identical") ?? 0) > 100, JSON.stringify([...counts]));
    // all_trec and 10.0's own measures, with -q, -c and parameters, compared for real.
    const own = counts.get("identical, with 10.0's rbp, rbp_resid or unj") ?? 0;
    assert(own > 150, JSON.stringify([...counts]));
    assert([...counts.keys()].some((k) => k.startsWith("refused: rbp after")));
    assertEquals([...counts.keys()].filter((k) => k.startsWith("other")), []);
  },
});

// The Makefile's quicktest of 10.0, less the preference, judgment-group and z-score modes:
// all_trec with rbp, rbp_resid and unj_*, -c with missing queries, comment lines.
Deno.test({
  name: "trec_eval 10.0's own quicktest outputs (all_trec with rbp and unj), byte for byte",
  ignore: !BINARIES["10.0"],
  async fn() {
    const dir = BINARIES["10.0"]!.replace(/[^/]*$/, "test");
    let lines = 0;
    for (const [expected, args] of QUICKTEST_10) {
      const files = args.map((a) => (/^(qrels|results)\./.test(a) ? `${dir}/${a}` : a));
      const want = await Deno.readTextFile(`${dir}/${expected}`);
      // The binary first: the expected output is what it prints.
      assertEquals((await trecEval(BINARIES["10.0"]!, files)).stdout, want, expected);
      const got = await runCli(["eval", "trec", "--trec-eval", "10.0", ...files]);
      assertEquals(got.code, 0, got.stderr);
      assertEquals(got.stdout, want, `${expected} (${args.join(" ")})`);
      lines += want.split("\n").length - 1;
    }
    console.log(`10.0's quicktest: ${QUICKTEST_10.length} outputs, ${lines} lines byte-identical`);
  },
});

Deno.test({
  name: "10.0's rbp, rbp_resid and unj under 9.0.8: both refuse them",
  ignore: !BINARIES["9.0.8"],
  async fn() {
    const dir = await Deno.makeTempDir();
    await Deno.writeTextFile(`${dir}/qrels`, "1 0 a 1\n");
    await Deno.writeTextFile(`${dir}/run`, "1 Q0 a 1 1 r\n");
    for (const m of ["rbp", "rbp_resid.p=0.5", "unj.5"]) {
      const te = await trecEval(BINARIES["9.0.8"]!, ["-m", m, `${dir}/qrels`, `${dir}/run`]);
      assertEquals([te.code, te.stderr], [1, `trec_eval: illegal measure '${m.split(".")[0]}'\n`]);
      const kit = await runCli(["eval", "trec", "-m", m, `${dir}/qrels`, `${dir}/run`]);
      assertEquals(kit.code, 2);
      assert(kit.stderr.includes(`is trec_eval 10.0's (--trec-eval 10.0)`), kit.stderr);
    }
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test("any permutation of a run's lines gives the same output (every path, both releases)", async () => {
  const dir = await Deno.makeTempDir();
  const qrels = "1 0 a 1\n1 0 b 0\n1 0 c 2\n2 0 a 1\n2 0 x 0\n10 0 d1 1\n";
  await Deno.writeTextFile(`${dir}/qrels`, qrels);
  let checked = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.dictionary(
        fc.constantFrom(...QIDS),
        fc.dictionary(fc.constantFrom(...DOCS), fc.constantFrom(...SCORES, "inf", "-inf"), {
          minKeys: 1,
          maxKeys: 7,
        }),
        { minKeys: 1, maxKeys: 4 },
      ),
      fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
      async (run, keys) => {
        fc.pre(["1", "2", "10"].some((q) => q in run)); // a query of the qrels
        const lines = Object.entries(run).flatMap(([q, docs]) =>
          Object.entries(docs).map(([d, s]) => `${q} Q0 ${d} 1 ${s} r\n`)
        );
        const permuted = lines.map((l, i) => ({ l, k: keys[i % keys.length] * 64 + i }))
          .sort((x, y) => x.k - y.k).map((x) => x.l);
        await Deno.writeTextFile(`${dir}/a`, lines.join(""));
        await Deno.writeTextFile(`${dir}/b`, permuted.join(""));
        for (const release of ["9.0.8", "10.0"] as const) {
          const outputs = [];
          for (const file of ["a", "b"]) {
            const r = await evaluateTrecFiles(`${dir}/qrels`, `${dir}/${file}`, ["all_trec"], {
              complete: true,
              release,
              warn: false,
            });
            // And what convert writes (ranks in the release's order) reads back the same.
            const read = await readRunWithId(`${dir}/${file}`, { release });
            outputs.push([
              formatTrecEval(r, { perQuery: true }),
              [...formatRun(read.run, read.runId, release)].sort().join(""),
            ]);
          }
          assertEquals(outputs[1], outputs[0], `${release}\n${lines.join("")}`);
        }
        checked++;
      },
    ),
    { numRuns: 150, seed: 2828 },
  );
  await Deno.remove(dir, { recursive: true });
  console.log(`${checked} runs and a permutation of their lines: identical outputs`);
});
