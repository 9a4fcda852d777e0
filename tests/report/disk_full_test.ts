/**
 * A full disk anywhere in a report is one line naming the destination, and a failed attempt
 * never keeps the disk full: on a real small file system (a tmpfs: these tests need root, and
 * are ignored with the reason elsewhere), the notebook's output (the whole report, end to end),
 * the HTML export, the PDF (a page printed, the parts joined) and the last step before the
 * swap (the marker) each fail for lack of space.
 */
import assert from "node:assert/strict";
import { diskTest, runCli, usedBytes } from "../helpers.ts";
import { exportHtml } from "../../lib/report/build/export.ts";
import { printLoadedPage, unitePdfs } from "../../lib/report/build/pdf.ts";
import { launchBrowser } from "../../lib/report/check/browser.ts";
import { discardOnFullDisk, openWorkspace, writeMarker } from "../../lib/report/build/workspace.ts";
import { KitError } from "../../lib/errors.ts";
import { REPORT_MARKER } from "../../lib/report/build/foreign.ts";

const listing = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

diskTest(
  "report on a 3 MB disk: one line naming the folder; the attempt removed, the disk freed",
  "3m",
  async (disk) => {
    // An earlier failed attempt of the kit (1 MB) is kept, and named with what it takes.
    await Deno.mkdir(`${disk.dir}/rep.failed`);
    await Deno.writeTextFile(
      `${disk.dir}/rep.failed/${REPORT_MARKER}`,
      "made by deno task report (unfinished)\n",
    );
    await Deno.writeFile(`${disk.dir}/rep.failed/big.html`, new Uint8Array(1 << 20));
    const before = await usedBytes(disk.dir);
    const r = await runCli(["report", "--only", "01", "--no-pdf", "--out", `${disk.dir}/rep`]);
    assert.equal(r.code, 2, r.stderr);
    const lines = r.stderr.trim().split("\n");
    assert.deepEqual(lines.slice(0, -1), ["executing 01-datasets.ipynb ..."], r.stderr);
    assert.match(
      lines.at(-1)!,
      new RegExp(
        `^error: ${disk.dir}/rep: the disk is full \\(No space left on device\\) writing ` +
          "notebooks/01-datasets\\.ipynb: the unfinished report was removed so that it does not " +
          `keep the disk full; the previous report is unchanged; an earlier failed attempt, ` +
          `${disk.dir}/rep\\.failed/, still takes 1\\.0 MB there$`,
      ),
    );
    assert.deepEqual(listing(disk.dir), ["rep.failed"]);
    assert.equal(await usedBytes(disk.dir), before);
  },
);

/** A notebook of one Markdown cell: nbconvert's page of it is a few hundred KB (the template's CSS). */
const NOTEBOOK = JSON.stringify({
  cells: [{ cell_type: "markdown", metadata: {}, source: ["# A page\n", "Some text."] }],
  metadata: {},
  nbformat: 4,
  nbformat_minor: 5,
});

diskTest(
  "exportHtml onto a full disk: one line naming the page, no half page left",
  "1m",
  async (disk) => {
    const src = await Deno.makeTempDir();
    await Deno.writeTextFile(`${src}/a.ipynb`, NOTEBOOK);
    await exportHtml(`${src}/a.ipynb`, `${src}/a.html`); // it fits elsewhere
    assert((await Deno.stat(`${src}/a.html`)).size > 4096);
    await disk.fill(2048);
    const e = await exportHtml(`${src}/a.ipynb`, `${disk.dir}/a.html`).then(
      () => undefined,
      (e) => e,
    );
    assert(e instanceof KitError, String(e));
    assert.equal(
      e.message,
      `${disk.dir}/a.html: could not write the page: the disk is full (No space left on device); ` +
        "nothing was kept",
    );
    assert.deepEqual(listing(disk.dir), ["filler"]);
    await Deno.remove(src, { recursive: true });
  },
);

diskTest(
  "PDF onto a full disk: a printed page and the joined parts, one line each, nothing left",
  "1m",
  async (disk) => {
    const src = await Deno.makeTempDir();
    const session = await launchBrowser();
    try {
      const page = await session.context.newPage();
      await page.setContent(`<h1>Page</h1>${"<p>Some text of the report.</p>".repeat(400)}`);
      await printLoadedPage(page, `${src}/part.pdf`);
      const part = (await Deno.stat(`${src}/part.pdf`)).size;
      assert(part > 8192, `part of ${part} bytes`);
      // pdfunite exits 0 with the file cut short when the disk fills: the kit checks the trailer.
      await disk.fill(8192);
      const joined = await unitePdfs(
        [`${src}/part.pdf`, `${src}/part.pdf`],
        `${disk.dir}/report.pdf`,
      )
        .then(() => undefined, (e) => e);
      assert(joined instanceof KitError, String(joined));
      assert.equal(
        joined.message,
        `${disk.dir}/report.pdf: could not write the PDF: the disk is full (No space left on ` +
          "device); nothing was kept",
      );
      assert.deepEqual(listing(disk.dir), ["filler"]);
      await disk.fill();
      const printed = await printLoadedPage(page, `${disk.dir}/page.pdf`).then(
        () => undefined,
        (e) => e,
      );
      assert(printed instanceof KitError, String(printed));
      assert.match(
        printed.message,
        new RegExp(`^${disk.dir}/page\\.pdf: could not write the PDF: the disk is full`),
      );
      assert.deepEqual(listing(disk.dir), ["filler"]);
    } finally {
      await session.close();
      await Deno.remove(src, { recursive: true });
    }
  },
);

diskTest(
  "the step before the swap on a full disk (the marker): one line, the unfinished report removed",
  "1m",
  async (disk) => {
    const out = `${disk.dir}/rep`;
    const ws = await openWorkspace(out, { log: () => {} });
    await Deno.mkdir(`${ws.dir}/html`);
    await Deno.writeFile(`${ws.dir}/html/01-datasets.html`, new Uint8Array(300_000));
    await disk.fill();
    const e = await writeMarker(ws.dir).then(() => undefined, (e) => e);
    assert(e !== undefined);
    const full = discardOnFullDisk(ws, e);
    assert(full instanceof KitError);
    assert.equal(
      full.message,
      `${out}: the disk is full (No space left on device) writing ${REPORT_MARKER}: the unfinished ` +
        "report was removed so that it does not keep the disk full; the previous report is unchanged",
    );
    assert.deepEqual(listing(disk.dir), ["filler"]);
    // Any other failure is not this one's: nothing done.
    assert.equal(discardOnFullDisk(ws, new KitError("a cell failed")), undefined);
  },
);
