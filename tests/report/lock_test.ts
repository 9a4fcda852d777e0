/**
 * One report per folder at a time (lib/io/lock.ts): a second report to the same --out is
 * refused at once, naming the process writing there, and a report killed outright (SIGKILL)
 * leaves no lock stuck.
 */
import assert from "node:assert/strict";
import { lockOutput, lockPathFor } from "../../lib/io/lock.ts";
import { runCli } from "../helpers.ts";

const MAIN = new URL("../../lib/cli/main.ts", import.meta.url).pathname;

Deno.test("two reports to one folder: the second is refused while the first runs; a killed one leaves no lock", async () => {
  const dir = await Deno.makeTempDir();
  const out = `${dir}/R`;
  const args = ["report", "--only", "01", "--no-pdf", "--out", out];
  const first = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", MAIN, ...args],
    env: { NO_COLOR: "1", INIT_CWD: dir },
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    // The first holds the lock from before its checks until it ends.
    const lock = lockPathFor(out);
    for (let i = 0; i < 600; i++) {
      const text = await Deno.readTextFile(lock).catch(() => "");
      if (text.startsWith(`process ${first.pid}, since `)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.match(await Deno.readTextFile(lock), new RegExp(`^process ${first.pid}, since \\d{4}-`));
    const second = await runCli(args, { cwd: dir });
    assert.equal(second.code, 2, second.stderr);
    assert.match(
      second.stderr,
      new RegExp(
        `^error: ${out}: another report is writing here now \\(process ${first.pid}, since ` +
          "[^)]+\\); wait for it to end, or choose another --out\\n$",
      ),
    );
    // In the library too, and then the killed holder's lock is free at once.
    await assert.rejects(() => lockOutput(out, "report"), /another report is writing here now/);
    first.kill("SIGKILL");
    await first.status;
    const again = await lockOutput(out, "report");
    again.release();
  } finally {
    try {
      first.kill("SIGKILL");
    } catch { /* ended */ }
    await first.status;
    await Deno.remove(dir, { recursive: true });
  }
});
