import assert from "node:assert/strict";
import { isRoot, notebookServerArgs } from "../../lib/report/notebook_server.ts";

const server = new URL("../../lib/report/notebook_server.ts", import.meta.url).pathname;

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
