/**
 * `deno task report [--data sample|real] [--model M] [--backend B] [--only NN] [--out DIR]
 * [--no-pdf]`: executes every notebook headless and writes the executed notebooks, one
 * offline HTML page per notebook, an index page and a PDF (see lib/report/build.ts).
 *
 * @module
 */
import type { Command } from "./command.ts";
import { list, oneOf, parseFlags, str } from "./args.ts";
import { buildReport } from "../report/build.ts";

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** The `report` command. */
export const reportCommand: Command = {
  summary: "execute the notebooks and export HTML pages, an index and a PDF",
  usage: "[--data sample|real] [--model M] [--backend webgpu|cpu] [--only NN]... " +
    "[--out DIR [--force]] [--no-pdf]",
  async run(args) {
    const p = parseFlags(args, {
      data: { type: "string" },
      model: { type: "string" },
      backend: { type: "string" },
      only: { type: "string", multiple: true },
      out: { type: "string" },
      force: { type: "boolean" },
      "no-pdf": { type: "boolean" },
    });
    const data = oneOf(str(p, "data", "sample")!, ["sample", "real"] as const, "--data");
    const backend = str(p, "backend");
    if (backend !== undefined) oneOf(backend, ["webgpu", "cpu"] as const, "--backend");
    const r = await buildReport({
      params: { data, model: str(p, "model"), backend },
      only: list(p, "only"),
      outDir: str(p, "out"),
      force: Boolean(p.values.force),
      pdf: p.values["no-pdf"] !== true,
    });
    for (const e of r.notebooks) {
      const drawn = e.check.figures.filter((f) => f.svg && f.marks > 0).length;
      console.log(
        `${e.name.padEnd(28)} ${e.seconds.toFixed(1).padStart(6)} s  html ${
          mb(e.bytes.html).padStart(8)
        }  figures drawn ${drawn}/${e.figures}`,
      );
    }
    if (r.pdf && r.pdfCheck) {
      console.log(
        `${r.pdf}: ${r.pdfCheck.pages} pages, ${r.pdfCheck.pagesWithFigures} with figures, ${
          mb(r.pdfCheck.bytes)
        }`,
      );
    }
    console.log(`${r.index} (${r.seconds.toFixed(0)} s in all)`);
  },
};
