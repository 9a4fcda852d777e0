/**
 * The live path, as a user takes it: the classic Notebook server on 127.0.0.1 (a free port,
 * a token), a notebook opened in headless Chromium, "Kernel > Restart & Run All" clicked
 * through the menus. Then every code cell must show the outputs the kit's own runner gets,
 * every figure must be drawn, and the server must log no garbled kernel message ("Invalid
 * Signature"). The page is then saved and reloaded with the kernel still running: the saved
 * figures must draw again, and so must a figure cell run again on the reloaded page (the
 * case that used to leave empty boxes) and the cell that carried plotly.js before. Last, a
 * notebook executed elsewhere opens untrusted (scripts stripped: each figure shows its note)
 * and draws once trusted through File > Trust Notebook.
 *
 * The notebook runs in a temporary copy of the project layout (its own notebooks/ folder,
 * links to lib/, data/ and tests/), so saving never touches the committed notebooks.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { PROJECT_ROOT } from "../../lib/data/paths.ts";
import { LIBRARY_MARK, NOTE_NO_SCRIPTS } from "../../lib/plot/display.ts";
import { launchBrowser } from "../../lib/report/check/browser.ts";
import { FIGURE_MARKS, type FigureCheck } from "../../lib/report/check/check.ts";
import { executeNotebook } from "../../lib/report/build/execute.ts";
import { startNotebookServer } from "../../lib/report/notebook/server.ts";

const NOTEBOOK = "04-metrics.ipynb";

/** A temporary project: notebooks/ holds a copy, lib/ data/ tests/ link to the real ones. */
async function projectCopy(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "kit-live-" });
  for (const name of ["lib", "data", "tests"]) {
    await Deno.symlink(`${PROJECT_ROOT}/${name}`, `${dir}/${name}`);
  }
  for (const name of ["deno.json", "deno.lock"]) {
    await Deno.copyFile(`${PROJECT_ROOT}/${name}`, `${dir}/${name}`).catch(() => {});
  }
  await Deno.mkdir(`${dir}/notebooks`);
  await Deno.copyFile(`${PROJECT_ROOT}/notebooks/${NOTEBOOK}`, `${dir}/notebooks/${NOTEBOOK}`);
  return dir;
}

// Page scripts, as source text (this file is type-checked without the DOM).
const NOTEBOOK_READY = `!!(window.Jupyter && Jupyter.notebook && Jupyter.notebook._fully_loaded &&
  Jupyter.notebook.kernel && Jupyter.notebook.kernel.is_connected())`;
/** Every code cell has a number in its prompt and the kernel is idle. */
const ALL_RUN = `(() => {
  const prompts = [...document.querySelectorAll(".code_cell .input_prompt")].map((p) => p.textContent);
  return prompts.length > 0 && prompts.every((t) => /\\[\\d+\\]/.test(t)) &&
    document.querySelector("#kernel_indicator_icon.kernel_idle_icon") !== null;
})()`;
const OUTPUTS_PER_CELL = `[...document.querySelectorAll(".code_cell")]
  .map((c) => c.querySelectorAll(".output_area").length)`;
const FIGURES_DRAWN = `[...document.querySelectorAll(".kit-plotly")]
  .every((d) => d.querySelector("svg.main-svg"))`;

async function figures(page: Page): Promise<FigureCheck[]> {
  await page.waitForFunction(FIGURES_DRAWN, undefined, { timeout: 60_000 }).catch(() => {});
  return await page.evaluate(FIGURE_MARKS) as FigureCheck[];
}

function assertDrawn(found: FigureCheck[], expected: number, when: string): void {
  assert.equal(found.length, expected, `${when}: figures on the page`);
  for (const f of found) assert.ok(f.svg && f.marks > 0, `${when}: figure ${f.id} not drawn`);
}

/** Runs code cell `index` (0-based among code cells) through the UI and waits for it. */
async function runCell(page: Page, index: number): Promise<void> {
  const cell = page.locator(".code_cell").nth(index);
  await cell.locator(".input_prompt").click();
  await page.click(
    '#run_int button[data-jupyter-action="jupyter-notebook:run-cell-and-select-next"]',
  );
  await page.waitForFunction(
    `(() => { const p = document.querySelectorAll(".code_cell .input_prompt")[${index}];
      return p && /\\[\\d+\\]/.test(p.textContent) &&
        document.querySelector("#kernel_indicator_icon.kernel_idle_icon") !== null; })()`,
    undefined,
    { timeout: 120_000, polling: 250 },
  );
}

/** What the page shows besides the notebook: an open dialog, the notification area. */
const PAGE_STATE = `JSON.stringify({
  dialog: document.querySelector(".modal.in")?.innerText ?? null,
  notification: document.querySelector("#notification_area")?.innerText ?? null,
  dirty: Jupyter.notebook.dirty,
})`;

async function saveAndReload(page: Page): Promise<void> {
  await page.click("#filelink");
  await page.click("#save_checkpoint");
  await page.waitForFunction("Jupyter.notebook.dirty === false", undefined, { timeout: 120_000 })
    .catch(async (e) => {
      throw new Error(`not saved: ${await page.evaluate(PAGE_STATE)} (${e})`);
    });
  await page.reload();
  await page.waitForFunction(NOTEBOOK_READY, undefined, { timeout: 60_000 });
}

Deno.test({
  name: "live Notebook: Restart & Run All through the UI, every output and figure; reload",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // What the kit's own runner gets for the same notebook: outputs per code cell.
    const dir = await projectCopy();
    const reference = `${dir}/reference.ipynb`;
    await executeNotebook(`${dir}/notebooks/${NOTEBOOK}`, reference, { data: "sample" });
    const refCells = (JSON.parse(await Deno.readTextFile(reference)) as {
      cells: { cell_type: string; outputs?: { data?: Record<string, unknown> }[] }[];
    }).cells.filter((c) => c.cell_type === "code");
    const expectedOutputs = refCells.map((c) => c.outputs!.length);
    const figureCells = refCells.flatMap((c, i) =>
      c.outputs!.some((o) => o.data && "application/vnd.plotly.v1+json" in o.data) ? [i] : []
    );
    const expectedFigures = refCells.reduce(
      (n, c) =>
        n + c.outputs!.filter((o) => o.data && "application/vnd.plotly.v1+json" in o.data).length,
      0,
    );
    assert.ok(expectedFigures >= 2 && expectedOutputs.every((n) => n > 0));

    const server = await startNotebookServer({
      dir,
      port: 0,
      memoryTrust: true,
      env: { KIT_DATA: "sample", PATH: Deno.env.get("PATH") ?? "" },
    });
    const session = await launchBrowser();
    const pageErrors: string[] = [];
    const onError = (e: Error) => {
      pageErrors.push(String(e));
    };
    const foreign: string[] = [];
    try {
      const context = await session.browser.newContext({ viewport: { width: 1200, height: 900 } });
      // Only the server may be reached; anything else (a CDN) is recorded and refused.
      await context.route("**/*", (route) => {
        const url = route.request().url();
        if (url.startsWith(server.url) || /^(data|blob|about):/.test(url)) return route.continue();
        foreign.push(url);
        return route.abort("blockedbyclient");
      });
      const page = await context.newPage();
      page.on("pageerror", onError);
      page.on("dialog", (d) => d.accept());
      await page.goto(`${server.url}notebooks/notebooks/${NOTEBOOK}?token=${server.token}`);
      await page.waitForFunction(NOTEBOOK_READY, undefined, { timeout: 60_000 });

      // Kernel > Restart & Run All, and the confirmation dialog's button.
      await page.click("#kernellink");
      await page.click("#restart_run_all");
      await page.click("button:has-text('Restart and Run All Cells')");
      await page.waitForFunction(ALL_RUN, undefined, { timeout: 240_000, polling: 500 });
      assert.deepEqual(await page.evaluate(OUTPUTS_PER_CELL), expectedOutputs, "outputs per cell");
      assertDrawn(await figures(page), expectedFigures, "after Run All");

      // Reopened with the kernel running: the saved outputs draw.
      await saveAndReload(page);
      assert.deepEqual(await page.evaluate(OUTPUTS_PER_CELL), expectedOutputs, "saved outputs");
      assertDrawn(await figures(page), expectedFigures, "after reload");

      // A later figure cell run again on the reloaded page, then the first one.
      await runCell(page, figureCells.at(-1)!);
      assertDrawn(await figures(page), expectedFigures, "after re-running the last figure cell");
      await runCell(page, figureCells[0]);
      assertDrawn(await figures(page), expectedFigures, "after re-running the first figure cell");
      await saveAndReload(page);
      assertDrawn(await figures(page), expectedFigures, "after a second reload");

      assert.equal(pageErrors.length, 0, `script errors on the page: ${pageErrors}`);
      const saved = await Deno.readTextFile(`${dir}/notebooks/${NOTEBOOK}`);
      const copies = saved.split(JSON.stringify(LIBRARY_MARK).slice(1, -1)).length - 1;
      assert.ok(copies >= 1 && copies <= 3, `plotly.js copies in the saved notebook: ${copies}`);

      // A notebook executed elsewhere (unsigned) opens untrusted: scripts are stripped, and each
      // figure shows its note; after File > Trust Notebook the figures draw.
      await Deno.copyFile(reference, `${dir}/notebooks/executed.ipynb`);
      const other = await context.newPage();
      other.on("pageerror", onError);
      await other.goto(`${server.url}notebooks/notebooks/executed.ipynb?token=${server.token}`);
      await other.waitForFunction(NOTEBOOK_READY, undefined, { timeout: 60_000 });
      const notes = await other.evaluate(`[...document.querySelectorAll(".kit-plotly")]
        .map((d) => [!!d.querySelector("svg.main-svg"), d.textContent])`) as [boolean, string][];
      assert.equal(notes.length, expectedFigures, "untrusted: figure boxes");
      for (const [drawn, text] of notes) {
        assert.ok(!drawn && text === NOTE_NO_SCRIPTS, `untrusted figure shows: ${text}`);
      }
      await other.click("#filelink");
      await other.click("#trust_notebook");
      await Promise.all([
        other.waitForEvent("load", { timeout: 60_000 }),
        // The menu item opens the dialog twice, one over the other; either one's button trusts.
        other.locator(".modal.in .modal-footer button", { hasText: "Trust" }).first()
          .dispatchEvent("click"),
      ]);
      await other.waitForFunction(NOTEBOOK_READY, undefined, { timeout: 60_000 });
      assertDrawn(await figures(other), expectedFigures, "after trusting");
      assert.deepEqual(pageErrors, [], "script errors on the pages");
    } finally {
      await session.close();
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
    // Tornado logs a traceback when it writes to a websocket the page closed on reload
    // (WebSocketClosedError): the page's own doing, not the kernel's. Any other traceback fails.
    const serverLog = server.log().replace(
      /Task exception was never retrieved\n(?:(?!\n\[[IWE] ).)*?\ntornado\.websocket\.WebSocketClosedError\n/gs,
      "",
    );
    assert.doesNotMatch(serverLog, /Invalid Signature|Traceback/, server.log());
    assert.ok(foreign.every((u) => !u.includes("plot")), `figures fetched from: ${foreign}`);
  },
});
