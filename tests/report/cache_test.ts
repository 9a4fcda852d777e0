/**
 * The report's cache (lib/report/build/cache.ts) on a real build of two small lessons: a second
 * build with nothing changed leaves every byte as it was; a changed notebook is the only one
 * built again, the other's files copied byte for byte; `rebuild` reuses nothing and writes the
 * same lesson files again, byte for byte. Its faults: a record damaged, deleted or its folder
 * emptied (nothing reused, the build goes on), and what a killed build left (swept).
 */
import { createHash } from "node:crypto";
import { assert, assertEquals } from "../assert.ts";
import { buildReport } from "../../lib/report/build/build.ts";
import { notebookFiles } from "../../lib/report/build/planned.ts";
import { filesBelow, REPORT_MARKER, UNFINISHED_MARKER } from "../../lib/report/build/foreign.ts";
import { baseKey } from "../../lib/report/build/cache.ts";
import { PROJECT_ROOT } from "../../lib/data/root.ts";
import { denoNotebook } from "./notebook_fixture.ts";

const LIB = new URL("../../lib/mod.ts", import.meta.url).href;

/**
 * A lesson notebook: a heading, a sentence, a section and one cell printing `text`; with
 * `figure`, a second cell showing a bar chart (its id is in the page, the slides, the checks).
 */
function lesson(title: string, sentence: string, text: string, figure = false): string {
  return denoNotebook([
    { id: "h", markdown: true, source: `# ${title}\n\n${sentence}` },
    { id: "s", markdown: true, source: "## The cell\n\nIt prints." },
    {
      id: "c",
      source: `import { bar, display } from "${LIB}";\nconsole.log(${JSON.stringify(text)});`,
    },
    ...figure
      ? [{ id: "f", source: 'await display(bar(["a", "b"], [{ name: "n", values: [1, 2] }]));' }]
      : [],
  ]);
}

/** Every file below `dir` (the marker and cache record included) with its bytes' SHA-256. */
function snapshot(dir: string): Map<string, string> {
  const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
  return new Map(filesBelow(dir).map((f) => [f, sha(Deno.readFileSync(`${dir}/${f}`))]));
}

/** A PDF's bytes less the dates of its print (`/CreationDate`, `/ModDate`), as text. */
function withoutPrintDate(bytes: Uint8Array): string {
  return new TextDecoder("latin1").decode(bytes).replace(/\((D:[0-9+\-Z']+)\)/g, "(D:)");
}

/** An executed notebook less what nbclient's clock wrote: each cell's times, the seconds run. */
function withoutClock(text: string): unknown {
  const nb = JSON.parse(text);
  for (const c of nb.cells) delete c.metadata?.execution;
  delete nb.metadata?.kit?.execution_seconds;
  return nb;
}

Deno.test({
  name: "report cache: unchanged, every byte is kept; one notebook changed, only it is rebuilt",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-report-cache-" });
    try {
      const notebooks = `${dir}/notebooks`;
      await Deno.mkdir(notebooks);
      await Deno.writeTextFile(`${notebooks}/01-one.ipynb`, lesson("One", "First.", "one", true));
      await Deno.writeTextFile(`${notebooks}/02-two.ipynb`, lesson("Two", "Second.", "two"));
      const out = `${dir}/report`;
      const build = async (rebuild = false) => {
        const lines: string[] = [];
        const r = await buildReport({
          params: { data: "sample" },
          notebooksDir: notebooks,
          outDir: out,
          rebuild,
          log: (l) => lines.push(l),
        });
        return { r, lines };
      };
      const first = await build();
      assert(first.lines.includes("executing 01-one.ipynb ..."));
      const before = snapshot(out);
      assert(before.has(".kit-cache/keys.json") && before.has(".kit-cache/parts/01-one.pdf"));

      // Nothing changed: not one byte written, each notebook said reused.
      const second = await build();
      assert(second.lines.includes("01-one: unchanged, reused"), second.lines.join("\n"));
      assert(second.lines.includes("02-two: unchanged, reused"));
      assert(!second.lines.some((l) => l.startsWith("executing")), second.lines.join("\n"));
      assertEquals(snapshot(out), before);
      assertEquals(second.r.notebooks, first.r.notebooks);
      assertEquals(second.r.index, first.r.index);
      assertEquals(second.r.pdfCheck, { ...first.r.pdfCheck!, text: "" });

      // Every lesson unchanged, the index's screenshot gone: the lessons are reused, the index
      // made again; the browser starts (stage `browser start`), the figure renderer does not.
      await Deno.remove(`${out}/screenshots/index.png`);
      const indexOnly = await build();
      assert(indexOnly.lines.includes("01-one: unchanged, reused"), indexOnly.lines.join("\n"));
      assert(indexOnly.lines.includes("02-two: unchanged, reused"));
      assert(!indexOnly.lines.some((l) => l.startsWith("executing")));
      const timings = indexOnly.lines.find((l) => l.startsWith("timings: "));
      // (Two lessons are reused at once: the stage then says its wall time too.)
      assert(
        /browser start \d+\.\d s, reuse \d+\.\d s( \(\d+\.\d s wall\))?, /.test(timings ?? ""),
        timings,
      );
      for (const f of notebookFiles("01-one.ipynb", {})) {
        assertEquals(snapshot(out).get(f), before.get(f), f);
      }

      // 02 changed: it alone runs again; 01's files are the bytes the first build wrote.
      await Deno.writeTextFile(`${notebooks}/02-two.ipynb`, lesson("Two", "Changed.", "two"));
      const third = await build();
      assert(third.lines.includes("01-one: unchanged, reused"), third.lines.join("\n"));
      assert(third.lines.includes("executing 02-two.ipynb ..."));
      assert(!third.lines.includes("executing 01-one.ipynb ..."));
      assert(!third.lines.includes("02-two: unchanged, reused"));
      const after = snapshot(out);
      for (const f of notebookFiles("01-one.ipynb", {})) assertEquals(after.get(f), before.get(f));
      assert(after.get("html/02-two.html") !== before.get("html/02-two.html"));
      assert((await Deno.readTextFile(`${out}/html/02-two.html`)).includes("Changed."));
      assertEquals(third.r.notebooks[0], first.r.notebooks[0]);

      // --rebuild: nothing reused; every file of the lesson comes out byte for byte as the
      // cache kept it (its figure's id is not random: lib/plot/display.ts `figureId`), but for
      // what records the build's time, compared without it: the executed notebook (nbclient's
      // clock: each cell's times, the seconds run) and the PDF part (the date Chromium prints
      // into it). The screenshots too: they are taken with animations finished (reveal.js's
      // arrow bounced mid-capture).
      const kept = (f: string) => Deno.readFileSync(`${out}/${f}`);
      const keptFiles = new Map(notebookFiles("01-one.ipynb", {}).map((f) => [f, kept(f)]));
      const fourth = await build(true);
      assert(!fourth.lines.some((l) => l.endsWith("unchanged, reused")), fourth.lines.join("\n"));
      assert(fourth.lines.includes("executing 01-one.ipynb ..."));
      // Each file as its SHA-256 (a diff of megabytes of bytes would take minutes), less the clock.
      const sha = (text: string | Uint8Array) => createHash("sha256").update(text).digest("hex");
      const clockless = (f: string, bytes: Uint8Array) =>
        f.endsWith(".ipynb") && f.startsWith("notebooks/")
          ? sha(JSON.stringify(withoutClock(new TextDecoder().decode(bytes))))
          : f.endsWith(".pdf")
          ? sha(withoutPrintDate(bytes))
          : sha(bytes);
      // Every file that differs, named at once.
      const differ = [...keptFiles].filter(([f, bytes]) =>
        clockless(f, kept(f)) !== clockless(f, bytes)
      );
      // A notebook that differs shows where (CI saw this once, under load: the next one to see it
      // learns what changed).
      const where = differ.filter(([f]) => f.endsWith(".ipynb")).map(([f, bytes]) => {
        const [a, b] = [kept(f), bytes].map((x) =>
          JSON.stringify(withoutClock(new TextDecoder().decode(x)))
        );
        let i = 0;
        while (i < a.length && a[i] === b[i]) i++;
        return `${f} at ${i}: rebuilt ${a.slice(i - 80, i + 160)} | kept ${
          b.slice(i - 80, i + 160)
        }`;
      });
      assertEquals(differ.map(([f]) => f), [], where.join("\n"));
      assert(new TextDecoder().decode(keptFiles.get("html/01-one.html")).includes("kit-fig-1-"));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "report cache: a damaged or missing record means nothing reused, and the build goes on; " +
    "what a killed build left is swept by an unchanged one",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "kit-report-cache-faults-" });
    try {
      const notebooks = `${dir}/notebooks`;
      await Deno.mkdir(notebooks);
      await Deno.writeTextFile(`${notebooks}/01-one.ipynb`, lesson("One", "First.", "one"));
      const out = `${dir}/report`;
      const build = async (more: { force?: boolean; rebuild?: boolean } = {}) => {
        const lines: string[] = [];
        await buildReport({
          params: { data: "sample" },
          notebooksDir: notebooks,
          outDir: out,
          pdf: false,
          slides: false,
          ...more,
          log: (l) => lines.push(l),
        });
        return lines;
      };
      const keys = `${out}/.kit-cache/keys.json`;
      const recorded = () => JSON.parse(Deno.readTextFileSync(keys)).notebooks["01-one"].key;
      await build();
      const key = recorded();

      // A build killed outright left its folder beside the report and its lock file: the next
      // build sweeps both, one that finds everything unchanged too.
      await Deno.mkdir(`${out}.tmp-999999999-zz9/html`, { recursive: true });
      await Deno.writeTextFile(`${out}.tmp-999999999-zz9/html/01-one.html`, "half");
      await Deno.writeTextFile(`${out}.tmp-999999999-zz9/${REPORT_MARKER}`, UNFINISHED_MARKER);
      const lock = `${dir}/.report.kit-lock`;
      await Deno.writeTextFile(lock, "process 999999999, since 2026-01-01T00:00:00.000Z\n");
      const unchanged = await build();
      assert(unchanged.some((l) => l.startsWith("report unchanged")), unchanged.join("\n"));
      assertEquals([...Deno.readDirSync(dir)].map((e) => e.name).sort(), ["notebooks", "report"]);

      // The record truncated: nothing is reused, said in one line; a fresh record is written.
      const text = await Deno.readTextFile(keys);
      await Deno.writeTextFile(keys, text.slice(0, text.length >> 1));
      const truncated = await build();
      const said = (lines: string[], why: string) =>
        lines.filter((l) => l.startsWith(".kit-cache/keys.json ")).join("\n") ===
          `.kit-cache/keys.json ${why}: nothing is reused, the build records it anew`;
      assert(said(truncated, "changed since the report wrote it"), truncated.join("\n"));
      assert(truncated.includes("executing 01-one.ipynb ..."));
      assertEquals(recorded(), key);

      // Deleted, with a file of the user's beside it (--force: kept, carried over).
      await Deno.remove(keys);
      await Deno.writeTextFile(`${out}/.kit-cache/mine.txt`, "mine");
      const deleted = await build({ force: true });
      assert(said(deleted, "is missing"), deleted.join("\n"));
      assert(deleted.includes("executing 01-one.ipynb ..."));
      assertEquals(await Deno.readTextFile(`${out}/.kit-cache/mine.txt`), "mine");
      assertEquals(recorded(), key);

      // The cache's folder emptied: the kit's own, not a file of the user's; --rebuild too.
      await Deno.remove(`${out}/.kit-cache`, { recursive: true });
      await Deno.mkdir(`${out}/.kit-cache`);
      assert(said(await build(), "is missing"));
      await Deno.remove(`${out}/.kit-cache`, { recursive: true });
      await Deno.mkdir(`${out}/.kit-cache`);
      const rebuilt = await build({ rebuild: true });
      assert(rebuilt.includes("executing 01-one.ipynb ..."), rebuilt.join("\n"));
      assert(!rebuilt.some((l) => l.startsWith(".kit-cache/")));
      assertEquals(recorded(), key);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("report cache: the key follows the options that change a lesson's files", async () => {
  const base = { params: { data: "sample" } };
  const key = await baseKey(base);
  assertEquals(await baseKey({ ...base, pdf: false, showCode: true }), key);
  for (
    const other of [
      { ...base, slides: false },
      { ...base, slidesCode: true },
      { params: { data: "sample", backend: "cpu" } },
      { params: { data: "sample", model: "lexical:bm25" } },
    ]
  ) {
    assert((await baseKey(other)) !== key, JSON.stringify(other));
  }
});

/** `baseKey` of a sample build computed in a process of its own, with `env` added. */
async function keyWith(env: Record<string, string>): Promise<string> {
  const code = `import { baseKey } from "${PROJECT_ROOT}/lib/report/build/cache.ts";\n` +
    `console.log(await baseKey({ params: { data: "sample" } }));`;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--config", `${PROJECT_ROOT}/deno.json`, code],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

Deno.test("report cache: the key follows what the kernels read from the environment (KIT_MODEL, the model's files)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "kit-cache-model-" });
  try {
    const model = `${dir}/ce`;
    await Deno.mkdir(model);
    for (const e of Deno.readDirSync(`${PROJECT_ROOT}/tests/fixtures/tiny-model/cross-encoder`)) {
      if (e.isFile) {
        await Deno.copyFile(
          `${PROJECT_ROOT}/tests/fixtures/tiny-model/cross-encoder/${e.name}`,
          `${model}/${e.name}`,
        );
      }
    }
    const plain = await keyWith({});
    assertEquals(await keyWith({}), plain);
    const withModel = await keyWith({ KIT_MODEL: model });
    assert(withModel !== plain, "a shell's KIT_MODEL must change the key");
    // the same folder with one file changed: another key
    await Deno.writeTextFile(`${model}/config.json`, "{}\n", { append: true });
    assert((await keyWith({ KIT_MODEL: model })) !== withModel, "the model's files are keyed");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
