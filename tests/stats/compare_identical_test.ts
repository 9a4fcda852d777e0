/**
 * `eval compare` with a run given twice under two names: the identical pair is not tested
 * (no p in Markdown, LaTeX, CSV or JSON), not counted in the family a measure's p-values are
 * adjusted over, and named once on stderr. The other pairs' adjusted p-values are checked
 * against an independent computation: `scipy.stats.ttest_rel` with Bonferroni over the 5 pairs
 * tested, and the exact randomization test (all 2^8 sign assignments) with Holm's step-down,
 * both computed in Python, not with the kit's code.
 */
import assert from "node:assert/strict";
import { runCli, runPython, scipyPython } from "../helpers.ts";

// The oracle's Python (tests/helpers.ts: QA_KIT_REQUIRE_SCIPY=1 makes its absence a failure).
const PYTHON = scipyPython();
if (!PYTHON) console.error("skipping the SciPy anchors: no python3 with scipy");

// The rank of the one relevant document in each of 8 questions: AP = RR = 1 / rank.
const RANKS: Record<string, number[]> = {
  a: [1, 1, 2, 1, 1, 3, 1, 2],
  acopy: [1, 1, 2, 1, 1, 3, 1, 2],
  b: [2, 1, 3, 2, 1, 4, 2, 2],
  c: [1, 2, 1, 1, 3, 1, 2, 1],
};
const SYSTEMS = Object.keys(RANKS);

/**
 * Adjusted p of every pair but (a, acopy), per pair "x-y", from SciPy (t test, Bonferroni x5)
 * and from brute force (exact sign flips, Holm over the 5).
 */
const SCRIPT = `
import itertools, json, sys
from scipy import stats
ranks = json.load(sys.stdin)
names = list(ranks)
pairs = [(x, y) for i, x in enumerate(names) for y in names[i + 1:] if (x, y) != ("a", "acopy")]
v = {k: [1 / r for r in rs] for k, rs in ranks.items()}
t = {f"{x}-{y}": float(stats.ttest_rel(v[x], v[y]).pvalue) for x, y in pairs}
bonferroni = {k: min(1.0, 5 * p) for k, p in t.items()}
def exact(d):
    obs = abs(sum(d))
    hits = sum(1 for s in itertools.product((1, -1), repeat=len(d))
               if abs(sum(a * b for a, b in zip(s, d))) >= obs - 1e-9)
    return hits / 2 ** len(d)
r = {f"{x}-{y}": exact([p - q for p, q in zip(v[x], v[y])]) for x, y in pairs}
order = sorted(r, key=lambda k: r[k])
holm, running = {}, 0.0
for i, k in enumerate(order):
    running = max(running, min(1.0, (len(order) - i) * r[k]))
    holm[k] = running
print(json.dumps({"t": t, "bonferroni": bonferroni, "exact": r, "holm": holm}))
`;

async function python(): Promise<Record<string, Record<string, number>>> {
  return await runPython(PYTHON!, SCRIPT, RANKS) as Record<string, Record<string, number>>;
}

async function writeRuns(dir: string): Promise<string[]> {
  const qrels: string[] = [];
  for (let q = 1; q <= 8; q++) {
    qrels.push(`q${q} 0 rel 1`, ...[1, 2, 3].map((k) => `q${q} 0 non${k} 0`));
  }
  await Deno.writeTextFile(`${dir}/q.qrels`, qrels.join("\n") + "\n");
  for (const name of SYSTEMS) {
    const lines: string[] = [];
    RANKS[name].forEach((rank, i) => {
      const docs = ["non1", "non2", "non3"];
      docs.splice(rank - 1, 0, "rel");
      docs.forEach((d, k) => lines.push(`q${i + 1} Q0 ${d} ${k + 1} ${10 - k} ${name}`));
    });
    await Deno.writeTextFile(`${dir}/${name}.run`, lines.join("\n") + "\n");
  }
  return SYSTEMS.map((n) => `${dir}/${n}.run`);
}

const close = (x: number, y: number) => Math.abs(x - y) <= 1e-12 * Math.max(1, Math.abs(y));

type Pair = {
  measure: string;
  a: string;
  b: string;
  p: number | null;
  pAdjusted: number | null;
  identical: boolean;
};

Deno.test({
  name: "eval compare: a run given twice is not tested, not in m, warned once (t test and " +
    "randomization; Bonferroni and Holm, against SciPy and brute force)",
  ignore: !PYTHON,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const runs = await writeRuns(dir);
      const expected = await python();
      const compare = (...flags: string[]) =>
        runCli(["eval", "compare", "--qrels", `${dir}/q.qrels`, "-c", ...flags, ...runs]);
      for (
        const [test, correction, key, rawKey] of [
          ["ttest", "bonferroni", "bonferroni", "t"],
          ["randomization", "holm", "holm", "exact"],
        ]
      ) {
        const json = await compare("--test", test, "--correction", correction, "--format", "json");
        assert.equal(json.code, 0, json.stderr);
        // One warning, naming the two runs, whatever the number of measures (MAP and MRR).
        const warnings = json.stderr.split("\n").filter((l) => l.startsWith("warning:"));
        assert.equal(warnings.length, 1, json.stderr);
        assert.match(warnings[0], /"a" and "acopy" are identical on every question/);
        const pairs: Pair[] = JSON.parse(json.stdout).pairs;
        for (const measure of ["map", "recip_rank"]) {
          const of = pairs.filter((p) => p.measure === measure);
          assert.equal(of.length, 6);
          for (const p of of) {
            if (p.a === "a" && p.b === "acopy") {
              assert.deepEqual([p.p, p.pAdjusted, p.identical], [null, null, true]);
              continue;
            }
            assert.equal(p.identical, false);
            const k = `${p.a}-${p.b}`;
            assert.ok(
              close(p.p!, expected[rawKey][k]),
              `${test} ${k}: ${p.p} ${expected[rawKey][k]}`,
            );
            assert.ok(
              close(p.pAdjusted!, expected[key][k]),
              `${test} ${correction} ${k}: ${p.pAdjusted} ${expected[key][k]}`,
            );
          }
        }
      }
      // The exports: no p for the identical pair, and a word saying why.
      const md = await compare("--test", "ttest", "--correction", "bonferroni");
      assert.equal(md.code, 0, md.stderr);
      assert.match(
        md.stdout,
        /^\| MAP \| a \| acopy \| 0\.0000 \|\s+\|\s+\| identical on every question \(not tested\) \|$/m,
      );
      assert.match(
        md.stdout,
        /Bonferroni's correction over the pairs of each measure tested \(m: MAP 5, MRR 5\)/,
      );
      assert.match(md.stdout, /MAP "a" - "acopy"; MRR "a" - "acopy": identical on every question/);
      const tex = await compare(
        "--test",
        "ttest",
        "--correction",
        "bonferroni",
        "--format",
        "latex",
      );
      assert.equal(tex.code, 0, tex.stderr);
      assert.match(
        tex.stdout,
        /^MAP & a & acopy & 0\.0000 & \\multicolumn\{2\}\{l\}\{identical on every question \(not tested\)\} \\\\$/m,
      );
      const csv = await compare("--test", "ttest", "--correction", "bonferroni", "--format", "csv");
      assert.equal(csv.code, 0, csv.stderr);
      const rows = csv.stdout.trim().split("\n").map((l) => l.split(","));
      const head = rows[0];
      assert.equal(head.at(-1), "identical_to");
      const row = (m: string, s: string) => rows.find((r) => r[0] === m && r[2] === s)!;
      const col = (name: string) => head.indexOf(name);
      // a (label a) against acopy (label b): empty adjusted and raw p; identical_to names b.
      assert.deepEqual(
        [
          row("map", "a")[col("p_vs_b")],
          row("map", "a")[col("p_raw_vs_b")],
          row("map", "a").at(-1),
        ],
        ["", "", "b"],
      );
      assert.equal(row("recip_rank", "acopy").at(-1), "a");
      assert.equal(row("map", "b").at(-1), "");
      assert.ok(close(Number(row("map", "a")[col("p_vs_c")]), expected.bonferroni["a-b"]));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
