/**
 * Plain `jupyter nbconvert --execute`, repeated: each notebook is executed once by the kit's
 * runner (the reference: outputs per code cell), then `--runs` times by plain nbconvert, to
 * `--to notebook` and to `--to html`. Every run must keep every output of every cell; every
 * HTML page must draw every figure offline in Chromium, with plotly.js once. Prints one line
 * per run and a summary; exits 1 when an output was lost or a figure did not draw.
 *
 * ```sh
 * deno run -A tools/nbconvert_repeat.ts [--runs 3] [--data sample|real] [--only 04]... [--dir notebooks/]
 * ```
 */
import { PROJECT_ROOT } from "../lib/data/paths.ts";
import { launchBrowser } from "../lib/report/check/browser.ts";
import { listNotebooks } from "../lib/report/build/build.ts";
import { executeNotebook } from "../lib/report/build/execute.ts";
import {
  checkHtmlExport,
  outputsPerCell,
  runPlainNbconvert,
} from "../tests/report/plain_nbconvert.ts";

let runs = 3;
let notebooks = `${PROJECT_ROOT}/notebooks`;
let data: "sample" | "real" = "sample";
const only: string[] = [];
for (let i = 0; i < Deno.args.length; i++) {
  const a = Deno.args[i];
  if (a === "--runs") runs = Number(Deno.args[++i]);
  else if (a === "--data") data = Deno.args[++i] === "real" ? "real" : "sample";
  else if (a === "--only") only.push(Deno.args[++i]);
  else if (a === "--dir") notebooks = Deno.args[++i];
  else {
    console.error(`unknown option ${a}`);
    Deno.exit(2);
  }
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const dir = await Deno.makeTempDir({ prefix: "kit-nbconvert-repeat-" });
const session = await launchBrowser();
let failed = false;
const totals = { expected: 0, kept: 0, lost: 0, figures: 0, drawn: 0, runs: 0 };
try {
  // Every notebook but 00, which runs only with the user's systems.
  for (const name of listNotebooks(notebooks, only).filter((n) => !n.startsWith("00"))) {
    const input = `${notebooks}/${name}`;
    const ref = await executeNotebook(input, `${dir}/kit-${name}`, { data });
    const refText = await Deno.readTextFile(ref.output);
    const expected = outputsPerCell(refText);
    const figures = refText.split('"application/vnd.plotly.v1+json"').length - 1;
    console.log(
      `${name}: kit runner ${sum(expected)} outputs, ${figures} figures, ` +
        `${ref.seconds.toFixed(1)} s`,
    );
    for (let run = 1; run <= runs; run++) {
      for (const to of ["notebook", "html"] as const) {
        const plain = await runPlainNbconvert(input, dir, { data }, to);
        let got: number[];
        let drawn = -1, copies = -1, blocked = 0, errors = 0;
        if (to === "notebook") {
          got = outputsPerCell(await Deno.readTextFile(plain.file));
        } else {
          const page = await checkHtmlExport(session, plain.file);
          got = page.outputsPerCell;
          drawn = page.figures.filter((f) => f.svg && f.marks > 0).length;
          copies = page.libraryCopies;
          blocked = page.log.blockedRequests.length;
          errors = page.log.pageErrors.length;
          totals.figures += figures;
          totals.drawn += drawn;
          if (drawn !== figures || copies !== (figures ? 1 : 0) || errors) failed = true;
        }
        const lost = sum(expected.map((n, i) => Math.max(0, n - (got[i] ?? 0))));
        const extra = sum(got.map((n, i) => Math.max(0, n - (expected[i] ?? 0))));
        totals.expected += sum(expected);
        totals.kept += sum(expected) - lost;
        totals.lost += lost;
        totals.runs++;
        if (lost || extra) failed = true;
        console.log(
          `  run ${run} --to ${to.padEnd(8)} outputs ${sum(got)}/${sum(expected)} lost ${lost}` +
            (extra ? ` extra ${extra}` : "") +
            (to === "html"
              ? ` figures drawn ${drawn}/${figures} plotly.js copies ${copies}` +
                ` script errors ${errors} network requests ${blocked}`
              : "") +
            ` (${plain.seconds.toFixed(1)} s)`,
        );
      }
    }
  }
} finally {
  await session.close();
  await Deno.remove(dir, { recursive: true });
}
console.log(
  `summary (${data}): ${totals.runs} nbconvert runs, outputs kept ${totals.kept}/${totals.expected}` +
    ` (lost ${totals.lost}), figures drawn ${totals.drawn}/${totals.figures}`,
);
Deno.exit(failed ? 1 : 0);
