/**
 * trec_eval 9.0.8 itself as the oracle: its own quicktest set run through `eval trec`, and
 * random runs full of ties compared byte for byte with `-m all_trec -q -c` and the options.
 * Needs the binary (`$TREC_EVAL`, or `.tools/trec_eval-9.0.8/trec_eval`, which `./kit` builds
 * from ../shared/tools/trec_eval-9.0.8.tar.gz); without it the tests are skipped with a
 * reason, unless `QA_KIT_REQUIRE_TREC_EVAL=1` (CI) makes that a failure. The quicktest also
 * needs the release's `test/` folder (found beside the binary, in `$TREC_EVAL_TEST_DIR` or in
 * the tree `./kit setup` built); a bare binary without one runs the random comparison only.
 *
 * Left out, as docs/measures.md says: trec_eval's preference and judgment-group modes (`-R prefs`,
 * `-R qrels_prefs`, `-R qrels_jg`) and z-scores (`-Z`).
 */
import { QUICKTEST } from "./quicktest.ts";
import { assertEquals } from "../assert.ts";
import fc from "fast-check";
import { evaluateTrecFiles, formatTrecEval } from "../../lib/metrics/mod.ts";
import { runCli } from "../helpers.ts";

function findTrecEval(): string | undefined {
  const candidates = [
    Deno.env.get("TREC_EVAL"),
    new URL("../../.tools/trec_eval-9.0.8/trec_eval", import.meta.url).pathname,
  ];
  for (const path of candidates) {
    if (!path) continue;
    try {
      if (Deno.statSync(path).isFile) return path;
    } catch { /* not there */ }
  }
  if (Deno.env.get("QA_KIT_REQUIRE_TREC_EVAL") === "1") {
    throw new Error("trec_eval 9.0.8 is not built but QA_KIT_REQUIRE_TREC_EVAL=1: run ./kit setup");
  }
  console.error(
    "skipping the trec_eval oracle tests: no trec_eval binary ($TREC_EVAL or " +
      ".tools/trec_eval-9.0.8/trec_eval, built by ./kit setup from ../shared/tools)",
  );
  return undefined;
}

const TREC_EVAL = findTrecEval();

/**
 * The release's `test/` folder with the quicktest's expected outputs: `$TREC_EVAL_TEST_DIR`,
 * beside the binary (a built source tree), or the tree `./kit setup` built. A bare binary
 * (`TREC_EVAL=/usr/local/bin/trec_eval`) has none beside it: the quicktest is then skipped with
 * the reason, and the random-run comparison, which needs the binary alone, still runs.
 */
function findQuicktest(): string | undefined {
  if (!TREC_EVAL) return undefined;
  const candidates = [
    Deno.env.get("TREC_EVAL_TEST_DIR"),
    TREC_EVAL.replace(/[^/]*$/, "test"),
    new URL("../../.tools/trec_eval-9.0.8/test", import.meta.url).pathname,
  ];
  for (const dir of candidates) {
    try {
      if (dir && Deno.statSync(`${dir}/out.test`).isFile) return dir;
    } catch { /* not there */ }
  }
  if (Deno.env.get("QA_KIT_REQUIRE_TREC_EVAL") === "1") {
    throw new Error(`no quicktest outputs (test/out.test) for ${TREC_EVAL}: run ./kit setup`);
  }
  console.error(
    `skipping trec_eval's quicktest: no test/out.test beside ${TREC_EVAL} (a bare binary); ` +
      "set TREC_EVAL_TEST_DIR to the release's test/ folder to run it",
  );
  return undefined;
}

const TEST_DIR = findQuicktest();

/** Runs the binary: its stdout, or undefined with its message when it stops on an error. */
async function trecEval(args: string[]): Promise<{ stdout?: string; stderr: string }> {
  const out = await new Deno.Command(TREC_EVAL!, { args, stdout: "piped", stderr: "piped" })
    .output();
  const stderr = new TextDecoder().decode(out.stderr);
  return { stdout: out.success ? new TextDecoder().decode(out.stdout) : undefined, stderr };
}

/** The first differing line of two outputs, for the failure message. */
function firstDifference(got: string, want: string): string {
  const g = got.split("\n"), w = want.split("\n");
  for (let i = 0; i < Math.max(g.length, w.length); i++) {
    if (g[i] !== w[i]) return `line ${i + 1}:\n  kit       ${g[i]}\n  trec_eval ${w[i]}`;
  }
  return "";
}

Deno.test({
  name: "trec_eval's own quicktest outputs, byte for byte (eval trec)",
  ignore: !TEST_DIR,
  async fn() {
    let lines = 0;
    for (const [expected, args] of QUICKTEST) {
      const files = args.map((a) => (/^(qrels|results)\./.test(a) ? `${TEST_DIR}/${a}` : a));
      const want = await Deno.readTextFile(`${TEST_DIR}/${expected}`);
      const got = await runCli(["eval", "trec", ...files]);
      assertEquals(got.code, 0, got.stderr);
      if (got.stdout !== want) {
        throw new Error(`${expected} differs at ${firstDifference(got.stdout, want)}`);
      }
      lines += want.split("\n").length - 1;
    }
    console.log(`quicktest: ${QUICKTEST.length} outputs, ${lines} lines byte-identical`);
  },
});

// Random inputs: ties everywhere (scores exact in float32, as trec_eval 9.0.8 stores them),
// unjudged documents, negative and several judgment levels, queries only in the qrels or
// only in the run, queries without relevant documents, query ids that sort differently as
// numbers and as strings.
const QIDS = ["1", "2", "10", "9", "301", "q7", "Q3", "a-b"];
const DOCS = ["d1", "d2", "d3", "d10", "d20", "D4", "a", "b", "c", "x.1", "zz", "e", "f"];
// 0.3 and 0.30000001 are one 32-bit float (a tie for 9.0.8); "1e0" and "+1" are 1 written
// other ways, as atof reads them.
const SCORES = [
  "0",
  "1",
  "1",
  "2",
  "2.5",
  "-1",
  "0.25",
  "3",
  "1000000",
  "0.125",
  "-0.5",
  "0.3",
  "0.30000001",
  "1e0",
  "+1",
];
const RELS = [-1, 0, 0, 0, 1, 1, 2, 3, 4, 12];
// Parameters tried besides the defaults, the gain quirks included (gains less than 1 apart
// keep their order; negative gains; gains for level 0).
const PARAMS = [
  "relstring.5",
  "P.3,7",
  "iprec_at_recall..15,.5,.95",
  "Rprec_mult.0.5,1.5,3",
  "utility.2,-1,-0.5,0.25",
  "11pt_avg..75,.25,.5",
  "ndcg.1=3,2=9,4=4.5",
  "ndcg.0=0.5,1=0.7,3=2.2",
  "G.1=0.5,2=0.6",
  "G.2=-1,3=1.5",
  "Rndcg.2=-1",
  "Rndcg.1=2,2=1",
  "ndcg_rel.0=1",
  "ndcg_rel.1=0.3,3=-2",
  "ndcg_cut.1,2,23.4",
  "map_cut.2,4",
  "success.2,3",
  "set_F.0.5",
  "relative_P.1,3",
  "recall.2,4",
  "binG",
];

/** trec_eval keeps a measure's first parameter list; give it the union the kit computes. */
function mergeCutoffLists(measures: string[]): string[] {
  const lists = measures.filter((m) => m.startsWith("P."));
  if (lists.length < 2) return measures;
  const union = [...new Set(lists.flatMap((m) => m.slice(2).split(",").map(Number)))];
  return [...measures.filter((m) => !m.startsWith("P.")), `P.${union.sort((a, b) => a - b)}`];
}

const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);
const qrelsArb = fc.dictionary(
  pick(QIDS),
  fc.dictionary(pick(DOCS), pick(RELS), { minKeys: 1, maxKeys: 10 }),
  { minKeys: 1, maxKeys: 6 },
);
const runArb = fc.dictionary(
  pick(QIDS),
  fc.dictionary(pick(DOCS), pick(SCORES), { minKeys: 1, maxKeys: 12 }),
  { minKeys: 1, maxKeys: 6 },
);
const optionsArb = fc.record({
  level: fc.constantFrom(1, 1, 2, 0, 3, -1, -2, -3),
  judgedOnly: fc.boolean(),
  maxDocs: fc.constantFrom(undefined, undefined, 0, 1, 4),
  numDocs: fc.constantFrom(undefined, 0, 100),
  params: fc.subarray(PARAMS, { maxLength: 4 }),
  twice: fc.boolean(),
});

Deno.test({
  name: "random tied runs: -m all_trec -q -c, -l, -J, -M, -N and parameters equal trec_eval's",
  ignore: !TREC_EVAL,
  async fn() {
    const dir = await Deno.makeTempDir();
    let files = 0, queries = 0, lines = 0, skipped = 0;
    await fc.assert(
      fc.asyncProperty(qrelsArb, runArb, optionsArb, async (qrels, run, o) => {
        fc.pre(Object.keys(run).some((q) => q in qrels));
        const qrelsText = Object.entries(qrels).flatMap(([q, docs]) =>
          Object.entries(docs).map(([d, r]) => `${q} 0 ${d} ${r}\n`)
        ).join("");
        const runText = Object.entries(run).flatMap(([q, docs]) =>
          Object.entries(docs).map(([d, s], i) => `${q} Q0 ${d} ${i + 1} ${s} run-${q}\n`)
        ).join("");
        await Deno.writeTextFile(`${dir}/qrels`, qrelsText);
        await Deno.writeTextFile(`${dir}/run`, runText);
        const measures = ["all_trec", ...o.params];
        // Cutoff lists given twice: the kit merges them (trec_eval would keep the first), so
        // trec_eval gets the merged list.
        if (o.twice) measures.push("P.2", "P.1,3");
        const flags = [
          "-q",
          "-c",
          `-l${o.level}`,
          ...(o.judgedOnly ? ["-J"] : []),
          ...(o.maxDocs === undefined ? [] : [`-M${o.maxDocs}`]),
          ...(o.numDocs === undefined ? [] : ["-N", String(o.numDocs)]),
          ...mergeCutoffLists(measures).flatMap((m) => ["-m", m]),
        ];
        const te = await trecEval([...flags, `${dir}/qrels`, `${dir}/run`]);
        if (te.stdout === undefined) {
          // trec_eval 9.0.8 cannot evaluate a query whose judgments are all negative (it
          // sizes its level counts by the highest judgment and stops); the kit evaluates it.
          const allNegative = Object.keys(run).some((q) =>
            q in qrels && Object.values(qrels[q]).every((r) => r < 0)
          );
          if (!allNegative) throw new Error(`trec_eval ${flags.join(" ")} failed: ${te.stderr}`);
          skipped++;
          return;
        }
        const want = te.stdout;
        const result = await evaluateTrecFiles(`${dir}/qrels`, `${dir}/run`, measures, {
          complete: true,
          relevanceLevel: o.level,
          judgedOnly: o.judgedOnly,
          maxDocs: o.maxDocs,
          numDocs: o.numDocs,
          warn: false,
        });
        const got = formatTrecEval(result, { perQuery: true });
        if (got !== want) {
          throw new Error(
            `differs from trec_eval ${flags.join(" ")} at ${firstDifference(got, want)}\n` +
              `qrels:\n${qrelsText}run:\n${runText}`,
          );
        }
        files++;
        queries += result.numQ;
        lines += want.split("\n").length - 1;
      }),
      { numRuns: 250, seed: 90 },
    );
    await Deno.remove(dir, { recursive: true });
    console.log(
      `trec_eval oracle: ${files} random qrels/run pairs, ${queries} queries, ${lines} lines ` +
        `byte-identical (${skipped} with an all-negative query that trec_eval refuses)`,
    );
  },
});
