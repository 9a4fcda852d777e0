/**
 * Plain `jupyter nbconvert --to html --execute`, the command a user types, on every notebook:
 * each code cell must get the outputs the kit's own runner gets (the Deno kernel can report a
 * cell done before its outputs, and plain nbconvert drops late ones silently), the exported
 * page must draw every figure offline in Chromium with plotly.js in it once, and the kit's
 * runner must see no output arrive after a cell ended. One run per notebook (sample data;
 * every notebook but 00, which needs the user's systems);
 * `deno run -A tools/nbconvert_repeat.ts --runs 3` repeats it.
 */
import assert from "node:assert/strict";
import { PROJECT_ROOT } from "../../lib/data/paths.ts";
import { launchBrowser } from "../../lib/report/browser.ts";
import { listNotebooks } from "../../lib/report/build.ts";
import { executeNotebook } from "../../lib/report/execute.ts";
import {
  checkHtmlExport,
  outputsPerCell,
  runPlainNbconvert,
} from "../../lib/report/plain_nbconvert.ts";

Deno.test({
  name: "plain nbconvert --to html --execute keeps every output and draws every figure",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-nbconvert-" });
    const session = await launchBrowser();
    try {
      // Every notebook but 00, which runs only with the user's systems.
      const names = listNotebooks(`${PROJECT_ROOT}/notebooks`).filter((n) => !n.startsWith("00"));
      for (const name of names) {
        const input = `${PROJECT_ROOT}/notebooks/${name}`;
        const reference = await executeNotebook(input, `${dir}/kit-${name}`, { data: "sample" });
        assert.equal(reference.lateOutputs, 0, `${name}: outputs arrived after their cell ended`);
        const expected = outputsPerCell(await Deno.readTextFile(reference.output));
        const figures = (await Deno.readTextFile(reference.output))
          .split('"application/vnd.plotly.v1+json"').length - 1;

        const plain = await runPlainNbconvert(input, dir, { data: "sample" }, "html");
        const page = await checkHtmlExport(session, plain.file);
        assert.deepEqual(page.outputsPerCell, expected, `${name}: outputs per code cell`);
        assert.equal(page.figures.length, figures, `${name}: figures on the page`);
        for (const f of page.figures) assert.ok(f.svg && f.marks > 0, `${name}: ${f.id} not drawn`);
        assert.equal(page.libraryCopies, figures > 0 ? 1 : 0, `${name}: plotly.js copies`);
        assert.deepEqual(page.log.pageErrors, [], `${name}: script errors`);
        assert.deepEqual(page.log.blockedRequests, [], `${name}: network requests`);
      }
    } finally {
      await session.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
