/**
 * Plain `jupyter nbconvert --to html --execute`, the command a user types, on every notebook:
 * each code cell must get the outputs the kit's own runner gets (the Deno kernel can report a
 * cell done before its outputs, and nbclient, under both, drops late ones silently: the awaited
 * `display` is the one cure), and the exported page must draw every figure offline in Chromium
 * with plotly.js in it once. One run per notebook (sample data);
 * notebook 00 (the user's systems) is run the way docs/notebooks.md shows: from a folder
 * outside the project, its systems in `KIT_RUNS` with paths relative to that folder.
 * `deno run -A tools/nbconvert_repeat.ts --runs 3` repeats it.
 */
import assert from "node:assert/strict";
import { PROJECT_ROOT, SAMPLES_DIR } from "../../lib/data/paths.ts";
import { type BrowserSession, launchBrowser } from "../../lib/report/browser.ts";
import { listNotebooks, SYSTEMS_NOTEBOOK } from "../../lib/report/build.ts";
import { executeNotebook, type NotebookParams } from "../../lib/report/execute.ts";
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
      // Notebook 00 runs only with the user's systems: the next test.
      const names = listNotebooks(`${PROJECT_ROOT}/notebooks`).filter((n) => !n.startsWith("00"));
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
  name: "notebook 00 under plain nbconvert from another folder: KIT_RUNS with relative paths",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-nbconvert-00-" });
    const outside = `${dir}/my runs`;
    await Deno.mkdir(`${outside}/seeds`, { recursive: true });
    const sample = await Deno.readTextFile(`${SAMPLES_DIR}/runs/wikiqa-test.run`);
    await Deno.writeTextFile(`${outside}/mine.run`, sample);
    // Two "seeds": the sample run, and the same with every score negated (another ranking).
    await Deno.writeTextFile(`${outside}/seeds/seed1.run`, sample);
    await Deno.writeTextFile(
      `${outside}/seeds/seed2.run`,
      sample.replace(/^([^#\s]\S* \S+ \S+ \S+ )(\S+)/gm, (_, head, score) => `${head}${-score}`),
    );
    const session = await launchBrowser();
    try {
      // The runner gets the spec the report would build, absolute paths.
      const systems = {
        dataset: "wikiqa" as const,
        split: "test",
        filter: "clean" as const,
        systems: [
          { name: "mine", runs: [`${outside}/mine.run`] },
          { name: "my seeds", runs: [`${outside}/seeds/seed1.run`, `${outside}/seeds/seed2.run`] },
        ],
      };
      // ... handed over as the report does: one spec file.
      const systemsFile = `${dir}/systems.json`;
      await Deno.writeTextFile(systemsFile, JSON.stringify(systems));
      const html = await checkPlainAgainstRunner(session, dir, SYSTEMS_NOTEBOOK, {
        data: "sample",
        systems,
        systemsFile,
      }, {
        // As typed in a shell in `outside`: PWD is that folder; no INIT_CWD (no deno task).
        cwd: outside,
        env: {
          KIT_RUNS: "mine=mine.run; my seeds=seeds/seed*.run",
          PWD: outside,
          INIT_CWD: "",
        },
      });
      assert.match(html, /<td[^>]*>my seeds</, "the systems of KIT_RUNS are on the page");
      // Not the example, which stands in when no system is given.
      assert.doesNotMatch(html, /An example:/, "not the example");
      assert.match(html, /seed1\.run, seed2\.run/, "the glob, relative to the caller's folder");
    } finally {
      await session.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
