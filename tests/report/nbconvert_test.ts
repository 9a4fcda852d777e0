/**
 * Plain `jupyter nbconvert --to html --execute`, the command a user types, on every notebook:
 * each code cell must get the outputs the kit's own runner gets (the Deno kernel can report a
 * cell done before its outputs, and nbclient, under both, drops late ones silently: the awaited
 * `display` is the one cure), and the exported page must draw every figure offline in Chromium
 * with plotly.js in it once. One run per notebook (sample data);
 * notebook 00 (your systems) is run as a user opens it: from a folder outside the project,
 * on the spec of its first cell, against the kit's runner given the report `./kit report`
 * computes for that spec.
 * `deno run -A tools/nbconvert_repeat.ts --runs 3` repeats it.
 */
import assert from "node:assert/strict";
import { PROJECT_ROOT, SAMPLES_DIR } from "../../lib/data/paths.ts";
import { type BrowserSession, launchBrowser } from "../../lib/report/check/browser.ts";
import { listNotebooks, SYSTEMS_NOTEBOOK } from "../../lib/report/build/build.ts";
import { evaluateSystems } from "../../lib/report/systems/report.ts";
import { writeSystemsFiles } from "../../lib/report/systems/files.ts";
import { executeNotebook, type NotebookParams } from "../../lib/report/build/execute.ts";
import {
  checkHtmlExport,
  outputsPerCell,
  type PlainRunOptions,
  runPlainNbconvert,
} from "./plain_nbconvert.ts";

/**
 * Runs `name` with the kit's runner (`params`) and with plain nbconvert (`params`, then
 * `plain`), and checks the plain page against the runner's notebook; returns the page's HTML.
 */
async function checkPlainAgainstRunner(
  session: BrowserSession,
  dir: string,
  name: string,
  params: NotebookParams,
  plain: PlainRunOptions = {},
): Promise<string> {
  const input = `${PROJECT_ROOT}/notebooks/${name}`;
  const reference = await executeNotebook(input, `${dir}/kit-${name}`, params);
  const executed = await Deno.readTextFile(reference.output);
  const expected = outputsPerCell(executed);
  const figures = executed.split('"application/vnd.plotly.v1+json"').length - 1;

  const run = await runPlainNbconvert(input, dir, { data: params.data }, "html", plain);
  const page = await checkHtmlExport(session, run.file);
  assert.deepEqual(page.outputsPerCell, expected, `${name}: outputs per code cell`);
  assert.equal(page.figures.length, figures, `${name}: figures on the page`);
  for (const f of page.figures) assert.ok(f.svg && f.marks > 0, `${name}: ${f.id} not drawn`);
  assert.equal(page.libraryCopies, figures > 0 ? 1 : 0, `${name}: plotly.js copies`);
  assert.deepEqual(page.log.pageErrors, [], `${name}: script errors`);
  assert.deepEqual(page.log.blockedRequests, [], `${name}: network requests`);
  return await Deno.readTextFile(run.file);
}

Deno.test({
  name: "plain nbconvert --to html --execute keeps every output and draws every figure",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-nbconvert-" });
    const session = await launchBrowser();
    try {
      // Notebook 00, on your systems: the next test.
      const names = listNotebooks(`${PROJECT_ROOT}/notebooks`);
      for (const name of names) {
        await checkPlainAgainstRunner(session, dir, name, { data: "sample" });
      }
    } finally {
      await session.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name:
    "notebook 00 under plain nbconvert from another folder: its own spec, the outputs of the report's",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-nbconvert-00-" });
    const outside = `${dir}/my runs`;
    await Deno.mkdir(outside, { recursive: true });
    const session = await launchBrowser();
    try {
      // The runner gets what ./kit report hands page 00: the report of the same spec as the
      // notebook's first cell (the bundled sample run), computed once and written.
      const report = await evaluateSystems({
        data: "sample",
        systems: [{ name: "sample run", runs: [`${SAMPLES_DIR}/runs/wikiqa-test.run`] }],
      });
      const systemsReport = await writeSystemsFiles(report, dir);
      const html = await checkPlainAgainstRunner(session, dir, SYSTEMS_NOTEBOOK, {
        data: "sample",
        systemsReport,
      }, {
        // As typed in a shell in another folder, with nothing set for the kit.
        cwd: outside,
        env: { KIT_SYSTEMS_REPORT: "", PWD: outside, INIT_CWD: "" },
      });
      assert.match(html, /<td[^>]*>sample run</, "the first cell's system is on the page");
      assert.match(html, /wikiqa-test\.run/);
    } finally {
      await session.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
