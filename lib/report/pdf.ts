/**
 * The report as one PDF: each exported page is printed by headless Chromium (vector
 * figures, print CSS hides Plotly's toolbar) and the pieces are joined with poppler's
 * `pdfunite`. No TeX needed.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import type { Page } from "npm:playwright-core@1.65.1";

/** Page layout: A4 with 12 mm margins; pages are laid out 1000 CSS px wide (the browser
 * session's viewport), printed at 0.7. */
const PRINT_SCALE = 0.7;

/** Prints a page that is already loaded (and drawn) to `pdfPath`, with print CSS. */
export async function printLoadedPage(page: Page, pdfPath: string): Promise<void> {
  await page.emulateMedia({ media: "print" });
  await page.pdf({
    path: pdfPath,
    format: "A4",
    printBackground: true,
    scale: PRINT_SCALE,
    margin: { top: "12mm", bottom: "12mm", left: "12mm", right: "12mm" },
  });
  await page.emulateMedia({ media: "screen" });
}

/** Joins PDFs in order into `pdfPath` (poppler's `pdfunite`). */
export async function unitePdfs(parts: readonly string[], pdfPath: string): Promise<void> {
  const tmp = `${pdfPath}.tmp-${Deno.pid}`;
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
  if (!out.success) {
    throw new KitError(`pdfunite failed: ${new TextDecoder().decode(out.stderr).trim()}`);
  }
  await Deno.rename(tmp, pdfPath);
}
