/**
 * `eval compare` with a run given twice under two names: the identical pair is not tested
 * (no p in Markdown, LaTeX, CSV or JSON), not counted in the family a measure's p-values are
 * adjusted over, and named once on stderr; and the pairs that ask the same question twice
 * (acopy - b is a - b, acopy - c is a - c) are one test each, counted once in m and sharing
 * its p. The adjusted p-values are checked against an independent computation: the classes of
 * identical systems found in Python, `scipy.stats.ttest_rel` with Bonferroni over the 3
 * distinct tests, and the exact randomization test (all 2^8 sign assignments) with Holm's
 * step-down over them, all computed in Python, not with the kit's code.
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
 * Adjusted p of each distinct test, per pair "x-y", from SciPy (t test, Bonferroni over m) and
 * from brute force (exact sign flips, Holm over m); \`of\` maps every pair not identical to the
 * pair tested for it (the first pair joining the same two classes of identical systems).
 */
const SCRIPT = `
import itertools, json, sys
from scipy import stats
ranks = json.load(sys.stdin)
names = list(ranks)
v = {k: [1 / r for r in rs] for k, rs in ranks.items()}
rep = {}
for n in names:
    same = [r for r in rep.values() if all(abs(x - y) <= 1e-12 for x, y in zip(v[r], v[n]))]
    rep[n] = same[0] if same else n
tests, of = {}, {}
for i, x in enumerate(names):
    for y in names[i + 1:]:
        if rep[x] != rep[y]:
            first = tests.setdefault(frozenset((rep[x], rep[y])), (x, y))
            of[f"{x}-{y}"] = f"{first[0]}-{first[1]}"
pairs = list(tests.values())
m = len(pairs)
t = {f"{x}-{y}": float(stats.ttest_rel(v[x], v[y]).pvalue) for x, y in pairs}
bonferroni = {k: min(1.0, m * p) for k, p in t.items()}
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
print(json.dumps({"t": t, "bonferroni": bonferroni, "exact": r, "holm": holm, "of": of, "m": m}))
`;

type Expected = Record<"t" | "bonferroni" | "exact" | "holm", Record<string, number>> & {
  of: Record<string, string>;
  m: number;
};

async function python(): Promise<Expected> {
  return await runPython(PYTHON!, SCRIPT, RANKS) as Expected;
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
  sameAs?: [string, string];
};

Deno.test({
  name: "eval compare: a run given twice is not tested, its pairs with others are the same " +
    "tests as the original's, m counts distinct tests (t test and randomization; Bonferroni " +
    "and Holm, against SciPy and brute force)",
  ignore: !PYTHON,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const runs = await writeRuns(dir);
      const expected = await python();
      // By hand: a = acopy, so the distinct tests are a - b, a - c and b - c.
      assert.equal(expected.m, 3);
      assert.deepEqual({ ...expected.of }, {
        "a-b": "a-b",
        "a-c": "a-c",
        "acopy-b": "a-b",
        "acopy-c": "a-c",
        "b-c": "b-c",
      });
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
        // One note per test asked twice, on every measure at once.
        const notes = json.stderr.split("\n").filter((l) => l.startsWith("note:"));
        assert.deepEqual(notes, [
          'note: the pairs "a" – "b" and "acopy" – "b" are one test, a = acopy – b (the systems ' +
          'joined by "=" are identical on every question of every measure): it is tested once ' +
          "and counted once in m",
          'note: the pairs "a" – "c" and "acopy" – "c" are one test, a = acopy – c (the systems ' +
          'joined by "=" are identical on every question of every measure): it is tested once ' +
          "and counted once in m",
        ]);
        const table = JSON.parse(json.stdout);
        const pairs: Pair[] = table.pairs;
        for (const measure of ["map", "recip_rank"]) {
          const of = pairs.filter((p) => p.measure === measure);
          assert.equal(of.length, 6);
          for (const p of of) {
            if (p.a === "a" && p.b === "acopy") {
              assert.deepEqual([p.p, p.pAdjusted, p.identical], [null, null, true]);
              continue;
            }
            assert.equal(p.identical, false);
            const k = expected.of[`${p.a}-${p.b}`];
            const ps = expected as unknown as Record<string, Record<string, number>>;
            assert.equal(p.sameAs?.join("-") ?? `${p.a}-${p.b}`, k);
            assert.ok(
              close(p.p!, ps[rawKey][k]),
              `${test} ${k}: ${p.p} ${ps[rawKey][k]}`,
            );
            assert.ok(
              close(p.pAdjusted!, ps[key][k]),
              `${test} ${correction} ${k}: ${p.pAdjusted} ${ps[key][k]}`,
            );
          }
          // Letters: acopy is better than whatever a is better than, and worse alike.
          const cells = table.cells;
          assert.deepEqual(cells.acopy[measure].betterThan, cells.a[measure].betterThan);
          for (const s of ["b", "c"]) {
            const letters: string[] = cells[s][measure].betterThan;
            assert.equal(letters.includes("a"), letters.includes("b"), `${s}: ${letters}`);
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
        /Bonferroni's correction over the distinct tests of each measure \(m: MAP 3, MRR 3\)/,
      );
      assert.match(md.stdout, /MAP "a" - "acopy"; MRR "a" - "acopy": identical on every question/);
      assert.match(
        md.stdout,
        /MAP "acopy" - "b" as "a" - "b"; MAP "acopy" - "c" as "a" - "c"; MRR "acopy" - "b" as "a" - "b"; MRR "acopy" - "c" as "a" - "c": the same test \(systems identical on every question\), its p shared, counted once in m\./,
      );
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
      // acopy against b (label c) shows the test of a - b.
      assert.ok(close(Number(row("map", "acopy")[col("p_vs_c")]), expected.bonferroni["a-b"]));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
