/**
 * The report on your systems: arguments (`NAME=PATH`, lists, globs), page 00 alone (the
 * lessons only with --lessons), built from runs the kit has never seen on the installed corpus
 * by default, its numbers against `eval trec -c` on the split's clean qrels (and trec_eval
 * 9.0.8 when available), the error analysis with texts, the protocol warnings, the files
 * written once beside it, and user strings escaped wherever they reach HTML, `<script>` JSON
 * and file names.
 */
import assert from "node:assert/strict";
import { buildReport, SYSTEMS_NOTEBOOK } from "../../lib/report/build/build.ts";
import { STAGES } from "../../lib/report/build/timings.ts";
import { runPlainNbconvert } from "./plain_nbconvert.ts";
import { parseSystemArg, resolveSpec } from "../../lib/report/systems/spec.ts";
import { expandGlob } from "../../lib/io/glob.ts";
import { loadQrcdGold, readQrcdRuns } from "../../lib/qrcd/report.ts";
import { KitError } from "../../lib/errors.ts";
import {
  formatQrels,
  formatRun,
  qrelsFromQuestions,
  runFromScores,
} from "../../lib/metrics/mod.ts";
import { scoreSplit } from "../../lib/scoring/pipeline.ts";
import { PLOTLY_MIME } from "../../lib/plot/mod.ts";
import type { NotebookJson } from "../../lib/report/build/static_images.ts";
import { allValue, realDataTest, runCli, runTrecEval } from "../helpers.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const resources = { sanitizeResources: false, sanitizeOps: false };

Deno.test("--run NAME=PATH: lists, globs (numeric order), relative to the caller; errors", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/runs`);
    for (const n of ["seed1", "seed2", "seed10", "other"]) {
      await Deno.writeTextFile(`${dir}/runs/${n}.run`, "");
    }
    await Deno.writeTextFile(`${dir}/runs/a,b.run`, "");
    const g = parseSystemArg("ltr=runs/seed*.run", dir, "--run");
    assert.deepEqual(g.paths, ["seed1", "seed2", "seed10"].map((n) => `${dir}/runs/${n}.run`));
    assert.deepEqual(
      parseSystemArg(" x = runs/seed1.run,runs/other.run", dir, "--run"),
      { name: "x", paths: [`${dir}/runs/seed1.run`, `${dir}/runs/other.run`] },
    );
    // A file whose name has a comma is taken whole.
    assert.deepEqual(parseSystemArg("c=runs/a,b.run", dir, "--run").paths, [`${dir}/runs/a,b.run`]);
    assert.deepEqual(parseSystemArg(`abs=${dir}/runs/seed?.run`, "/", "--run").paths.length, 2);
    const fails: [string, RegExp][] = [
      ["runs/seed1.run", /takes NAME=PATH/],
      ["=runs/seed1.run", /name is empty/],
      ["x=", /no path given/],
      ["x=runs/nope.run", /file not found/],
      ["x=runs", /not a regular file/],
      ["x=runs/zz*.run", /no file matches the pattern 'runs\/zz\*\.run'/],
      ["x=runs/seed1.run,runs/seed1.run", /given twice/],
      ["a\tb=runs/seed1.run", /control characters/],
    ];
    for (const [arg, message] of fails) {
      assert.throws(
        () => parseSystemArg(arg, dir, "--run"),
        (e) => e instanceof KitError && message.test(e.message),
        arg,
      );
    }
    assert.deepEqual(expandGlob("runs/[a-o]*.run", dir), ["runs/a,b.run", "runs/other.run"]);
    assert.deepEqual(expandGlob("r*/seed[!1]*.run", dir), ["runs/seed2.run"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const SAMPLE_RUN = `${ROOT}/data/samples/runs/wikiqa-test.run`;

Deno.test("system specs: unique names, not a baseline's, a known split", () => {
  const one = (name: string) => ({ name, runs: [SAMPLE_RUN] });
  const check = (spec: object) => resolveSpec({ systems: [], ...spec }, "/");
  assert.throws(() => check({ systems: [one("a"), one("a")] }), /two systems are named 'a'/);
  assert.throws(() => check({ systems: [one("BM25 (kit)")] }), /kit's baselines/);
  assert.throws(
    () => check({ split: "dev2", systems: [one("a")] }),
    /unknown wikiqa split 'dev2'/,
  );
  assert.throws(() => check({}), /no system given/);
  assert.throws(() => check({ systems: [{ name: "m", runs: [] }] }), /give its run files/);
  check({ systems: [{ name: "m", model: "ltr" }] });
});

Deno.test("report CLI: flags for systems are checked before anything runs", async () => {
  const cases: [string[], RegExp][] = [
    [["--dataset", "trecqa"], /--dataset is for your systems/],
    [
      ["--run", "x=data/samples/runs/wikiqa-test.run", "--split", "tset"],
      /unknown wikiqa split 'tset'/,
    ],
    [["--qrcd-gold", "dev"], /--qrcd-gold is for --qrcd-run/],
    [["--only", "99", "--only", "01"], /--only 99 matches no notebook \(the notebooks: 01, 02,/],
    [["--only", "01", "--only", "00"], /--only 00 matches no notebook \(00 needs systems: --run/],
    // Given systems, the report is page 00: a lesson is asked for with --lessons.
    [
      ["--run", "x=data/samples/runs/wikiqa-test.run", "--only", "01"],
      /--only 01 matches no notebook \(a lesson: with your systems, add --lessons\) \(the notebooks: 00\)/,
    ],
    [["--lessons"], /--lessons is for a report on your systems/],
    [["--no-baselines"], /--no-baselines is for a report on your systems/],
    [
      ["--run", "x=data/samples/runs/wikiqa-test.run", "--filter", "dirty"],
      /unknown filter 'dirty'/,
    ],
    [["--model", "a=lexical:bm25", "--model", "a=ltr"], /two systems are named 'a'/],
    [
      ["--run", "x=data/samples/runs/wikiqa-test.run", "--compare", "x,y"],
      /--compare: no answer-selection system is named 'y' \(the systems: x, BM25 \(kit\), ltr \(kit\)\)/,
    ],
    [
      ["--run", "x=data/samples/runs/wikiqa-test.run", "--compare", "x"],
      /--compare takes two system names, A,B/,
    ],
    [["--compare", "a,b"], /--compare is for your systems/],
  ];
  const dir = await Deno.makeTempDir();
  try {
    for (const [args, message] of cases) {
      const r = await runCli(["report", ...args, "--out", `${dir}/never-made`]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      await assert.rejects(() => Deno.stat(`${dir}/never-made`), Deno.errors.NotFound);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("report: a QRCD run the checker refuses is one message before any notebook runs", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const gold = (await Deno.readTextFile(`${ROOT}/data/samples/qrcd/qrcd_v1.1_dev.jsonl`))
      .trim().split("\n").map((l) => JSON.parse(l).pq_id as string);
    const answers = (rank: unknown) =>
      Object.fromEntries(gold.map((id) => [id, [{ answer: "x", rank, score: 1 }]]));
    const cases: [string, string, RegExp][] = [
      ["rank.json", JSON.stringify(answers("1")), /field "rank" is not an integer/],
      ["array.json", JSON.stringify([{ answer: "x" }]), /at the top level, found array/],
      ["bom.json", "\uFEFF" + JSON.stringify(answers(1)), /byte-order mark/],
    ];
    for (const [file, text, message] of cases) {
      await Deno.writeTextFile(`${dir}/${file}`, text);
      const r = await runCli(
        ["report", "--qrcd-run", `q=${file}`, "--only", "00", "--no-pdf", "--out", "out"],
        { cwd: dir },
      );
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      assert.match(r.stderr, new RegExp(`error: .*${file}: the official scorer would not score`));
      assert.doesNotMatch(r.stderr, /executing|Traceback| {4}at /);
      await assert.rejects(() => Deno.stat(`${dir}/out`), Deno.errors.NotFound);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("report: a QRCD run sharing no pq_id with the gold is one message naming the cause", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const gold = (await Deno.readTextFile(`${ROOT}/data/samples/qrcd/qrcd_v1.1_dev.jsonl`))
      .trim().split("\n").map((l) => JSON.parse(l).pq_id as string);
    const other = { "99:1-2_999": [{ answer: "x", rank: 1, score: 1 }] };
    const some = Object.fromEntries([[gold[0], [{ answer: "x", rank: 1, score: 1 }]]]);
    const cases: [string, unknown, RegExp][] = [
      ["empty.json", {}, /shares no pq_id with the gold records .*no pq_id at all/],
      ["other.json", other, /shares no pq_id .*99:1-2_999\) are not the gold's: a run of another/],
    ];
    for (const [file, json, message] of cases) {
      await Deno.writeTextFile(`${dir}/${file}`, JSON.stringify(json));
      const r = await runCli(
        ["report", "--qrcd-run", `q=${file}`, "--only", "00", "--no-pdf", "--out", "out"],
        { cwd: dir },
      );
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, message);
      // One error line (beside the line saying which corpus the QRCD runs are judged on).
      assert.equal(
        r.stderr.trim().split("\n").filter((l) => !/^QRCD runs: /.test(l)).length,
        1,
        r.stderr,
      );
      assert.doesNotMatch(r.stderr, /no predictions for this gold/);
      await assert.rejects(() => Deno.stat(`${dir}/out`), Deno.errors.NotFound);
    }
    // Some pq_ids missing: one summary line, not one per pq_id.
    await Deno.writeTextFile(`${dir}/some.json`, JSON.stringify(some));
    const read = await readQrcdRuns(
      { qrcd: { gold: "dev", runs: [{ name: "q", path: `${dir}/some.json` }] } },
      await loadQrcdGold("dev", `${ROOT}/data/samples`),
    );
    const issues = read.get("q")!.issues;
    assert.equal(issues.length, 1, issues.join("\n"));
    assert.match(issues[0], new RegExp(`^${gold.length - 1} of ${gold.length} gold pq_ids have`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** A name that tries HTML, script, CSV, Markdown and path tricks at once. */
const HOSTILE = `</script><script>alert("x")</script> & <b>bold</b>, "q" |a| ../x`;

Deno.test({
  name:
    "sample report on your runs: page 00 alone, index, files written once, summary; hostile names escaped",
  ...resources,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const run = SAMPLE_RUN;
      const lines: string[] = [];
      const report = await buildReport({
        params: { data: "sample" },
        systems: resolveSpec({
          data: "sample",
          systems: [
            { name: HOSTILE, runs: [run] },
            { name: "scored", model: "lexical:wordcnt" },
            { name: "bm", model: "lexical:bm25" },
          ],
        }, "/"),
        outDir: `${dir}/out`,
        pdf: false,
        log: (l) => lines.push(l),
      });
      // The build ends with one line of where its time went, every stage named.
      const timings = lines.filter((l) => l.startsWith("timings: "));
      assert.equal(timings.length, 1, lines.join("\n"));
      assert.equal(lines.at(-1), timings[0]);
      for (const stage of STAGES) {
        assert.match(timings[0], new RegExp(`[:,] ${stage} \\d+\\.\\d s`));
      }
      assert.match(timings[0], /; total \d+\.\d s/);
      // A report on systems is page 00 alone (before: every lesson too).
      assert.deepEqual(report.notebooks.map((e) => e.name), ["00-your-systems"]);
      const page = report.notebooks[0];
      assert.ok(page.figures >= 3 && page.check.figures.every((f) => f.svg && f.marks > 0));
      assert.deepEqual(page.check.pageErrors, [], "a script error: the hostile name ran?");
      // The executed notebook ran no script from the name, and the HTML never carries it raw.
      const html = await Deno.readTextFile(page.html);
      assert.ok(!html.includes('<script>alert("x")'), "raw script in the page");
      assert.ok(html.includes("&lt;/script&gt;&lt;script&gt;alert"), "escaped name on the page");
      assert.ok(!html.includes("<b>bold</b>"), "raw tag in the page");
      const index = await Deno.readTextFile(report.index);
      assert.ok(!index.includes('<script>alert("x")') && index.includes("&lt;b&gt;bold&lt;/b&gt;"));
      // The index shows your systems and page 00, no lesson's headline.
      assert.doesNotMatch(index, /random MAP|01-datasets/);
      // Figures: the name reaches Plotly's JSON inside <script> escaped for Plotly and for the script.
      const nb = JSON.parse(await Deno.readTextFile(page.ipynb)) as NotebookJson;
      const figs = nb.cells.flatMap((c) => c.outputs ?? []).filter((o) =>
        o.data && PLOTLY_MIME in o.data
      );
      assert.ok(JSON.stringify(figs[0].data![PLOTLY_MIME]).includes("&lt;/script&gt;"));
      // summary.json: your systems, names intact, numbers of the sample run (hand-worked:
      // AP 1, 7/12, 1/3, 1/2 over the four clean questions); paths relative to the folder.
      const summary = JSON.parse(await Deno.readTextFile(`${dir}/out/summary.json`));
      assert.equal(summary.systems.length, 3);
      assert.equal(summary.index, "index.html");
      assert.equal(summary.notebooks[0].html, "html/00-your-systems.html");
      assert.ok(
        !JSON.stringify(summary).includes(`${dir}/out/`),
        "an absolute path into the folder",
      );
      const mine = summary.systems[0];
      assert.equal(mine.name, HOSTILE);
      assert.deepEqual([mine.dataset, mine.split, mine.filter, mine.corpus, mine.queries], [
        "wikiqa",
        "test",
        "clean",
        "sample",
        4,
      ]);
      assert.ok(Math.abs(mine.map - (1 + 7 / 12 + 1 / 3 + 1 / 2) / 4) < 1e-15);
      assert.equal(mine.map_sd, undefined);
      // The scored model's run is in the report, under a file-safe name relative to it.
      const scored = summary.systems[1];
      assert.equal(scored.model, "lexical:wordcnt");
      assert.deepEqual(scored.runs, ["runs/02-scored.run"]);
      assert.ok((await Deno.stat(`${dir}/out/${scored.runs[0]}`)).isFile);
      // The files: the spec, the report (what page 00 rendered), CSV views of it.
      const written = JSON.parse(await Deno.readTextFile(`${dir}/out/systems.json`));
      const figures = written.files.filter((f: string) => f.startsWith("figures/"));
      assert.deepEqual(written.files.slice(0, written.files.length - figures.length), [
        "spec.json",
        "systems.json",
        "per-question.csv",
        "systems.tex",
        "systems.md",
        "pair-differences.csv",
      ]);
      // One SVG per tested pair of MAP, drawn by the build; names escaped, never markup.
      assert.equal(
        figures.length,
        written.family.tests.filter((t: { measure: string }) => t.measure === "map").length,
      );
      for (const f of written.files) assert.ok((await Deno.stat(`${dir}/out/${f}`)).isFile, f);
      for (const f of figures) {
        const svg = await Deno.readTextFile(`${dir}/out/${f}`);
        assert.match(svg, /^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
        assert.ok(!svg.includes("<script"), `${f}: a script in the SVG`);
      }
      assert.deepEqual(
        JSON.parse(await Deno.readTextFile(`${dir}/out/spec.json`)).systems.map((
          s: { name: string },
        ) => s.name),
        [HOSTILE, "scored", "bm"],
      );
      const csv = await Deno.readTextFile(`${dir}/out/per-question.csv`);
      assert.match(csv, /^system,kind,run,question,map,recip_rank,P_1,ndcg_cut_10\n/);
      assert.ok(csv.includes(`"${HOSTILE.replaceAll('"', '""')}",user,${run},Q300,1,1,1,1\n`));
      assert.deepEqual(written.systems.map((s: { kind: string }) => s.kind), [
        "user",
        "user",
        "user",
        "baseline",
        "baseline",
      ]);
      // One corpus per report: the model scored for --model is evaluated on the same corpus as
      // the kit's BM25.
      const bm = written.systems.find((s: { name: string }) => s.name === "bm");
      const kitBm25 = written.systems.find((s: { name: string }) => s.name === "BM25 (kit)");
      assert.ok(bm.mean.map > 0);
      assert.equal(bm.mean.map, kitBm25.mean.map);
      // The page as a report: no code, no section that has nothing to show, no empty column;
      // the sample said to be the sample.
      assert.ok(!html.includes("// The spec: your systems"), "code on the page");
      assert.ok(!html.includes(">Several runs of one system<") && !html.includes(">QRCD runs<"));
      assert.ok(!html.includes("sd (runs)"));
      assert.match(html, /Not the real corpus:/);
      // The family: your 3 systems against each other (3) and each against the 2 baselines
      // (6) on each of 4 measures; never a baseline against a baseline. "bm" is the kit's BM25
      // asked for again: identical to "BM25 (kit)", that pair is not tested, and its pairs with
      // a third system are one test with the baseline's: 6 distinct tests, m is 6.
      const f = summary.significance;
      assert.equal(f.pairs.length, 9);
      assert.deepEqual(
        f.identical.map((p: { a: string; b: string }) => `${p.a} = ${p.b}`),
        f.measures.map(() => "bm = BM25 (kit)"),
      );
      assert.equal(f.size, 6);
      assert.equal(f.tests.length, 4 * 6);
      assert.equal(f.choice, "all");
      assert.match(html, /identical on every question \(not tested\)/);
      for (const t of f.tests) {
        assert.ok(!(t.a.endsWith("(kit)") && t.b.endsWith("(kit)")), JSON.stringify(t));
        assert.ok(t.lower <= t.upper, JSON.stringify(t));
        assert.equal(t.significant, t.lower > 0 || t.upper < 0, JSON.stringify(t));
      }
      // No file is named after a system.
      for await (const e of Deno.readDir(`${dir}/out`)) assert.ok(!e.name.includes("script"));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

realDataTest(
  "real report from runs the kit has never seen: MAP/MRR = eval trec -c, warnings, error analysis",
  "wikiqa",
  async (corpus) => {
    const dir = await Deno.makeTempDir();
    try {
      // Outside runs: written by the kit's scorers as files, then read back like anyone's.
      const write = async (
        name: string,
        model: string,
        seed?: number,
        edit?: (r: Map<string, Map<string, number>>) => void,
      ) => {
        const s = await scoreSplit(model, "wikiqa", "test", { filter: "clean", dir: corpus, seed });
        const run = runFromScores(s.questions, s.scores);
        edit?.(run);
        await Deno.writeTextFile(`${dir}/${name}`, [...formatRun(run, name)].join(""));
        return s.questions;
      };
      const questions = await write("wgt.run", "lexical:wgtwordcnt");
      // BM25 with a question dropped and one candidate id replaced: both must be warned about.
      const dropped = questions[5].id, edited = questions[9];
      await write("bm25-edited.run", "lexical:bm25", undefined, (r) => {
        r.delete(dropped);
        const docs = r.get(edited.id)!;
        const score = docs.get(edited.candidates[0].id)!;
        docs.delete(edited.candidates[0].id);
        docs.set("NOT-A-CANDIDATE", score);
      });
      for (const seed of [1, 2, 3, 4, 5]) await write(`ltr-seed${seed}.run`, "ltr", seed);
      // A run as WikiQA's published outputs are numbered (WikiQA-test.ref: question number in
      // the TSV's order, sentence index), made from the Wgt Word Cnt run.
      const raw = await scoreSplit("lexical:wgtwordcnt", "wikiqa", "test", {
        filter: "raw",
        dir: corpus,
      });
      const rawRun = runFromScores(raw.questions, raw.scores);
      await Deno.writeTextFile(
        `${dir}/wgt-ref.run`,
        raw.questions.flatMap((q, i) =>
          q.candidates.map((c, j) => `${i + 1} Q0 ${j} 0 ${rawRun.get(q.id)!.get(c.id)} wgt\n`)
        ).join(""),
      );
      const qrelsFile = `${dir}/test-clean.qrels`;
      await Deno.writeTextFile(qrelsFile, [...formatQrels(qrelsFromQuestions(questions))].join(""));

      const out = `${dir}/report`;
      // No --data: the fetched corpus, installed, is the default.
      const r = await runCli([
        "report",
        "--run",
        "Wgt Word Cnt=wgt.run",
        "--run",
        "BM25 edited=bm25-edited.run",
        "--run",
        "ltr seeds=ltr-seed*.run",
        "--model",
        "wordcnt=lexical:wordcnt",
        "--run",
        "wgt ref-numbered=wgt-ref.run",
        "--compare",
        "ltr seeds,Wgt Word Cnt",
        "--show-code",
        "--only",
        "00",
        "--out",
        "report",
        "--no-pdf",
      ], { cwd: dir });
      assert.equal(r.code, 0, r.stderr);
      const summary = JSON.parse(await Deno.readTextFile(`${out}/summary.json`));
      assert.equal(summary.corpus.data, "real");
      const byName = new Map(summary.systems.map((s: { name: string }) => [s.name, s]));
      const trec = async (file: string) => {
        const t = await runCli([
          "eval",
          "trec",
          "-c",
          "-m",
          "map",
          "-m",
          "recip_rank",
          qrelsFile,
          file,
        ]);
        assert.equal(t.code, 0, t.stderr);
        const text = await runTrecEval(["-c", "-m", "map", "-m", "recip_rank", qrelsFile, file]);
        if (text !== undefined) {
          assert.deepEqual([allValue(text, "map"), allValue(text, "recip_rank")], [
            allValue(t.stdout, "map"),
            allValue(t.stdout, "recip_rank"),
          ]);
        }
        return { map: allValue(t.stdout, "map"), mrr: allValue(t.stdout, "recip_rank") };
      };
      const check = async (name: string, files: string[]) => {
        const s = byName.get(name) as Record<string, number & string[]>;
        const each = await Promise.all(files.map(trec));
        const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
        assert.equal(s.queries, 237, name);
        // One run: equal to eval trec -c as printed. Several: the mean of theirs (printed values
        // are rounded, so within half a unit of the fourth decimal).
        assert.ok(Math.abs(s.map - mean(each.map((e) => e.map))) <= 5e-5, name);
        assert.ok(Math.abs(s.recip_rank - mean(each.map((e) => e.mrr))) <= 5e-5, name);
        if (files.length === 1) {
          assert.equal(Number(s.map.toFixed(4)), each[0].map, `${name} MAP`);
          assert.equal(Number(s.recip_rank.toFixed(4)), each[0].mrr, `${name} MRR`);
        }
      };
      await check("Wgt Word Cnt", [`${dir}/wgt.run`]);
      await check("BM25 edited", [`${dir}/bm25-edited.run`]);
      await check("ltr seeds", [1, 2, 3, 4, 5].map((s) => `${dir}/ltr-seed${s}.run`));
      await check("wordcnt", [`${out}/runs/05-wordcnt.run`]);
      assert.deepEqual((byName.get("wordcnt") as { runs: string[] }).runs, ["runs/05-wordcnt.run"]);
      // The .ref-numbered run: mapped (said on stderr) and equal to trec_eval -c on the official
      // WikiQA-test-filtered.ref, as WikiQA's README evaluates.
      assert.match(r.stderr, /wgt ref-numbered.*numbered as WikiQA-test\.ref/);
      assert.match(r.stderr, /BM25 edited.*protocol warning: 1 question of the split/);
      const ref = byName.get("wgt ref-numbered") as { map: number; recip_rank: number };
      const official = await runTrecEval([
        "-c",
        "-m",
        "map",
        "-m",
        "recip_rank",
        `${corpus}/wikiqa/WikiQA-test-filtered.ref`,
        `${dir}/wgt-ref.run`,
      ]);
      if (official !== undefined) {
        assert.equal(Number(ref.map.toFixed(4)), allValue(official, "map"));
        assert.equal(Number(ref.recip_rank.toFixed(4)), allValue(official, "recip_rank"));
      }
      assert.equal(ref.map, (byName.get("Wgt Word Cnt") as { map: number }).map);
      // --compare: the pair of the error analysis, and its per-question differences exported.
      const pairCsv = (await Deno.readTextFile(`${out}/pair-differences.csv`)).trim().split("\n");
      assert.equal(pairCsv.length, 1 + 237);
      assert.match(
        pairCsv[0],
        /^question id,question,type,candidates,ltr seeds: AP,Wgt Word Cnt: AP,AP first - second,/,
      );
      // The family, with its intervals, in summary.json and on the terminal: 5 systems of
      // yours (10 pairs) and each against 2 baselines (10): 20 pairs asked; "wgt ref-numbered"
      // is wgt.run renumbered, identical to "Wgt Word Cnt" on every question, so that pair is
      // not tested and the two are one system: 4 of yours (6 pairs) and 2 baselines (8), m is
      // 14, intervals at 1 - 0.05/14 (99.64%).
      const f = summary.significance;
      assert.equal(f.pairs.length, 20);
      assert.deepEqual(
        [...new Set(f.identical.map((p: { a: string; b: string }) => `${p.a} = ${p.b}`))],
        ["Wgt Word Cnt = wgt ref-numbered"],
      );
      assert.equal(f.size, 14);
      assert.equal(f.level, 1 - 0.05 / 14);
      const d = f.tests.find((x: { a: string; b: string; measure: string }) =>
        x.measure === "map" && x.a === "Wgt Word Cnt" && x.b === "BM25 edited"
      );
      assert.ok(d.lower <= d.upper && d.pAdjusted === Math.min(1, 14 * d.p));
      assert.deepEqual(d.same, [["wgt ref-numbered", "BM25 edited"]]);
      assert.match(
        r.stdout,
        /MAP Wgt Word Cnt = wgt ref-numbered – BM25 edited: -?\d\.\d{4} \[-?\d\.\d{4}, -?\d\.\d{4}\] \(99\.64%\), t -?\d+\.\d{3}, df 236, p \S+, adjusted \(x14, all\) /,
      );
      assert.match(
        r.stdout,
        /MAP Wgt Word Cnt – wgt ref-numbered: identical on every question \(not tested\), not counted in m/,
      );
      assert.match(
        r.stderr,
        /warning: "Wgt Word Cnt" and "wgt ref-numbered" are identical on every question of every measure/,
      );
      const seeds = byName.get("ltr seeds") as { runs: string[]; map_sd: number };
      assert.equal(seeds.runs.length, 5);
      assert.ok(seeds.map_sd > 0 && seeds.map_sd < 0.02);

      // The page: warnings, error analysis with texts, every figure drawn (the build's checks).
      const html = await Deno.readTextFile(`${out}/html/00-your-systems.html`);
      assert.match(html, new RegExp(`missing from the run, each scoring 0: ${dropped}`));
      assert.match(
        html,
        new RegExp(`not a candidate of its question in the split .*${edited.id}/NOT-A-CANDIDATE`),
      );
      assert.match(
        html,
        new RegExp(`not ranked by the run .*${edited.id}/${edited.candidates[0].id}`),
      );
      const esc = (s: string) =>
        s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")
          .replaceAll('"', "&quot;");
      const texts = questions.filter((q) => html.includes(esc(q.text)));
      // The 10 questions where the pair differs most (the failures of a system with several
      // runs are not shown: no single ranking is its).
      assert.ok(texts.length >= 10, `question texts on the page: ${texts.length}`);
      const correct = texts.flatMap((q) => q.candidates.filter((c) => c.label > 0));
      assert.ok(correct.some((c) => html.includes(esc(c.text))), "correct candidates as text");
      assert.match(html, /\[wrong\] /);
      assert.match(html, /ltr seeds against Wgt Word Cnt: the pair given \(compare\)/);
      assert.match(html, /ltr seeds higher/);
      assert.match(html, /first in \d of 5 runs/);
      assert.match(html, /MAP by question type/);
      assert.match(html, />Several runs of one system</);
      // --show-code: the code cells on the page (hidden by default: the sample report above).
      assert.ok(html.includes("// The spec: your systems"), "no code on the page with --show-code");
      const page = summary.notebooks[0];
      assert.ok(
        page.figures >= 4 && page.check.figures.every((f: { marks: number }) => f.marks > 0),
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test({
  name: "notebook 00 opened alone: every cell runs on the spec of its first cell (the sample run)",
  ...resources,
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      const r = await runPlainNbconvert(
        `${ROOT}/notebooks/${SYSTEMS_NOTEBOOK}`,
        dir,
        { data: "sample" },
        "notebook",
        { env: { KIT_SYSTEMS_REPORT: "" } },
      );
      const nb = JSON.parse(await Deno.readTextFile(r.file)) as NotebookJson;
      const outputs = nb.cells.flatMap((c) => c.outputs ?? []);
      assert.ok(!outputs.some((o) => (o as { output_type: string }).output_type === "error"));
      const text = JSON.stringify(outputs);
      assert.match(text, /sample run/);
      assert.match(text, /Not the real corpus: judged on the bundled sample .* as asked/);
      assert.match(text, /sample run against ltr \(kit\)/);
      // Opened alone, the sections with nothing to show say so in one line.
      assert.match(text, /Every system has one run/);
      assert.match(text, /written by \.\/kit report, not by this notebook alone/);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

realDataTest(
  "repro: a real-corpus run given with no --data is judged on the fetched corpus; --data sample refuses it naming --data real",
  "wikiqa",
  async (corpus) => {
    const dir = await Deno.makeTempDir();
    try {
      const s = await scoreSplit("lexical:bm25", "wikiqa", "test", {
        filter: "clean",
        dir: corpus,
      });
      await Deno.writeTextFile(
        `${dir}/bm25.run`,
        [...formatRun(runFromScores(s.questions, s.scores), "bm25")].join(""),
      );
      const r = await runCli(
        ["report", "--no-pdf", "--run", "mine=bm25.run", "--out", "R"],
        { cwd: dir },
      );
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /system "mine": MAP 0\.5931 MRR 0\.6024/);
      assert.match(r.stderr, /your systems: wikiqa test \(clean\), the fetched corpus/);
      const summary = JSON.parse(await Deno.readTextFile(`${dir}/R/summary.json`));
      assert.deepEqual(summary.notebooks.map((n: { name: string }) => n.name), ["00-your-systems"]);
      // No model scored: no runs/ folder.
      await assert.rejects(() => Deno.stat(`${dir}/R/runs`), Deno.errors.NotFound);
      const sample = await runCli(
        ["report", "--no-pdf", "--data", "sample", "--run", "mine=bm25.run", "--out", "S"],
        { cwd: dir },
      );
      assert.equal(sample.code, 2, sample.stderr);
      assert.match(
        sample.stderr,
        /bm25\.run: only \d of the run's 237 question ids .*\(the bundled sample.*evaluate on the fetched corpus \(--data real\)/,
      );
      await assert.rejects(() => Deno.stat(`${dir}/S`), Deno.errors.NotFound);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
);
