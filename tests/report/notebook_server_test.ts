import assert from "node:assert/strict";
import {
  isRoot,
  LIVE_DIR,
  notebookServerArgs,
  workingCopy,
} from "../../lib/report/notebook/server.ts";

const server = new URL("../../lib/report/notebook/server.ts", import.meta.url).pathname;

async function kitNotebook(...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", server, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, text };
}

Deno.test("./kit notebook: 127.0.0.1, a token, --allow-root only as root, flags checked", async () => {
  const args = notebookServerArgs({ dir: "/nb", token: "abc" });
  assert.ok(args.includes("--ip=127.0.0.1") && args.includes("--no-browser"));
  assert.ok(args.includes("--NotebookApp.token=abc") && args.includes("--notebook-dir=/nb"));
  assert.equal(args.includes("--allow-root"), isRoot());
  assert.ok(!notebookServerArgs({ token: "t", allowRoot: false }).includes("--allow-root"));
  assert.ok(args.includes("--port=8888") && args.includes("--NotebookApp.port_retries=0"));

  const help = await kitNotebook("--help");
  assert.equal(help.code, 0);
  assert.match(help.text, /usage: \.\/kit notebook/);
  const bad = await kitNotebook("--bogus");
  assert.equal(bad.code, 2);
  assert.match(bad.text, /unknown option '--bogus'/);
  assert.match((await kitNotebook("--data", "full")).text, /--data must be 'sample' or 'real'/);
  assert.match(
    (await kitNotebook("--port", "x")).text,
    /--port must be a port number \(0-65535\), got 'x'/,
  );
  assert.match((await kitNotebook("--port=65536")).text, /got '65536'/);
});

Deno.test("./kit notebook serves a git-ignored working copy; the user's copy is never overwritten", async () => {
  const root = new URL("../..", import.meta.url).pathname;
  const ignored = await new Deno.Command("git", {
    args: ["check-ignore", "notebooks-live/04-metrics.ipynb", "notebooks/.ipynb_checkpoints/x"],
    cwd: root,
    stdout: "piped",
  }).output();
  assert.deepEqual(new TextDecoder().decode(ignored.stdout).trim().split("\n"), [
    "notebooks-live/04-metrics.ipynb",
    "notebooks/.ipynb_checkpoints/x",
  ]);
  assert.equal(LIVE_DIR, `${root}notebooks-live`);

  const src = await Deno.makeTempDir();
  const dest = `${await Deno.makeTempDir()}/notebooks-live`;
  try {
    const nb = (source: string) =>
      JSON.stringify({ cells: [{ cell_type: "code", source, outputs: [] }], metadata: {} });
    await Deno.writeTextFile(`${src}/01-a.ipynb`, nb("1"));
    await Deno.writeTextFile(`${src}/notes.md`, "not a notebook");
    assert.deepEqual(await workingCopy(src, dest), []);
    assert.deepEqual([...Deno.readDirSync(dest)].map((e) => e.name), ["01-a.ipynb"]);
    // The user runs it live: outputs land in the copy, which a second start keeps as it is.
    const live = JSON.parse(await Deno.readTextFile(`${dest}/01-a.ipynb`));
    live.cells[0].outputs = [{ output_type: "stream", name: "stdout", text: "1\n" }];
    await Deno.writeTextFile(`${dest}/01-a.ipynb`, JSON.stringify(live));
    assert.deepEqual(await workingCopy(src, dest), []);
    assert.equal(
      JSON.parse(await Deno.readTextFile(`${dest}/01-a.ipynb`)).cells[0].outputs.length,
      1,
    );
    assert.equal(await Deno.readTextFile(`${src}/01-a.ipynb`), nb("1"), "the source untouched");
    // The tracked notebook changes (a pull): the copy is kept, with a note.
    await Deno.writeTextFile(`${src}/01-a.ipynb`, nb("2"));
    const notes = await workingCopy(src, dest);
    assert.equal(notes.length, 1);
    assert.match(notes[0], /changed since this copy was made; the copy is kept/);
  } finally {
    await Deno.remove(src, { recursive: true });
    await Deno.remove(dest.replace(/\/notebooks-live$/, ""), { recursive: true });
  }
});
