/**
 * Page 00 is a notebook that only renders a report: its first code cell is the spec and the
 * one call that computes (or, under `./kit report`, reads) the report; then every section of
 * `SECTIONS`, in order, is one Markdown cell (its heading and prose) and one code cell
 * `await showSection(report, "NAME")`, both tagged `section:NAME`. The page's prose is in
 * those Markdown cells, not in code. The guard of "Adding a section of the systems page"
 * (docs/CONVENTIONS.md): a section added to `SECTIONS` without its cells, or cells without
 * the section, fail here. A section with nothing to show is one line when run alone, and left
 * out of the report's page.
 */
import assert from "node:assert/strict";
import { PROJECT_ROOT, SAMPLES_DIR } from "../../lib/data/paths.ts";
import { loadQrcdSplit } from "../../lib/qrcd/load.ts";
import { overlapBaseline } from "../../lib/qrcd/baseline.ts";
import { writeSpanRun } from "../../lib/qrcd/runfile.ts";
import { withoutStandaloneOrEmptySections } from "../../lib/report/build/build.ts";
import { evaluateSystems, SECTIONS } from "../../lib/report/systems/report.ts";
import { sectionItems } from "../../lib/report/systems/show.ts";

interface Cell {
  cell_type: string;
  source: string[] | string;
  metadata: { tags?: string[] };
}

const text = (s: string[] | string) => Array.isArray(s) ? s.join("") : s;

Deno.test("notebook 00: the spec cell, then one Markdown and one showSection cell per section, in order", async () => {
  const nb = JSON.parse(
    await Deno.readTextFile(`${PROJECT_ROOT}/notebooks/00-your-systems.ipynb`),
  ) as { cells: Cell[] };
  const [title, intro, alone, spec, ...rest] = nb.cells;
  assert.equal(title.cell_type, "markdown");
  // The protocol's introduction: on a page with answer-selection results only.
  assert.deepEqual(intro.metadata.tags, ["answer-selection"]);
  assert.match(text(intro.source), /^Your answer-selection systems judged as TANDA/);
  // What only a reader who opened the notebook alone needs (the report leaves it out).
  assert.deepEqual(alone.metadata.tags, ["standalone"]);
  assert.match(text(alone.source), /Opened here, the\s+page evaluates the spec of the next cell/);
  assert.match(text(spec.source), /^\/\/ The spec/);
  assert.match(text(spec.source), /const report = await systemsReportFor\(SPEC\);$/);
  const tagged = rest.filter((c) => c.metadata.tags?.some((t) => t.startsWith("section:")));
  const sections = tagged.filter((c) => c.cell_type === "code").map((c) =>
    /^await showSection\(report, "([a-z0-9]+)"\);$/.exec(text(c.source))?.[1]
  );
  assert.deepEqual(sections, [...SECTIONS], "one showSection cell per section, in order");
  for (const name of SECTIONS) {
    const cells = tagged.filter((c) => c.metadata.tags!.includes(`section:${name}`));
    assert.deepEqual(cells.map((c) => c.cell_type), ["markdown", "code"], name);
    assert.match(text(cells[0].source), /^## \S/, `${name}: its heading`);
    assert.ok(text(cells[0].source).split(/\s+/).length > 25, `${name}: its prose`);
  }
  // No prose built in code: every code cell but the spec is the one call.
  for (const c of rest.filter((c) => c.cell_type === "code")) {
    assert.equal(text(c.source).split("\n").length, 1, text(c.source));
  }
});

Deno.test("every section renders from a report that has it; a section without content is one line, and left out of the page", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // Seeds (two runs of one system) and a QRCD run: every section has something.
    await writeSpanRun(
      `${dir}/qrcd.json`,
      overlapBaseline(await loadQrcdSplit("dev", { dir: SAMPLES_DIR })),
    );
    const sample = await Deno.readTextFile(`${SAMPLES_DIR}/runs/wikiqa-test.run`);
    await Deno.writeTextFile(`${dir}/seed1.run`, sample);
    await Deno.writeTextFile(
      `${dir}/seed2.run`,
      sample.replace(/^(\S+ \S+ \S+ \S+ )(\S+)/gm, (_, head, score) => `${head}${-score}`),
    );
    const full = await evaluateSystems({
      data: "sample",
      systems: [{ name: "seeds", runs: ["seed*.run"] }],
      qrcd: { runs: [{ name: "q", path: "qrcd.json" }] },
    }, { base: dir, bootstrapSamples: 200 });
    for (const s of ["spread", "qrcd", "significance", "pair", "published"] as const) {
      assert.ok(full.sections.includes(s), s);
    }
    for (const s of full.sections) {
      const items = sectionItems(full, s);
      assert.ok(items.length >= 1, s);
    }
    // One system, one run, no QRCD: spread and qrcd have nothing; run alone they say so.
    const one = await evaluateSystems({
      data: "sample",
      baselines: false,
      systems: [{ name: "mine", runs: [`${SAMPLES_DIR}/runs/wikiqa-test.run`] }],
    }, { bootstrapSamples: 200 });
    for (const s of ["spread", "qrcd", "significance", "pair"] as const) {
      assert.ok(!one.sections.includes(s), s);
      const items = sectionItems(one, s);
      assert.equal(items.length, 1, s);
    }
    // The report leaves their cells out of the page.
    const nb = JSON.parse(
      await Deno.readTextFile(`${PROJECT_ROOT}/notebooks/00-your-systems.ipynb`),
    ) as { cells: Cell[] };
    const kept = withoutStandaloneOrEmptySections(nb, one.sections).cells;
    const tags = kept.flatMap((c) => c.metadata.tags ?? []);
    assert.ok(!tags.includes("section:spread") && !tags.includes("section:qrcd"));
    assert.ok(tags.includes("section:results"));
    // The empty sections (a Markdown and a code cell each) and the standalone note go.
    assert.equal(kept.length, nb.cells.length - 2 * (SECTIONS.length - one.sections.length) - 1);
    // A page of QRCD runs alone: no answer-selection introduction either.
    const qrcdOnly = withoutStandaloneOrEmptySections(nb, ["systems", "qrcd", "files"]).cells;
    assert.ok(!qrcdOnly.some((c) => c.metadata.tags?.includes("answer-selection")));
    assert.equal(qrcdOnly.length, 2 + 2 * 3); // the title, the spec cell, three sections
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
