/**
 * The kit finds its pinned npm packages (plotly.js, KaTeX, reveal.js) under its own deno.json
 * and deno.lock, wherever it is run from: run from a folder of the user's that is a Deno project
 * (its own deno.json), the user's lock file is neither made nor changed. (The kit works in the
 * caller's folder; `deno info` there wrote the package into that project's lock file.)
 */
import assert from "node:assert/strict";
import { PROJECT_ROOT } from "../../lib/data/root.ts";

Deno.test("npm packages: looked up under the kit's deno.json, not the caller's project", async () => {
  const dir = await Deno.makeTempDir({ prefix: "kit-npm-caller-" });
  try {
    await Deno.writeTextFile(`${dir}/deno.json`, "{}\n");
    const lock = '{\n  "version": "5"\n}\n';
    await Deno.writeTextFile(`${dir}/deno.lock`, lock);
    const module = `${PROJECT_ROOT}/lib/plot/plotlyjs.ts`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `import { plotlyJsPath } from ${JSON.stringify(`file://${module}`)};` +
        `console.log(plotlyJsPath("basic"));`,
      ],
      cwd: dir,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder();
    assert.ok(out.success, text.decode(out.stderr));
    assert.match(text.decode(out.stdout), /plotly-basic\.min\.js\n$/);
    assert.equal(await Deno.readTextFile(`${dir}/deno.lock`), lock, "the caller's lock file");
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "deno.json",
      "deno.lock",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
