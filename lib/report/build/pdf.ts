/**
 * The report as one PDF: each exported page is printed by headless Chromium (vector
 * figures, print CSS hides Plotly's toolbar) and the pieces are joined with poppler's
 * `pdfunite`. No TeX needed.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import { isDiskFull } from "../../io/atomic.ts";
import { noRoom } from "../../io/output.ts";
import { removeOnInterrupt } from "../../io/interrupt.ts";
import { dirname } from "../../io/path.ts";
import { tempPathFor } from "../../io/temp.ts";
import type { Page } from "npm:playwright-core@1.65.1";

/** Page layout: A4 with 12 mm margins; pages are laid out 1000 CSS px wide (the browser
 * session's viewport), printed at 0.7. */
const PRINT_SCALE = 0.7;

/**
 * Prints a page that is already loaded (and drawn) to `pdfPath`, with print CSS. A full disk is
 * one `KitError` naming `pdfPath`, and no part of the file is left.
 */
export async function printLoadedPage(page: Page, pdfPath: string): Promise<void> {
  await page.emulateMedia({ media: "print" });
  try {
    await page.pdf({
      path: pdfPath,
      format: "A4",
      printBackground: true,
      scale: PRINT_SCALE,
      margin: { top: "12mm", bottom: "12mm", left: "12mm", right: "12mm" },
    });
  } catch (e) {
    if (!isDiskFull(e)) throw e;
    await Deno.remove(pdfPath).catch(() => {});
    throw diskFull(pdfPath, e);
  }
  await page.emulateMedia({ media: "screen" });
}

function diskFull(path: string, cause?: unknown): KitError {
  return new KitError(
    "could not write the PDF: the disk is full (No space left on device); nothing was kept",
    { file: path },
    { cause },
  );
}

/**
 * Joins PDFs in order into `pdfPath` (poppler's `pdfunite`), through a temporary file that is
 * moved into place only when complete: pdfunite says nothing when the disk fills (it exits 0
 * with the file cut short), so the file must end with its `%%EOF` trailer. A full disk is one
 * `KitError` naming `pdfPath`; no part of the file is left.
 */
export async function unitePdfs(parts: readonly string[], pdfPath: string): Promise<void> {
  const tmp = tempPathFor(pdfPath);
  const done = removeOnInterrupt(tmp);
  try {
    let out: Deno.CommandOutput;
    try {
      out = await new Deno.Command("pdfunite", {
        args: [...parts, tmp],
        stdout: "piped",
        stderr: "piped",
      }).output();
    } catch (e) {
      throw new KitError(`cannot run pdfunite (Debian poppler-utils): ${(e as Error).message}`);
    }
    const stderr = new TextDecoder().decode(out.stderr).trim();
    if (!out.success || !(await endsWithTrailer(tmp))) {
      if (isDiskFull(stderr) || await noRoom(dirname(pdfPath))) throw diskFull(pdfPath);
      throw new KitError(
        out.success
          ? "pdfunite wrote an incomplete file (no %%EOF trailer)"
          : `pdfunite failed: ${stderr}`,
        { file: pdfPath },
      );
    }
    await Deno.rename(tmp, pdfPath);
  } finally {
    await Deno.remove(tmp).catch(() => {});
    done();
  }
}

/** Whether a PDF file ends with its `%%EOF` marker (a file cut short does not). */
async function endsWithTrailer(path: string): Promise<boolean> {
  let file: Deno.FsFile | undefined;
  try {
    file = await Deno.open(path);
    const size = (await file.stat()).size;
    const tail = new Uint8Array(Math.min(1024, size));
    await file.seek(size - tail.length, Deno.SeekMode.Start);
    let got = 0;
    while (got < tail.length) {
      const n = await file.read(tail.subarray(got));
      if (n === null) break;
      got += n;
    }
    return /%%EOF\s*$/.test(new TextDecoder("latin1").decode(tail.subarray(0, got)));
  } catch {
    return false;
  } finally {
    file?.close();
  }
}
