/**
 * System names are text on the report's pages: `./kit report` with names that read like TeX
 * (`$x^2$`, `a\textbf{b}_c`) builds (before, KaTeX typeset the first as a formula and the page
 * check failed the build on the second), and Chromium shows both as typed, in the tables, the
 * figures' legends and the index, never inside a formula.
 */
import assert from "node:assert/strict";
import { launchBrowser, offlinePage } from "../../lib/report/check/browser.ts";
import { runCli } from "../helpers.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const SAMPLE_RUN = `${ROOT}/data/samples/runs/wikiqa-test.run`;
const resources = { sanitizeResources: false, sanitizeOps: false };

/** Page script: what a reader sees of the names (table cells, legends, notes) and formulas. */
const SHOWN = `({
  cells: [...document.querySelectorAll(".kit-table td, .kit-table th")].map((e) => e.textContent),
  legends: [...document.querySelectorAll(".legendtext")].map((e) => e.textContent),
  typesetInTables: document.querySelectorAll(".kit-table .katex, .kit-note .katex").length,
  formulas: [...document.querySelectorAll(".katex-mathml annotation")].map((e) => e.textContent),
})`;

Deno.test({
  name: "report: names with $...$ and TeX commands build, and the page shows them as typed",
  ...resources,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-tex-names-" });
    try {
      // A second system: the sample run with its scores reversed, its tag TeX-like too.
      const lines = (await Deno.readTextFile(SAMPLE_RUN)).trim().split("\n");
      await Deno.writeTextFile(
        `${dir}/other.run`,
        lines.map((l) => {
          const [q, z, d, rank, score] = l.split(/\s+/);
          return `${q} ${z} ${d} ${rank} ${(1 - Number(score)).toFixed(2)} $t$\\tag\n`;
        }).join(""),
      );
      const names = ["$x^2$", "a\\textbf{b}_c"];
      const r = await runCli([
        "report",
        "--data",
        "sample",
        "--run",
        `${names[0]}=${SAMPLE_RUN}`,
        "--run",
        `${names[1]}=other.run`,
        "--no-pdf",
        "--no-slides",
        "--out",
        "out",
      ], { cwd: dir });
      assert.equal(r.code, 0, r.stderr);
      const session = await launchBrowser();
      try {
        const { page } = await offlinePage(session);
        await page.goto(`file://${dir}/out/html/00-your-systems.html`, { waitUntil: "load" });
        await page.waitForFunction(`[...document.querySelectorAll(".kit-plotly")]
          .every((d) => d.querySelector("svg.main-svg"))`);
        const shown = await page.evaluate(SHOWN) as {
          cells: string[];
          legends: string[];
          typesetInTables: number;
          formulas: string[];
        };
        for (const name of names) {
          assert.ok(shown.cells.includes(name), `${name} not in a table: ${shown.cells}`);
          assert.ok(shown.legends.includes(name), `${name} not in a legend: ${shown.legends}`);
        }
        assert.ok(!shown.formulas.includes("x^2"), "the name typeset as a formula");
        assert.equal(shown.typesetInTables, 0);
        await page.goto(`file://${dir}/out/index.html`, { waitUntil: "load" });
        const index = await page.evaluate("document.body.innerText") as string;
        for (const name of names) assert.ok(index.includes(name), `${name} not on the index`);
      } finally {
        await session.close();
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
