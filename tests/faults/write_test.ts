/**
 * Nothing the user has is overwritten or lost: every writer of the kit goes through a
 * temporary file and a rename; an existing file is replaced only with `force`; a full disk, a
 * failing write or a file that appears meanwhile leaves no partial file and keeps the previous
 * one. The full disk is real: the injected write function writes to `/dev/full`, so the error
 * is the operating system's own ENOSPC.
 */
import { assert, assertEquals, assertRejects } from "../assert.ts";
import { KitError } from "../../lib/errors.ts";
import { isDiskFull, writeFileAtomic } from "../../lib/io/atomic.ts";
import { readQrels, readRun, writeQrels, writeRun } from "../../lib/metrics/mod.ts";
import { readSpanRun, writeSpanRun } from "../../lib/qrcd/mod.ts";

const haveDevFull = await Deno.stat("/dev/full").then(() => true, () => false);

/** Files in `dir` (names), to check that no temporary file is left. */
function listing(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

/** A write function that writes `okBytes` bytes normally, then hits a full disk. */
function fullAfter(okBytes: number) {
  let written = 0;
  const devFull = haveDevFull ? Deno.openSync("/dev/full", { write: true }) : undefined;
  return {
    write: async (file: Deno.FsFile, bytes: Uint8Array): Promise<number> => {
      if (written < okBytes) {
        const n = await file.write(bytes.subarray(0, okBytes - written));
        written += n;
        return n;
      }
      if (devFull) return await devFull.write(bytes); // ENOSPC from the kernel
      throw Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" });
    },
    close: () => devFull?.close(),
  };
}

Deno.test({
  name: "/dev/full gives the kernel's ENOSPC and isDiskFull recognizes it",
  ignore: !haveDevFull,
  async fn() {
    const f = await Deno.open("/dev/full", { write: true });
    try {
      await f.write(new Uint8Array(10));
      assert(false, "writing /dev/full must fail");
    } catch (e) {
      assert(isDiskFull(e), `not recognized as a full disk: ${e}`);
    } finally {
      f.close();
    }
  },
});

Deno.test("full disk while replacing a file: previous file intact, no temporary file", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/report.md`;
  await Deno.writeTextFile(path, "the previous good report\n");
  const disk = fullAfter(5);
  try {
    const big = "x".repeat(100_000);
    const e = await assertRejects(
      () => writeFileAtomic(path, big, { force: true, write: disk.write }),
      /report\.md: could not write: the disk is full .*any earlier file there is unchanged/,
    );
    assert(e instanceof KitError && e.file === path);
  } finally {
    disk.close();
  }
  assertEquals(await Deno.readTextFile(path), "the previous good report\n");
  assertEquals(listing(dir), ["report.md"]);
  // A new file that cannot be written does not appear at all.
  const disk2 = fullAfter(0);
  try {
    await assertRejects(
      () => writeFileAtomic(`${dir}/new.txt`, "abc", { write: disk2.write }),
      /new\.txt: could not write: the disk is full/,
    );
  } finally {
    disk2.close();
  }
  assertEquals(listing(dir), ["report.md"]);
});

Deno.test("a streamed write that fails midway (a writer's own error) leaves nothing", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/out.txt`;
  await Deno.writeTextFile(path, "old\n");
  async function* chunks() {
    yield "first part\n";
    throw new KitError("the producer failed");
  }
  await assertRejects(() => writeFileAtomic(path, chunks(), { force: true }), /producer failed/);
  assertEquals(await Deno.readTextFile(path), "old\n");
  assertEquals(listing(dir), ["out.txt"]);
});

Deno.test("a write that makes no progress is an error, not an endless loop", async () => {
  const dir = await Deno.makeTempDir();
  await assertRejects(
    () => writeFileAtomic(`${dir}/a`, "abc", { write: () => Promise.resolve(0) }),
    /a: could not write: write made no progress/,
  );
  assertEquals(listing(dir), []);
});

Deno.test("without force: an existing file is refused, also one that appears while writing", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/run.txt`;
  await Deno.writeTextFile(path, "mine\n");
  await assertRejects(
    () => writeFileAtomic(path, "new\n"),
    /run\.txt: refusing to overwrite an existing file \(pass --force to replace it\)/,
  );
  assertEquals(await Deno.readTextFile(path), "mine\n");
  // Another process creates the file after the check, while the kit is still writing.
  const racy = `${dir}/racy.txt`;
  const write = async (file: Deno.FsFile, bytes: Uint8Array) => {
    await Deno.writeTextFile(racy, "written by someone else\n");
    return await file.write(bytes);
  };
  await assertRejects(
    () => writeFileAtomic(racy, "kit output\n", { write }),
    /racy\.txt: refusing to overwrite a file that appeared while writing/,
  );
  assertEquals(await Deno.readTextFile(racy), "written by someone else\n");
  assertEquals(listing(dir), ["racy.txt", "run.txt"]);
  // With force the file is replaced.
  await writeFileAtomic(path, "new\n", { force: true });
  assertEquals(await Deno.readTextFile(path), "new\n");
});

Deno.test("writeRun / writeQrels / writeSpanRun: refuse without force, keep the old file on failure", async () => {
  const dir = await Deno.makeTempDir();
  const run = new Map([["q1", new Map([["a", 0.5], ["b", 0.25]])]]);
  const qrels = new Map([["q1", new Map([["a", 1]])]]);
  const spans = new Map([["1:1_1", [{ answer: "x", rank: 1, score: 1 }]]]);
  await writeRun(`${dir}/r.run`, run, { runId: "first" });
  await writeQrels(`${dir}/q.qrels`, qrels);
  await writeSpanRun(`${dir}/team_run1.json`, spans);
  const before = {
    run: await Deno.readTextFile(`${dir}/r.run`),
    qrels: await Deno.readTextFile(`${dir}/q.qrels`),
    spans: await Deno.readTextFile(`${dir}/team_run1.json`),
  };
  await assertRejects(() => writeRun(`${dir}/r.run`, run, { runId: "second" }), /refusing/);
  await assertRejects(() => writeQrels(`${dir}/q.qrels`, qrels), /refusing/);
  await assertRejects(() => writeSpanRun(`${dir}/team_run1.json`, spans), /refusing/);
  // A run that cannot be written (a NaN score in its second query) fails after the first
  // query's lines were produced: with force, the old file must survive untouched.
  const bad = new Map([...run, ["q2", new Map([["c", NaN]])]]);
  await assertRejects(() => writeRun(`${dir}/r.run`, bad, { force: true }), /score NaN/);
  await assertRejects(
    () => writeRun(`${dir}/r.run`, new Map([["q 1", new Map([["a", 1]])]]), { force: true }),
    /query id "q 1" holds " ", where trec_eval splits the fields of a line/,
  );
  assertEquals(await Deno.readTextFile(`${dir}/r.run`), before.run);
  assertEquals(await Deno.readTextFile(`${dir}/q.qrels`), before.qrels);
  assertEquals(await Deno.readTextFile(`${dir}/team_run1.json`), before.spans);
  assertEquals(listing(dir), ["q.qrels", "r.run", "team_run1.json"]);
  // And with force they are replaced, and read back.
  await writeRun(`${dir}/r.run`, run, { runId: "second", force: true });
  assertEquals((await readRun(`${dir}/r.run`)).get("q1")!.get("b"), 0.25);
  assert((await Deno.readTextFile(`${dir}/r.run`)).includes(" second\n"));
  await writeQrels(`${dir}/q.qrels`, new Map([["q9", new Map([["z", 2]])]]), { force: true });
  assertEquals((await readQrels(`${dir}/q.qrels`)).get("q9")!.get("z"), 2);
  await writeSpanRun(`${dir}/team_run1.json`, new Map([["2:2_2", []]]), { force: true });
  assert((await readSpanRun(`${dir}/team_run1.json`)).run.has("2:2_2"));
});

Deno.test("the kit's library writes files only through writeFileAtomic", async () => {
  // A direct write anywhere in lib/ would bypass the temp-file, rename and --force rules.
  const offenders: string[] = [];
  const direct = /Deno\.(writeFile|writeTextFile|create)(Sync)?\(|Deno\.open(Sync)?\([^)]*write/;
  async function scan(d: string) {
    for await (const e of Deno.readDir(d)) {
      const p = `${d}/${e.name}`;
      if (e.isDirectory) await scan(p);
      else if (p.endsWith(".ts") && !MECHANISM.includes(p)) {
        const lines = (await Deno.readTextFile(p)).split("\n");
        lines.forEach((l, i) => {
          // Doc examples (comment lines) may write fixtures.
          if (direct.test(l) && !/^\s*\*/.test(l)) offenders.push(`${p}:${i + 1}: ${l.trim()}`);
        });
      }
    }
  }
  await scan(LIB);
  assertEquals(offenders, []);
});

const LIB = new URL("../../lib", import.meta.url).pathname;
/**
 * The write mechanism itself: the writer, the early check's and the space check's probe files,
 * and the one-writer-at-a-time lock file (a flock'd file, no content of the user's).
 */
const MECHANISM = [`${LIB}/io/atomic.ts`, `${LIB}/io/output.ts`, `${LIB}/io/lock.ts`];
