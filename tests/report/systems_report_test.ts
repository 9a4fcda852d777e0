/**
 * `evaluateSystems`: the systems report as plain data, computed once. The family of tests is
 * the pairs you asked about (never baseline against baseline); the pair of the error analysis
 * is your two best, with wins / losses / ties and the sign test counted by hand; every
 * published row the kit knows for the split, and a gap explained when your system carries a
 * published name; the corpus chosen (the installed one, else the sample, said); one default
 * number of bootstrap resamples.
 */
import assert from "node:assert/strict";
import { SAMPLES_DIR } from "../../lib/data/paths.ts";
import { bootstrapCI, DEFAULT_BOOTSTRAP_SAMPLES } from "../../lib/stats/significance.ts";
import { evaluateSystems } from "../../lib/report/systems/report.ts";
import { sectionItems } from "../../lib/report/systems/show.ts";
import { familyRows } from "../../lib/report/systems/sections/significance.ts";
import { NOT_TESTED } from "../../lib/stats/family.ts";
import { pairOutcomes } from "../../lib/report/systems/pair_data.ts";
import { identicalSystems, testName } from "../../lib/stats/family.ts";
import { DISPLAY, type Displayable } from "../../lib/plot/display.ts";

const SAMPLE_RUN = `${SAMPLES_DIR}/runs/wikiqa-test.run`;

/** The sample run with every score negated: another ranking of the same candidates. */
async function reversedRun(): Promise<string> {
  const file = await Deno.makeTempFile({ suffix: ".run" });
  const text = await Deno.readTextFile(SAMPLE_RUN);
  await Deno.writeTextFile(
    file,
    text.replace(/^(\S+ \S+ \S+ \S+ )(\S+)/gm, (_, head, score) => `${head}${-score}`),
  );
  return file;
}

Deno.test("evaluateSystems: the family is your pairs; the pair is your two best, counted by hand", async () => {
  const other = await reversedRun();
  try {
    const report = await evaluateSystems({
      data: "sample",
      systems: [{ name: "mine", runs: [SAMPLE_RUN] }, { name: "reversed", runs: [other] }],
    });
    // Plain data: JSON as it is.
    assert.deepEqual(JSON.parse(JSON.stringify(report)), report);
    // One default number of resamples, the library's (the page drew 2,000, bootstrapCI 10,000).
    assert.equal(report.procedures.bootstrapSamples, DEFAULT_BOOTSTRAP_SAMPLES);
    assert.equal(DEFAULT_BOOTSTRAP_SAMPLES, 10_000);
    assert.match(bootstrapCI([0, 1]).method, /10000 samples/);
    // The family: your two systems against each other and each against each baseline; the
    // baselines against each other are not in it (before: every pair, Holm over 6).
    const f = report.family!;
    assert.deepEqual(f.pairs, [
      ["mine", "reversed"],
      ["mine", "BM25 (kit)"],
      ["mine", "ltr (kit)"],
      ["reversed", "BM25 (kit)"],
      ["reversed", "ltr (kit)"],
    ]);
    assert.equal(f.size, 5);
    assert.equal(f.tests.length, 5 * 4);
    const byName = new Map(report.systems.map((s) => [s.name, s]));
    for (const t of f.tests) {
      const a = byName.get(t.a)!.perQuery, b = byName.get(t.b)!.perQuery;
      const ids = Object.keys(a);
      const d = ids.map((q) => a[q][t.measure] - b[q][t.measure]);
      assert.ok(Math.abs(t.difference - d.reduce((s, x) => s + x, 0) / d.length) < 1e-12);
      assert.equal(t.pAdjusted, Math.min(1, 5 * t.p));
      assert.equal(t.significant, t.lower > 0 || t.upper < 0);
    }
    // The pair: your two best by MAP (before: your best against "ltr (kit)").
    const mine = byName.get("mine")!, reversed = byName.get("reversed")!;
    const [best, second] = mine.mean.map >= reversed.mean.map ? [mine, reversed] : [reversed, mine];
    const pair = report.pair!;
    assert.deepEqual([pair.a, pair.b, pair.reason], [
      best.name,
      second.name,
      "your two best systems by MAP",
    ]);
    for (const o of pair.outcomes) {
      const ids = Object.keys(best.perQuery);
      const x = ids.map((q) => best.perQuery[q][o.measure]);
      const y = ids.map((q) => second.perQuery[q][o.measure]);
      const wins = x.filter((v, i) => v > y[i]).length;
      const losses = x.filter((v, i) => v < y[i]).length;
      assert.deepEqual([o.wins, o.losses, o.ties], [wins, losses, ids.length - wins - losses]);
      // The sign test by enumeration of every sequence of wins and losses.
      const m = wins + losses;
      let extreme = 0;
      for (let mask = 0; mask < 2 ** m; mask++) {
        let w = 0;
        for (let i = 0; i < m; i++) w += (mask >>> i) & 1;
        if (Math.abs(2 * w - m) >= Math.abs(wins - losses)) extreme++;
      }
      assert.equal(o.signP, extreme / 2 ** m, o.measure);
      // The paired test beside it is the family's, adjusted too.
      const t = f.tests.find((t) =>
        t.measure === o.measure && [t.a, t.b].sort().join() === [pair.a, pair.b].sort().join()
      )!;
      assert.deepEqual([o.p, o.pAdjusted], [t.p, t.pAdjusted]);
    }
    // What the page has to show: no spread (one run each), no QRCD.
    assert.ok(!report.sections.includes("spread") && !report.sections.includes("qrcd"));
    assert.ok(report.sections.includes("significance") && report.sections.includes("pair"));
    // The sample said: asked for here.
    assert.match(report.corpus!.sampleNote!, /bundled sample of wikiqa test .* as asked/);
  } finally {
    await Deno.remove(other);
  }
});

Deno.test("evaluateSystems: every published row for the split; a published name gets its gap and the known reason", async () => {
  const report = await evaluateSystems({
    data: "sample",
    baselines: false,
    systems: [{ name: "CNN-Cnt (released file)", runs: [SAMPLE_RUN] }],
  });
  const rows = report.published.rows.map((r) => `${r.system} ${r.map} ${r.mrr ?? "-"}`);
  assert.deepEqual(rows, [
    "Word Cnt 0.4891 0.4924",
    "Wgt Word Cnt 0.5099 0.5132",
    "LCLR 0.5993 0.6086",
    "CNN 0.619 0.6281",
    "CNN-Cnt 0.652 0.6652",
    "TANDA RoBERTa-L 0.92 0.933",
    "previous best (cited by TANDA) 0.834 -",
  ]);
  const [gap] = report.published.gaps;
  assert.equal(gap.published, "CNN-Cnt");
  assert.equal(gap.why, "name");
  assert.equal(gap.mapGap, gap.map - 0.652);
  assert.match(
    gap.explanation,
    /released rank file .* 0\.6591.*the released file, not the scorer/,
  );
  // One system alone: no family, no pair without a baseline.
  assert.equal(report.family, undefined);
  assert.ok(!report.sections.includes("significance"));
  // TREC-QA test: its two rows; another split: none (every published number is on test).
  const trec = await evaluateSystems({
    data: "sample",
    dataset: "trecqa",
    baselines: false,
    systems: [{ name: "bm25", model: "lexical:bm25" }],
  });
  assert.deepEqual(trec.published.rows.map((r) => r.map), [0.943, 0.875]);
  const dev = await evaluateSystems({
    data: "sample",
    split: "dev",
    baselines: false,
    systems: [{ name: "bm25", model: "lexical:bm25" }],
  });
  assert.deepEqual(dev.published.rows, []);
});

Deno.test("the corpus: the installed one by default, else the sample, said; 'real' when none is fetched is an error", async () => {
  const empty = await Deno.makeTempDir();
  try {
    const script = `
      import { evaluateSystems } from "${
      new URL("../../lib/report/systems/report.ts", import.meta.url).href
    }";
      const spec = { baselines: false, systems: [{ name: "mine", runs: ["${SAMPLE_RUN}"] }] };
      const r = await evaluateSystems(spec, { bootstrapSamples: 100 });
      console.log(JSON.stringify(r.corpus));
      try { await evaluateSystems({ ...spec, data: "real" }); } catch (e) { console.log(String(e)); }
    `;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", script],
      env: { QA_KIT_DATA_DIR: empty, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const [corpus, error] = new TextDecoder().decode(out.stdout).trim().split("\n");
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    const c = JSON.parse(corpus);
    assert.deepEqual([c.data, c.chosen], ["sample", "default"]);
    assert.match(
      c.sampleNote,
      /not the real corpus: it is not fetched \('\.\/kit data fetch wikiqa', then it is the default\)/,
    );
    assert.match(
      error,
      /KitError: the real wikiqa corpus is not fetched into .*: run '\.\/kit data fetch wikiqa' first/,
    );
  } finally {
    await Deno.remove(empty, { recursive: true });
  }
});

Deno.test("evaluateSystems: the scoring backend is said once the inputs are checked, and only for a model that runs on one", async () => {
  const model = new URL("../fixtures/tiny-model/cross-encoder", import.meta.url).pathname;
  const said = async (systems: { name: string; runs?: string[]; model?: string }[]) => {
    const lines: string[] = [];
    const report = await evaluateSystems(
      { data: "sample", baselines: false, systems },
      { bootstrapSamples: 100, backend: "wasm", log: (l) => lines.push(l) },
    );
    return { report, lines };
  };
  const { report, lines } = await said([
    { name: "mine", runs: [SAMPLE_RUN] },
    { name: "tiny", model },
  ]);
  const backend = lines.filter((l) => l.startsWith("scoring backend: "));
  assert.equal(backend.length, 1, lines.join("\n"));
  assert.match(backend[0], /^scoring backend: wasm /);
  // After the run files were read, before the model was scored.
  assert.ok(lines.findIndex((l) => l.startsWith("your systems: ")) < lines.indexOf(backend[0]));
  assert.ok(lines.indexOf(backend[0]) < lines.findIndex((l) => l.startsWith("scored ")));
  assert.ok(report.systems.some((s) => s.name === "tiny" && s.model === model));
  // The lexical scorers and the ltr ranker run on no backend: nothing to say.
  const lexical = await said([{ name: "bm25", model: "lexical:bm25" }, {
    name: "l",
    model: "ltr",
  }]);
  assert.deepEqual(lexical.lines.filter((l) => l.startsWith("scoring backend: ")), []);
  // A refused input: no backend line before the refusal.
  const refused: string[] = [];
  await assert.rejects(
    () =>
      evaluateSystems({
        data: "sample",
        baselines: false,
        systems: [{ name: "tiny", model }, { name: "gone", runs: ["/nonexistent/x.run"] }],
      }, { backend: "wasm", log: (l) => refused.push(l) }),
  );
  assert.deepEqual(refused.filter((l) => l.startsWith("scoring backend: ")), []);
});

Deno.test("evaluateSystems: a system identical to another on every question is named, not tested, not counted in m", async () => {
  const folder = await Deno.makeTempDir();
  const logged: string[] = [];
  try {
    // The same file under two names, and the kit's BM25 asked for again as your system.
    const report = await evaluateSystems({
      data: "sample",
      systems: [
        { name: "mine", runs: [SAMPLE_RUN] },
        { name: "mine again", runs: [SAMPLE_RUN] },
        { name: "bm25 again", model: "lexical:bm25" },
      ],
    }, { folder, log: (line) => logged.push(line) });
    const f = report.family!;
    assert.equal(f.pairs.length, 3 + 3 * 2);
    const same = identicalSystems(f).map((p) => `${p.a} = ${p.b} ${p.everyMeasure}`);
    assert.deepEqual(same, ["mine = mine again true", "bm25 again = BM25 (kit) true"]);
    // m: the 9 pairs asked are 3 systems ({mine, mine again}, {bm25 again, BM25 (kit)},
    // ltr (kit)) once the identical ones are one: 3 distinct tests, Bonferroni over 3.
    assert.deepEqual(Object.values(f.sizes), f.measures.map(() => 3));
    assert.equal(f.size, 3);
    assert.equal(f.tests.length, 3 * f.measures.length);
    for (const t of f.tests) assert.equal(t.pAdjusted, Math.min(1, 3 * t.p));
    const map = f.tests.filter((t) => t.measure === "map");
    assert.deepEqual(map.map((t) => testName(t)), [
      "mine = mine again – bm25 again = BM25 (kit)",
      "mine = mine again – ltr (kit)",
      "bm25 again – ltr (kit)",
    ]);
    // Said on stderr, on the page (the note beside m, a block naming the two, the rows).
    assert.ok(
      logged.includes(
        'warning: "mine" and "mine again" are identical on every question of every measure ' +
          "(the same run given twice, or a run of a kit baseline?): their pair is not tested and not counted in m",
      ),
      logged.join("\n"),
    );
    // The notes and tables (the figures after them: one per tested pair of MAP).
    const items = sectionItems(report, "significance");
    const text = items.filter((d) => DISPLAY in d).map((d) =>
      String((d as Displayable)[DISPLAY]()["text/plain"])
    );
    assert.equal(items.length - text.length, 3);
    assert.match(
      text[0],
      /^The family: all pairs involving your systems \('all'\), m = 3 distinct tests per measure/,
    );
    assert.match(text[1], /Identical systems:\n- "mine" and "mine again" are identical/);
    assert.match(text[2], /One test asked several times:\n- the pairs "mine" – "bm25 again", /);
    const rows = familyRows(report).filter((r) => r.measure === "MAP");
    const row = rows.find((r) => r.A === "mine" && r.B === "mine again")!;
    assert.equal(row["p adjusted (x m)"], "");
    assert.equal(row.interval, NOT_TESTED);
    // 3 distinct tests and the 2 identical pairs, each shown once; every verdict names m.
    assert.equal(rows.length, 5);
    assert.deepEqual(rows.map((r) => [r.family, r.m]), rows.map(() => ["all", 3]));
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("evaluateSystems: every pair identical (m = 0): the page says no test, names no multiplier", async () => {
  const folder = await Deno.makeTempDir();
  try {
    const report = await evaluateSystems({
      data: "sample",
      baselines: false,
      systems: [{ name: "mine", runs: [SAMPLE_RUN] }, { name: "mine again", runs: [SAMPLE_RUN] }],
    }, { folder, log: () => {} });
    const f = report.family!;
    assert.equal(f.size, 0);
    const text = sectionItems(report, "significance").map((d) =>
      String((d as Displayable)[DISPLAY]()["text/plain"])
    );
    // Before: "Each p is multiplied by 0 (Bonferroni)" and a column "p adjusted (x0)".
    assert.doesNotMatch(text.join("\n"), /multiplied by 0|x0\)/);
    assert.match(
      text[0],
      /Every pair is identical on every question of every measure: no test on any measure \(no p, no interval\)\.$/,
    );
    const rows = familyRows(report);
    assert.equal(rows.length, f.measures.length);
    assert.deepEqual(
      rows.map((r) => [r.interval, r.level, r.p]),
      rows.map(() => [NOT_TESTED, "", ""]),
    );
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("evaluateSystems: the error analysis's pair is not two systems identical on every question", async () => {
  const folder = await Deno.makeTempDir();
  try {
    // The kit's BM25 asked for twice, above the sample run by MAP: your two best are the same.
    const report = await evaluateSystems({
      data: "sample",
      baselines: false,
      systems: [
        { name: "bm25 once", model: "lexical:bm25" },
        { name: "bm25 twice", model: "lexical:bm25" },
        { name: "mine", runs: [SAMPLE_RUN] },
      ],
    }, { folder, log: () => {} });
    const maps = Object.fromEntries(report.systems.map((s) => [s.name, s.mean.map]));
    assert.equal(maps["bm25 once"], maps["bm25 twice"]);
    assert.ok(maps["bm25 once"] > maps.mine, JSON.stringify(maps));
    // Before: "bm25 once" against "bm25 twice", 0 wins, 0 losses, every question a tie.
    const pair = report.pair!;
    assert.deepEqual([pair.a, pair.b], ["bm25 once", "mine"]);
    assert.match(
      pair.reason,
      /next best that is not identical to it on every question \(bm25 twice /,
    );
    const map = pair.outcomes.find((o) => o.measure === "map")!;
    assert.ok(map.wins + map.losses > 0 && !map.identical, JSON.stringify(map));
  } finally {
    await Deno.remove(folder, { recursive: true });
  }
});

Deno.test("pairOutcomes: a pair equal on every question has no paired t (untestable), the sign test's counts only", () => {
  const q = (v: number[]) => new Map(v.map((x, i) => [`q${i}`, { map: x }]));
  const [o] = pairOutcomes({ name: "a", values: q([1, 0.5, 0]) }, {
    name: "b",
    values: q([1, 0.5, 0]),
  }, ["map"]);
  assert.deepEqual(o, {
    measure: "map",
    label: "MAP",
    wins: 0,
    losses: 0,
    ties: 3,
    signP: 1,
    identical: true,
  });
});
