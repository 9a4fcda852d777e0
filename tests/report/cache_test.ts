/**
 * The report's cache (lib/report/build/cache.ts) on a real build of two small lessons: a second
 * build with nothing changed leaves every byte as it was; a changed notebook is the only one
 * built again, the other's files copied byte for byte; `rebuild` reuses nothing and writes the
 * same lesson files again.
 */
import { createHash } from "node:crypto";
import { assert, assertEquals } from "../assert.ts";
import { buildReport } from "../../lib/report/build/build.ts";
import { notebookFiles } from "../../lib/report/build/planned.ts";
import { filesBelow } from "../../lib/report/build/foreign.ts";
import { baseKey } from "../../lib/report/build/cache.ts";
import { PROJECT_ROOT } from "../../lib/data/root.ts";

const LIB = new URL("../../lib/mod.ts", import.meta.url).href;

/** A lesson notebook: a heading, a sentence, a section and one cell printing `text`. */
function lesson(title: string, sentence: string, text: string): string {
  return JSON.stringify({
    cells: [
      { id: "h", cell_type: "markdown", source: `# ${title}\n\n${sentence}`, metadata: {} },
      { id: "s", cell_type: "markdown", source: "## The cell\n\nIt prints.", metadata: {} },
      {
        id: "c",
        cell_type: "code",
        source: `import { display } from "${LIB}";\nconsole.log(${JSON.stringify(text)});`,
        metadata: {},
        outputs: [],
        execution_count: null,
      },
    ],
    metadata: { kernelspec: { name: "deno", display_name: "Deno", language: "typescript" } },
    nbformat: 4,
    nbformat_minor: 5,
  });
}

/** Every file below `dir` (the marker and cache record included) with its bytes' SHA-256. */
function snapshot(dir: string): Map<string, string> {
  const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
  return new Map(filesBelow(dir).map((f) => [f, sha(Deno.readFileSync(`${dir}/${f}`))]));
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
      await Deno.writeTextFile(`${notebooks}/01-one.ipynb`, lesson("One", "First.", "one"));
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

      // --rebuild: nothing reused; the lesson's pages come out as the cache kept them, its
      // executed notebook too but for nbclient's clock (each cell's times, the seconds run).
      const kept = await Deno.readTextFile(`${out}/notebooks/01-one.ipynb`);
      const fourth = await build(true);
      assert(!fourth.lines.some((l) => l.endsWith("unchanged, reused")), fourth.lines.join("\n"));
      assert(fourth.lines.includes("executing 01-one.ipynb ..."));
      const fresh = snapshot(out);
      for (const f of ["html/01-one.html", "slides/01-one.html", "solutions/01-one.html"]) {
        assertEquals(fresh.get(f), after.get(f), f);
      }
      assertEquals(
        fresh.get("student/student-01-one.ipynb"),
        after.get("student/student-01-one.ipynb"),
      );
      assertEquals(
        withoutClock(await Deno.readTextFile(`${out}/notebooks/01-one.ipynb`)),
        withoutClock(kept),
      );
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
