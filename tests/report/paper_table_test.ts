/**
 * `paperTables` (lib/report/systems/paper_table.ts), on a real report of the bundled sample:
 * four systems of yours (the sample run, an oracle run named with every LaTeX special, the
 * oracle reversed, and a copy of the oracle) and the kit's two baselines. Checked, each against
 * the report itself: every number of systems.tex and systems.md is the report's mean or bound
 * within half a unit of the 4th decimal; the bold cells are the best of each measure; the marks
 * are the family's significant tests, counted here from `family.tests` (a test marks the pairs
 * of its `same` too: the copy's P@1 beats the reversed oracle's by the oracle's test); the
 * caption names the test, the correction, m, alpha, the questions and the corpus. One system:
 * no marks, no test said.
 *
 * systems.tex is compiled by pdflatex (Debian texlive-latex-base and texlive-latex-recommended,
 * tools/ci-packages.txt) in a document that loads booktabs only; pdftotext (poppler-utils) reads
 * the name back out of the PDF. Without pdflatex the compile test is ignored, saying why, unless
 * `QA_KIT_REQUIRE_PDFLATEX=1` (set by .ci/run) makes that a failure.
 */
import assert from "node:assert/strict";
import { SAMPLES_DIR } from "../../lib/data/paths.ts";
import { latexText, markdownText } from "../../lib/io/escape.ts";
import { paperTables } from "../../lib/report/systems/paper_table.ts";
import { evaluateSystems, type SystemsReport } from "../../lib/report/systems/report.ts";

const SAMPLE_RUN = `${SAMPLES_DIR}/runs/wikiqa-test.run`;
const QRELS = `${SAMPLES_DIR}/runs/wikiqa-test-clean.qrels`;
/** Every character LaTeX treats specially, in one system name. */
const SPECIAL = "a_b & 50% #1 $x$ {y} ~^\\";
const REQUIRED = Deno.env.get("QA_KIT_REQUIRE_PDFLATEX") === "1";

/** The sample run with each candidate scored by `score(relevant)` (unjudged: as it was). */
async function scoredCopy(dir: string, name: string, score: (rel: boolean) => number) {
  const rel = new Map(
    (await Deno.readTextFile(QRELS)).trim().split("\n").map((l) => l.split(/\s+/))
      .map(([q, , d, r]) => [`${q} ${d}`, r !== "0"]),
  );
  const text = (await Deno.readTextFile(SAMPLE_RUN)).replace(
    /^(\S+) (\S+) (\S+) (\S+) \S+/gm,
    (line, q, q0, d, rank) => {
      const r = rel.get(`${q} ${d}`);
      return r === undefined ? line : `${q} ${q0} ${d} ${rank} ${score(r)}`;
    },
  );
  await Deno.writeTextFile(`${dir}/${name}.run`, text);
  return `${dir}/${name}.run`;
}

let cached: Promise<SystemsReport> | undefined;
/** The report of the four systems and the baselines (computed once for the tests below). */
function report(): Promise<SystemsReport> {
  cached ??= (async () => {
    const dir = await Deno.makeTempDir({ prefix: "kit-paper-" });
    try {
      const oracle = await scoredCopy(dir, "oracle", (r) => r ? 1 : 0);
      const reversed = await scoredCopy(dir, "reversed", (r) => r ? 0 : 1);
      return await evaluateSystems({
        data: "sample",
        systems: [
          { name: "mine", runs: [SAMPLE_RUN] },
          { name: SPECIAL, runs: [oracle] },
          { name: "reversed oracle", runs: [reversed] },
          { name: "oracle copy", runs: [oracle] },
        ],
      }, { bootstrapSamples: 200 });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  })();
  return cached;
}

/** One parsed cell: the printed mean and bounds, bold or not, the mark letters. */
interface Parsed {
  mean: string;
  lower: string;
  upper: string;
  bold: boolean;
  marks: string;
}

const NUMBER = String.raw`(\d+\.\d{4})`;

/** systems.tex's rows: letter, name as written, a cell per measure (mean line + bounds line). */
function parseTex(tex: string): { letter: string; name: string; cells: Parsed[] }[] {
  const body = tex.slice(tex.indexOf("\\midrule"), tex.indexOf("\\bottomrule")).split("\n")
    .filter((l) => l.endsWith(" \\\\"));
  const rows = [];
  const mean = new RegExp(String.raw`^(\\textbf\{)?${NUMBER}\}?(?:\\textsuperscript\{(\w+)\})?$`);
  const bounds = new RegExp(String.raw`^\{\\scriptsize \[${NUMBER}, ${NUMBER}\]\}$`);
  for (let i = 0; i < body.length; i += 2) {
    const split = (l: string) => l.slice(0, -3).split(/(?<!\\)&/).map((c) => c.trim());
    const [letter, name, ...means] = split(body[i]);
    const [, , ...intervals] = split(body[i + 1]);
    rows.push({
      letter,
      name,
      cells: means.map((c, k) => {
        const m = mean.exec(c), b = bounds.exec(intervals[k]);
        assert(m && b, `a cell of systems.tex: ${c} / ${intervals[k]}`);
        return { mean: m[2], lower: b[1], upper: b[2], bold: !!m[1], marks: m[3] ?? "" };
      }),
    });
  }
  return rows;
}

/** systems.md's rows, as {@link parseTex}. */
function parseMd(md: string): { letter: string; name: string; cells: Parsed[] }[] {
  const cell = new RegExp(
    String.raw`^(\*\*)?${NUMBER}(?:\*\*)?(?:<sup>(\w+)</sup>)? \[${NUMBER}, ${NUMBER}\]$`,
  );
  return md.split("\n\n")[0].split("\n").slice(2).map((line) => {
    const [letter, name, ...cells] = line.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
    return {
      letter,
      name,
      cells: cells.map((c) => {
        const m = cell.exec(c);
        assert(m, `a cell of systems.md: ${c}`);
        return { mean: m[2], lower: m[4], upper: m[5], bold: !!m[1], marks: m[3] ?? "" };
      }),
    };
  });
}

/**
 * Per system, per measure: the letters of the systems it beats, from the family's tests and the
 * per-question values alone: a significant test's winner and every system with the winner's
 * values on every question, against its loser and every system with the loser's.
 */
function expectedMarks(r: SystemsReport): Map<string, string> {
  const letters = new Map(r.systems.map((s, i) => [s.name, String.fromCharCode(97 + i)]));
  const vector = (name: string, m: string) => {
    const q = r.systems.find((s) => s.name === name)!.perQuery;
    return Object.keys(q).sort().map((id) => q[id][m]).join();
  };
  const alike = (name: string, m: string) =>
    r.systems.filter((s) => vector(s.name, m) === vector(name, m)).map((s) => s.name);
  const beaten = new Map<string, string[]>();
  for (const t of r.family?.tests ?? []) {
    if (!t.significant) continue;
    const [w, l] = t.difference > 0 ? [t.a, t.b] : [t.b, t.a];
    for (const winner of alike(w, t.measure)) {
      const key = `${winner}\n${t.measure}`;
      beaten.set(key, [
        ...beaten.get(key) ?? [],
        ...alike(l, t.measure).map((x) => letters.get(x)!),
      ]);
    }
  }
  return new Map([...beaten].map(([k, v]) => [k, [...new Set(v)].sort().join("")]));
}

/** Checks one format's parsed rows against the report. */
function checkRows(
  r: SystemsReport,
  rows: ReturnType<typeof parseTex>,
  name: (s: string) => string,
) {
  assert.equal(rows.length, r.systems.length);
  const marks = expectedMarks(r);
  const within = (printed: string, value: number) =>
    assert(Math.abs(Number(printed) - value) <= 0.5e-4 + 1e-12, `${printed} is not ${value}`);
  r.systems.forEach((s, i) => {
    assert.equal(rows[i].letter, String.fromCharCode(97 + i));
    assert.equal(rows[i].name, name(s.name));
    r.measures.forEach((m, k) => {
      const c = rows[i].cells[k];
      within(c.mean, s.mean[m.name]);
      within(c.lower, s.interval[m.name].lower);
      within(c.upper, s.interval[m.name].upper);
      assert.equal(c.marks, marks.get(`${s.name}\n${m.name}`) ?? "", `${s.name} ${m.label}`);
    });
  });
  r.measures.forEach((m, k) => {
    const best = r.systems.reduce(
      (b, s, i) => s.mean[m.name] > r.systems[b].mean[m.name] ? i : b,
      0,
    );
    const printed = rows[best].cells[k].mean;
    assert(rows[best].cells[k].bold, `the best ${m.label} is bold`);
    rows.forEach((row) => assert.equal(row.cells[k].bold, row.cells[k].mean === printed));
  });
}

Deno.test("paperTables: every number, bold cell and mark is the report's, both formats", async () => {
  const r = await report();
  const { tex, md } = paperTables(r);
  // The report makes marks to check: the oracle beats the reversed oracle on P@1 (a difference
  // of 1 on every question), and the copy's pair is that test's `same`, marked alike.
  const marks = expectedMarks(r);
  assert.equal(marks.get(`${SPECIAL}\nP_1`)?.includes("c"), true);
  assert.equal(marks.get(`oracle copy\nP_1`)?.includes("c"), true);
  assert(r.family!.identical.some((p) => p.a === SPECIAL && p.b === "oracle copy"));
  // Where the family lists one test's other spellings (`same`), the copy's pair is one of them.
  const p1 = r.family!.tests.find((t) => t.measure === "P_1" && t.a === SPECIAL) as {
    b: string;
    same?: [string, string][];
  };
  if (p1.same) {
    assert.equal(p1.b, "reversed oracle");
    assert.deepEqual(p1.same, [["oracle copy", "reversed oracle"]]);
  }
  checkRows(r, parseTex(tex), latexText);
  checkRows(r, parseMd(md), markdownText);
  assert(tex.includes(`b & ${latexText(SPECIAL)} & `));
  assert(md.includes(`| b | ${markdownText(SPECIAL)} | `));
  assert(tex.includes("\\label{tab:systems}") && tex.includes("\n\\begin{table}"));
  assert(tex.startsWith("% The systems table of a report") && /XeLaTeX or LuaLaTeX/.test(tex));
  // The caption, in both: the test, the correction, m, alpha, the questions, the corpus, the
  // intervals; the oracle and its copy not tested (identical on every measure).
  const f = r.family!;
  const sizes = new Set(Object.values(f.sizes));
  const caption = md.split("\n\n")[1];
  for (
    const words of [
      "paired t-test, two-sided",
      "Bonferroni over the family",
      "distinct tests per measure",
      `${r.corpus!.questions} questions of the bundled sample of wikiqa test (clean)`,
      "95% percentile bootstrap interval",
      "(200 resamples, seed 42), 4 decimals",
      "one system in the tests: b = d",
    ]
  ) {
    assert(caption.includes(markdownText(words)), `the Markdown caption says ${words}`);
    assert(tex.includes(latexText(words)), `the LaTeX caption says ${words}`);
  }
  // alpha and m as maths in LaTeX, as text in Markdown.
  assert(tex.includes(`$\\alpha = ${f.alpha}$`) && caption.includes(`alpha = ${f.alpha}`));
  if (sizes.size === 1) assert(tex.includes(`$m = ${[...sizes][0]}$`));
  assert(!tex.includes(SPECIAL) && !md.includes(SPECIAL), "the name is only written escaped");
});

Deno.test("paperTables: one system: no family, no marks, the caption says there is no test", async () => {
  const r = await evaluateSystems({
    data: "sample",
    baselines: false,
    systems: [{ name: SPECIAL, runs: [SAMPLE_RUN] }],
  }, { bootstrapSamples: 200 });
  assert.equal(r.family, undefined);
  const { tex, md } = paperTables(r);
  checkRows(r, parseTex(tex), latexText);
  checkRows(r, parseMd(md), markdownText);
  assert(md.includes("No significance test: a single system"));
  assert(!tex.includes("textsuperscript") && !md.includes("<sup>"));
});

/** Whether a program runs (`-v`, its version). */
function runs(program: string): boolean {
  try {
    return new Deno.Command(program, { args: ["-v"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

const PDFLATEX = runs("pdflatex");
const COMPILE = "paperTables: systems.tex compiles with pdflatex and booktabs alone";
if (!PDFLATEX && !REQUIRED) {
  console.error(
    `skipping "${COMPILE}": no pdflatex (apt-get install texlive-latex-base texlive-latex-recommended)`,
  );
}

Deno.test({
  name: COMPILE,
  ignore: !PDFLATEX && !REQUIRED,
  async fn() {
    if (!PDFLATEX) {
      throw new Error(
        "no pdflatex but QA_KIT_REQUIRE_PDFLATEX=1: apt-get install texlive-latex-base " +
          "texlive-latex-recommended (tools/ci-packages.txt)",
      );
    }
    const dir = await Deno.makeTempDir({ prefix: "kit-paper-tex-" });
    try {
      await Deno.writeTextFile(`${dir}/systems.tex`, paperTables(await report()).tex);
      await Deno.writeTextFile(
        `${dir}/paper.tex`,
        "\\documentclass{article}\\usepackage{booktabs}\\begin{document}\\input{systems.tex}" +
          "\\end{document}\n",
      );
      const out = await new Deno.Command("pdflatex", {
        args: ["-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
        cwd: dir,
        // The bitmap font pdflatex makes for `~` and `^` (METAFONT's TS1 glyphs) is made in
        // the folder, not in $HOME (which need not be writable).
        env: { TEXMFVAR: `${dir}/texmf-var` },
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const log = new TextDecoder().decode(out.stdout);
      assert.equal(out.code, 0, `pdflatex failed:\n${log.slice(-3000)}`);
      const pdf = await Deno.readFile(`${dir}/paper.pdf`);
      assert.equal(new TextDecoder().decode(pdf.slice(0, 5)), "%PDF-");
      if (!runs("pdftotext")) {
        console.error("no pdftotext (poppler-utils): the name is checked in systems.tex only");
        return;
      }
      const text = await new Deno.Command("pdftotext", { args: ["paper.pdf", "-"], cwd: dir })
        .output();
      assert(text.success, "pdftotext failed");
      // The name as the default (OT1) fonts set it: `\_` is a rule (no character in the PDF's
      // text), `~` and `^` are the accents ˜ and ˆ; every other character is itself.
      const shown = SPECIAL.replace("_", " ").replace("~", "\u02dc").replace("^", "\u02c6");
      const flat = new TextDecoder().decode(text.stdout).replace(/\s+/g, " ");
      assert(flat.includes(shown), `the PDF shows ${shown}: ${flat.slice(0, 400)}`);
      assert(flat.includes("paired t-test, two-sided"));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
