/**
 * Output resolution and the early check, in-process (the command-level scenarios in
 * tests/faults/scenarios/ run the same through the CLI): what each kind of path resolves to,
 * that the check creates nothing, and that interrupt cleanups run newest first and unregister.
 */
import { assert, assertEquals, assertRejects } from "../assert.ts";
import { checkOutput, resolveOutput } from "../../lib/io/output.ts";
import { onInterrupt, pendingCleanups, runCleanups } from "../../lib/io/interrupt.ts";
import { localTempTag, sweepStaleTemps, tempPathFor } from "../../lib/io/temp.ts";
import { writeFileAtomic } from "../../lib/io/atomic.ts";

function listing(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

Deno.test("resolveOutput: files, links, descriptors, devices, FIFOs; folders refused", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/f`, "x");
  await Deno.symlink("f", `${dir}/l1`);
  await Deno.symlink("l1", `${dir}/l2`); // a chain
  await Deno.symlink(`${dir}/sub/new`, `${dir}/dangling`);
  await Deno.mkdir(`${dir}/d`);
  assertEquals(await resolveOutput(`${dir}/f`), { kind: "file", path: `${dir}/f`, exists: true });
  assertEquals(await resolveOutput(`${dir}/l2`), { kind: "file", path: `${dir}/f`, exists: true });
  assertEquals(await resolveOutput(`${dir}/dangling`), {
    kind: "file",
    path: `${dir}/sub/new`,
    exists: false,
  });
  for (const p of ["/dev/null", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/2"]) {
    assertEquals((await resolveOutput(p)).kind, "stream", p);
  }
  const fifo = await new Deno.Command("mkfifo", { args: [`${dir}/p`] }).output();
  if (fifo.success) assertEquals((await resolveOutput(`${dir}/p`)).kind, "stream");
  await assertRejects(() => resolveOutput(`${dir}/d`), /d: is a folder/);
  await assertRejects(() => resolveOutput(""), /an empty output path/);
  await assertRejects(() => resolveOutput(`${dir}/f/x`), /f is a file, not a folder/);
});

Deno.test("checkOutput creates nothing, refuses an existing file without force", async () => {
  const dir = await Deno.makeTempDir();
  await checkOutput(`${dir}/a/b/c.run`);
  await checkOutput(`${dir}/new.run`);
  assertEquals(listing(dir), []);
  await Deno.writeTextFile(`${dir}/old.run`, "mine");
  await assertRejects(() => checkOutput(`${dir}/old.run`), /refusing to overwrite/);
  await checkOutput(`${dir}/old.run`, { force: true });
  assertEquals(listing(dir), ["old.run"]);
  assertEquals(pendingCleanups(), 0);
});

Deno.test("writeFileAtomic through a link replaces the target and keeps the link", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/target`, "old\n");
  await Deno.symlink("target", `${dir}/link`);
  await assertRejects(() => writeFileAtomic(`${dir}/link`, "new\n"), /where the link leads/);
  await writeFileAtomic(`${dir}/link`, "new\n", { force: true });
  assert((await Deno.lstat(`${dir}/link`)).isSymlink);
  assertEquals(await Deno.readTextFile(`${dir}/target`), "new\n");
  assertEquals(listing(dir), ["link", "target"]);
  assertEquals(pendingCleanups(), 0);
});

Deno.test("interrupt cleanups run newest first, once, and unregister", () => {
  const order: string[] = [];
  const a = onInterrupt(() => order.push("a"), "a");
  onInterrupt(() => order.push("b"), "b");
  onInterrupt(() => {
    throw new Error("a failing cleanup must not stop the others");
  });
  assertEquals(pendingCleanups(), 3);
  assertEquals(runCleanups(), ["b", "a"]);
  assertEquals(order, ["b", "a"]);
  assertEquals(pendingCleanups(), 0);
  a(); // unregistering after the run is harmless
  assertEquals(pendingCleanups(), 0);
});

Deno.test("sweepStaleTemps: kit names of processes that are gone (or whose id was reused), only for the target given; another host's or namespace's only when old", async () => {
  const dir = await Deno.makeTempDir();
  const old = new Date(Date.now() - 3600_000);
  const here = localTempTag(); // this host's and process-id namespace's tag
  const elsewhere = here === "zzzz" ? "yyyy" : "zzzz";
  const names = {
    stale: `a.run.tmp-999999999-${here}abc123`,
    otherTarget: `b.run.tmp-999999999-${here}abc123`,
    fresh: `a.run.tmp-999999998-${here}abc123`, // just written, its process gone: swept
    reused: `a.run.tmp-${Deno.ppid}-${here}abc123`, // written in 1970: not by the process with that id
    live: `a.run.tmp-${Deno.ppid}-${here}def456`, // the parent runs and wrote it after it started
    // Another machine's (a shared file system) or container's: its process id means nothing
    // here, so it is kept while fresh, and swept once untouched for 10 minutes.
    remote: `a.run.tmp-999999997-${elsewhere}abc123`,
    remoteOld: `a.run.tmp-999999996-${elsewhere}abc123`,
    olderKit: "a.run.tmp-999999995-abc123", // an older kit's name (no tag): as another host's
    ours: tempPathFor("a.run"),
    user: "a.run.tmp-1-NOTKIT",
  };
  for (const n of Object.values(names)) await Deno.writeTextFile(`${dir}/${n}`, "x");
  for (const n of [names.stale, names.otherTarget, names.ours, names.user, names.remoteOld]) {
    await Deno.utime(`${dir}/${n}`, old, old);
  }
  await Deno.utime(`${dir}/${names.reused}`, new Date(0), new Date(0));
  assertEquals(
    (await sweepStaleTemps(dir, "a.run")).sort(),
    [names.stale, names.fresh, names.reused, names.remoteOld].sort(),
  );
  assertEquals(await sweepStaleTemps(dir), [names.otherTarget]);
  assertEquals(
    listing(dir),
    [names.live, names.ours, names.user, names.remote, names.olderKit].sort(),
  );
  assertEquals(await sweepStaleTemps(`${dir}/missing`), []);
});
