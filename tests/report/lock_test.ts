/**
 * One report per folder at a time (lib/io/lock.ts): a second report to the same --out is
 * refused at once, naming the process writing there, and a report killed outright (SIGKILL)
 * leaves no lock stuck.
 *
 * The first report is frozen (SIGSTOP) once the test sees its lock taken, so it holds the lock
 * for as long as the test needs it, however slowly the second one starts; no sleep, no time
 * limit. Repeated beside two CPU hogs (as CI's two busy cores):
 *
 *     deno run -A tests/under_load.ts --runs 20 tests/report/lock_test.ts
 */
import assert from "node:assert/strict";
import { lockOutput, lockPathFor } from "../../lib/io/lock.ts";
import { freeze, runCli, waitFor } from "../helpers.ts";

const MAIN = new URL("../../lib/cli/main.ts", import.meta.url).pathname;

Deno.test("two reports to one folder: the second is refused while the first runs; a killed one leaves no lock", async () => {
  const dir = await Deno.makeTempDir();
  const out = `${dir}/R`;
  const args = ["report", "--only", "01", "--no-pdf", "--out", out];
  const first = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", MAIN, ...args],
    env: { NO_COLOR: "1", INIT_CWD: dir },
    stdout: "null",
    stderr: "piped",
  }).spawn();
  try {
    // The first holds the lock from before its checks until it ends: once it has written its
    // line into the lock file, it is frozen there (it keeps the lock, and cannot finish).
    const lock = lockPathFor(out);
    await waitFor(
      "the first report to take the lock",
      async () =>
        (await Deno.readTextFile(lock).catch(() => "")).startsWith(`process ${first.pid}, since `),
      first,
    );
    assert(await freeze(first), "the first report ended before it could be frozen");
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
    await first.stderr.cancel().catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a lock path that is not the kit's lock file is refused in one line naming it, and left as it is", async () => {
  const dir = await Deno.makeTempDir();
  const out = `${dir}/R`;
  const lock = lockPathFor(out);
  const victim = `${dir}/victim.txt`;
  await Deno.writeTextFile(victim, "the user's notes\n");
  const cases: [string, () => void, RegExp][] = [
    ["a link to a file", () => Deno.symlinkSync(victim, lock), /is a symbolic link/],
    ["a dangling link", () => Deno.symlinkSync(`${dir}/nowhere`, lock), /is a symbolic link/],
    ["a link to a folder", () => Deno.symlinkSync(dir, lock), /is a symbolic link/],
    ["a FIFO", () => new Deno.Command("mkfifo", { args: [lock] }).outputSync(), /is a FIFO/],
    ["a folder", () => Deno.mkdirSync(lock), /is a folder/],
    ["a hard link", () => Deno.linkSync(victim, lock), /is a hard link to another file/],
    [
      "someone else's file",
      () => Deno.writeTextFileSync(lock, "secret contents\n"),
      /is a file the kit did not write/,
    ],
    [
      "another user's empty file",
      () => {
        Deno.writeTextFileSync(lock, "");
        Deno.chownSync(lock, 65534, 65534);
      },
      /is a file the kit did not write/,
    ],
    [
      "another user's file in the lock's form",
      () => {
        Deno.writeTextFileSync(lock, "process 999999, since 2026-12-06T18:28:54.443Z\n");
        Deno.chownSync(lock, 65534, 65534);
      },
      /is a file the kit did not write/,
    ],
  ];
  try {
    for (const [label, make, says] of cases) {
      if (label.startsWith("another user's") && Deno.uid() !== 0) {
        console.error(`skipping "${label}": making another user's file needs root`);
        continue;
      }
      make();
      const before = Deno.lstatSync(lock);
      await assert.rejects(
        () => lockOutput(out, "report"),
        (e: Error) => {
          assert.match(e.message, says, label);
          assert(e.message.startsWith(`${lock}: the lock path is `), `${label}: ${e.message}`);
          assert(!e.message.includes("notes") && !e.message.includes("secret"), label);
          return true;
        },
      );
      const after = Deno.lstatSync(lock);
      assert.equal(after.ino, before.ino, `${label}: left as it was`);
      assert.equal(Deno.readTextFileSync(victim), "the user's notes\n", label);
      await Deno.remove(lock);
    }
    // A lock file the kit wrote and whose holder is gone is taken over.
    Deno.writeTextFileSync(lock, "process 999999999, since 2026-01-01T00:00:00.000Z\n");
    const taken = await lockOutput(out, "report");
    assert.match(Deno.readTextFileSync(lock), new RegExp(`^process ${Deno.pid}, since `));
    taken.release();
    assert.throws(() => Deno.lstatSync(lock), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("report with its lock path a link to another file: exit 2 at once, the link and its target kept", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.copyFile(
      new URL("../../data/samples/runs/wikiqa-test.run", import.meta.url).pathname,
      `${dir}/bm25.run`,
    );
    await Deno.writeTextFile(`${dir}/victim`, "keep me\n");
    await Deno.symlink("victim", `${dir}/.R.kit-lock`);
    const r = await runCli(
      ["report", "--run", "bm=bm25.run", "--out", "R", "--no-pdf", "--no-slides"],
      { cwd: dir },
    );
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /\.R\.kit-lock: the lock path is a symbolic link, not a lock file/);
    assert(!r.stderr.includes("keep me"));
    assert(Deno.lstatSync(`${dir}/.R.kit-lock`).isSymlink);
    assert.equal(await Deno.readTextFile(`${dir}/victim`), "keep me\n");
    assert.throws(() => Deno.lstatSync(`${dir}/R`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
