/**
 * A report folder whose name holds what a URL or a glob pattern reads otherwise (`#`, `%`, `[`,
 * `*`, `?`, a space): the pages open in Chromium (their file URLs are percent-encoded), nbconvert
 * finds its notebooks (its notebook argument is a glob pattern, escaped), and the report builds.
 */
import { assert } from "../assert.ts";
import { buildReport } from "../../lib/report/build/build.ts";
import { denoNotebook } from "./notebook_fixture.ts";

const LIB = new URL("../../lib/mod.ts", import.meta.url).href;

Deno.test({
  name:
    "report: a folder named 'r #1 50% [a]*?' builds, its pages checked, slides and solutions made",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-report-odd-" });
    try {
      const notebooks = `${dir}/notebooks [x]*`;
      await Deno.mkdir(notebooks);
      await Deno.writeTextFile(
        `${notebooks}/01-one.ipynb`,
        denoNotebook([
          { id: "h", markdown: true, source: "# One\n\nA lesson in an odd folder." },
          { id: "s", markdown: true, source: "## The figure\n\nBars." },
          {
            id: "f",
            source: `import { bar, display } from "${LIB}";\n` +
              'await display(bar(["a", "b"], [{ name: "n", values: [1, 2] }]));',
          },
        ]),
      );
      const out = `${dir}/r #1 50% [a]*?`;
      const r = await buildReport({
        params: { data: "sample" },
        notebooksDir: notebooks,
        outDir: out,
        pdf: false,
        log: () => {},
      });
      assert(r.notebooks.length === 1 && r.notebooks[0].check.figures.length === 1);
      assert(r.notebooks[0].slides !== undefined && r.notebooks[0].course !== undefined);
      for (const f of ["index.html", "html/01-one.html", "slides/01-one.html"]) {
        assert((await Deno.stat(`${out}/${f}`)).size > 0, f);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
