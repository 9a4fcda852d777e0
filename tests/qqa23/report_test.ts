/**
 * Qur'an QA 2023's part of page 00: the flags and the spec (parsed by the part, refused where
 * they would be ignored), the numbers (official and complete equal `evaluateQqa23`; the family's
 * tests equal a paired t computed here by hand over the complete protocol's values), the files,
 * and `./kit report --dataset qqa23` as a user runs it, the page checked in Chromium.
 */
import assert from "node:assert/strict";
import { realDataTest, runCli } from "../helpers.ts";
import { specFromFlags } from "../../lib/report/systems/spec.ts";
import { evaluateSystems } from "../../lib/report/systems/report.ts";
import { systemsFiles } from "../../lib/report/systems/files.ts";
import { KitError } from "../../lib/errors.ts";
import { evaluateQqa23 } from "../../lib/qqa23/official.ts";
import { readQqa23Qrels } from "../../lib/qqa23/qrels.ts";
import { parseQqa23Run } from "../../lib/qqa23/run_file.ts";
import { qqa23QrelsPath } from "../../lib/qqa23/load.ts";
import { scoreQqa23Split } from "../../lib/qqa23/retrieve.ts";
import type { Qqa23ReportData } from "../../lib/qqa23/report_part.ts";
import { QQA23_BASELINE, QQA23_REPORT } from "../../lib/qqa23/report_part.ts";
import { regularizedIncompleteBeta } from "../../lib/stats/special.ts";

/** The report flags as lib/cli/report.ts hands them to the parts. */
function flags(values: Record<string, string | string[] | true>) {
  return {
    runs: [values.run ?? []].flat() as string[],
    models: [values.model ?? []].flat() as string[],
    parts: {
      list: (n: string) =>
        [values[n] ?? []].flat().filter((v) => typeof v === "string") as string[],
      str: (n: string) => typeof values[n] === "string" ? values[n] as string : undefined,
      has: (n: string) => values[n] === true,
    },
    ...(typeof values.dataset === "string" ? { dataset: values.dataset } : {}),
    ...(typeof values.split === "string" ? { split: values.split } : {}),
    ...(typeof values.compare === "string" ? { compare: values.compare } : {}),
  };
}

Deno.test("report --dataset qqa23: the part takes --run, --split, --compare; answer selection's flags are refused", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const f of ["a_run1.tsv", "b_run2.tsv"]) await Deno.writeTextFile(`${dir}/${f}`, "");
    const spec = specFromFlags(
      flags({ dataset: "qqa23", split: "dev", run: ["a=a_run1.tsv", "b=b_run2.tsv"] }),
      dir,
    )!;
    // Answer selection got nothing: its defaults, no systems; the part got the runs.
    assert.deepEqual(spec.systems, []);
    assert.deepEqual(spec.qqa23, {
      split: "dev",
      runs: [{ name: "a", path: `${dir}/a_run1.tsv` }, { name: "b", path: `${dir}/b_run2.tsv` }],
      baselines: true,
    });
    const defaults = specFromFlags(flags({ dataset: "qqa23", run: "a=a_run1.tsv" }), dir)!;
    assert.equal((defaults.qqa23 as { split: string }).split, "test");
    const withPair = specFromFlags(
      flags({ dataset: "qqa23", run: ["a=a_run1.tsv", "b=b_run2.tsv"], compare: "b,a" }),
      dir,
    )!;
    assert.deepEqual((withPair.qqa23 as { compare: string[] }).compare, ["b", "a"]);
    const cases: [Record<string, string | string[] | true>, RegExp][] = [
      [
        { dataset: "qqa23", run: "a=a_run1.tsv", model: "m=lexical:bm25" },
        /--model is for answer selection/,
      ],
      [{ dataset: "qqa23", split: "valid", run: "a=a_run1.tsv" }, /unknown qqa23 split 'valid'/],
      [{ dataset: "qqa23" }, /--dataset qqa23: give your runs with --run/],
      [{ dataset: "qqa23", run: "a=a_run1.tsv", compare: "a,z" }, /no system is named 'z'/],
      [{ dataset: "qqa23", run: `${QQA23_BASELINE}=a_run1.tsv` }, /kit's baselines/],
    ];
    for (const [values, message] of cases) {
      assert.throws(
        () => specFromFlags(flags(values), dir),
        (e: unknown) => e instanceof KitError && message.test(e.message),
        JSON.stringify(values),
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A run of the dev questions: BM25's, with some questions left out (the rules then differ). */
async function runs(dir: string): Promise<{ full: string; cut: string }> {
  const scored = await scoreQqa23Split("lexical:bm25", "dev", { tag: "x" });
  const full = `${dir}/team_full.tsv`, cut = `${dir}/team_cut.tsv`;
  await Deno.writeTextFile(full, scored.text);
  const lines = scored.text.trimEnd().split("\n");
  const questions = [...new Set(lines.map((l) => l.split("\t")[0]))];
  // Leave out every third question (zero-answer ones among them, if they fall there).
  const dropped = new Set(questions.filter((_, i) => i % 3 === 0));
  await Deno.writeTextFile(
    cut,
    lines.filter((l) => !dropped.has(l.split("\t")[0])).join("\n") + "\n",
  );
  return { full, cut };
}

realDataTest(
  "qqa23 on page 00: official and complete as evaluateQqa23, the family's t by hand",
  "qqa23",
  async () => {
    const dir = await Deno.makeTempDir();
    try {
      const { full, cut } = await runs(dir);
      const report = await evaluateSystems({
        systems: [],
        qqa23: { split: "dev", runs: [{ name: "full", path: full }, { name: "cut", path: cut }] },
      }, { bootstrapSamples: 200 });
      assert.deepEqual(report.sections, ["systems", "qqa23", "files"]);
      const q = report.qqa23 as Qqa23ReportData;
      const qrels = await readQqa23Qrels(qqa23QrelsPath("dev"));
      for (const [name, path] of [["full", full], ["cut", cut]]) {
        const e = evaluateQqa23(qrels, parseQqa23Run(await Deno.readTextFile(path)));
        const s = q.systems.find((s) => s.name === name)!;
        assert.equal(s.official.map_cut_10, e.official.map_cut_10, name);
        assert.equal(s.official.recip_rank, e.official.recip_rank, name);
        assert.equal(s.complete.map_cut_10, e.complete.map_cut_10, name);
        assert.deepEqual(s.differences, e.differences, name);
      }
      // The cut run leaves questions out: the two protocols differ, and the page says why.
      const cutSystem = q.systems.find((s) => s.name === "cut")!;
      assert.ok(cutSystem.missing > 0 && cutSystem.differences.length > 0);
      assert.notEqual(cutSystem.official.map_cut_10, cutSystem.complete.map_cut_10);
      // The family: 3 pairs a measure (full-cut, full-BM25, cut-BM25), but "full" is the kit's
      // BM25 run itself: that pair is equal on every question, not tested, not counted in m.
      // The others: paired t over the 25 judged questions' complete values, Bonferroni over
      // the distinct tests.
      assert.deepEqual(
        q.family!.identical.map((i) => [i.measure, i.a, i.b]),
        [["map_cut_10", "full", QQA23_BASELINE], ["recip_rank", "full", QQA23_BASELINE]],
      );
      // full is the kit's BM25: full – cut and cut – BM25 are one test (m = 1).
      assert.equal(q.family!.size, 1);
      const t = q.family!.tests.find((t) =>
        t.measure === "map_cut_10" && t.a === "full" && t.b === "cut"
      )!;
      const a = q.systems.find((s) => s.name === "full")!.perQuestion;
      const b = cutSystem.perQuestion;
      const d = Object.keys(a).map((k) => a[k].map_cut_10 - b[k].map_cut_10);
      const n = d.length;
      const mean = d.reduce((x, y) => x + y, 0) / n;
      const sd = Math.sqrt(d.reduce((x, y) => x + (y - mean) ** 2, 0) / (n - 1));
      const tStat = mean / (sd / Math.sqrt(n));
      assert.equal(n, 25);
      assert.ok(Math.abs(t.difference - mean) < 1e-12);
      // Two-sided p of Student's t with n - 1 degrees of freedom: I_{df/(df+t^2)}(df/2, 1/2).
      const df = n - 1;
      const p = regularizedIncompleteBeta(df / (df + tStat * tStat), df / 2, 0.5);
      assert.ok(Math.abs(t.p - p) < 1e-9, `${t.p} vs ${p}`);
      assert.ok(Math.abs(t.pAdjusted - Math.min(1, t.p)) < 1e-15);
      assert.deepEqual(t.same, [[QQA23_BASELINE, "cut"]]);
      assert.equal(t.significant, t.lower > 0 || t.upper < 0);
      // The pair: the two best by official MAP@10 among the user's runs.
      assert.deepEqual(
        [q.pair!.a, q.pair!.b].sort(),
        ["cut", "full"],
      );
      // The published row of dev, and the files.
      assert.deepEqual(q.published.map((r) => [r.map_cut_10, r.recip_rank]), [[0.1703, 0.3133]]);
      const files = systemsFiles(report);
      assert.ok(files["per-question-qqa23.csv"].startsWith("system,kind,question,map_cut_10"));
      assert.equal(
        files["per-question-qqa23.csv"].trimEnd().split("\n").length,
        1 + 25 * 3,
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

realDataTest(
  "qqa23 on page 00: a run of another split is refused, naming the split it answers",
  "qqa23",
  async () => {
    const dir = await Deno.makeTempDir();
    try {
      const test = `${dir}/team_test.tsv`;
      await Deno.writeTextFile(test, (await scoreQqa23Split("lexical:bm25", "test")).text);
      await assert.rejects(
        () =>
          evaluateSystems({
            systems: [],
            qqa23: { split: "dev", runs: [{ name: "t", path: test }] },
          }),
        (e: unknown) =>
          e instanceof KitError && e.file === test &&
          /0 of its 52 questions are judged in dev, 51 in test: a run of the test split\? give --split test/
            .test(e.message),
      );
      // One run and no baseline: nothing to test, and the page says so.
      const alone = await evaluateSystems({
        systems: [],
        qqa23: { split: "test", runs: [{ name: "t", path: test }], baselines: false },
      });
      const q = alone.qqa23 as Qqa23ReportData;
      assert.equal(q.family, undefined);
      assert.equal(q.pair, undefined);
      const shown = QQA23_REPORT.show(q as never).map((item) =>
        String(
          (item as Record<symbol, () => Record<string, unknown>>)[Symbol.for("Jupyter.display")]()[
            "text/plain"
          ],
        )
      ).join("\n");
      assert.match(shown, /No test: one run and no baseline beside it/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

realDataTest(
  "./kit report --dataset qqa23: the page, its checks, its numbers on stdout",
  "qqa23",
  async () => {
    const dir = await Deno.makeTempDir();
    try {
      const { full, cut } = await runs(dir);
      const r = await runCli([
        "report",
        "--dataset",
        "qqa23",
        "--split",
        "dev",
        "--run",
        `full=${full}`,
        "--run",
        `cut=${cut}`,
        "--no-pdf",
        "--out",
        `${dir}/out`,
      ], { cwd: dir });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /system "full": MAP@10 0\.1210 MRR 0\.2844 \(complete protocol/);
      const page = await Deno.readTextFile(`${dir}/out/html/00-your-systems.html`);
      assert.match(page, /Qur.an QA 2023 runs/);
      // A page of Qur'an QA 2023 runs alone: no answer-selection introduction.
      assert.doesNotMatch(page, /Your answer-selection systems judged as TANDA/);
      const systems = JSON.parse(await Deno.readTextFile(`${dir}/out/systems.json`));
      assert.deepEqual(systems.files, ["spec.json", "systems.json", "per-question-qqa23.csv"]);
      const spec = JSON.parse(await Deno.readTextFile(`${dir}/out/spec.json`));
      assert.equal(spec.qqa23.split, "dev");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
