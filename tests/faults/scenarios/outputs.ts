/**
 * Output paths: special files, links and folders (`targets`), and outputs that cannot be
 * written, checked before the work (`unwritable`). Every writing command goes through the
 * same resolution (lib/io/output.ts); `data qrels` tries every kind of target, the other
 * writers the kinds where a mistake would cost most.
 *
 * Nothing here waits for time: a process substitution's output is read from the pipe the
 * test reads to its end. That scenario, repeated beside two CPU hogs (as CI's two busy cores):
 *
 *     QA_KIT_SCENARIOS='>\(wc -l\)' \
 *       deno run -A tests/under_load.ts --runs 20 tests/faults/scenarios_test.ts
 *
 * @module
 */
import { assert, assertEquals } from "../../assert.ts";
import {
  ARGS,
  type Ctx,
  readOr,
  refused,
  SAMPLE,
  type Scenario,
  stable,
  succeeded,
} from "./kit.ts";

/** `data qrels` of the samples' test split, writing to `out`. */
const QRELS = (out: string, ...more: string[]) => ARGS.qrels("test", "--out", out, ...more);
const QRELS_LINES = 15;
const SCORE = (out: string, ...more: string[]) => ARGS.score("test", out, more);
const COMPARE = (out: string, ...more: string[]) => ARGS.compare("--out", out, ...more);
const BASELINE = (out: string) => ARGS.baseline(out);
const PRECIOUS = "the user's own file\n";

async function kindOf(path: string): Promise<string> {
  const st = await Deno.lstat(path);
  return st.isSymlink
    ? "link"
    : st.isFifo
    ? "fifo"
    : st.isCharDevice
    ? "char"
    : st.isBlockDevice
    ? "block"
    : st.isSocket
    ? "socket"
    : st.isDirectory
    ? "dir"
    : "file";
}

/** Runs `argv` writing to a FIFO that `cat` reads; returns the lines the reader got. */
async function throughFifo(ctx: Ctx, argv: string[], fifo = "out.fifo"): Promise<string> {
  await ctx.sh(`mkfifo ${fifo}`);
  const r = await ctx.sh(
    `cat ${fifo} > got & reader=$!; $KIT ${argv.map((a) => `'${a}'`).join(" ")}; ` +
      `status=$?; wait $reader; exit $status`,
  );
  succeeded(r, argv.slice(0, 2).join(" "));
  assertEquals(await kindOf(`${ctx.dir}/${fifo}`), "fifo", "the FIFO must stay a FIFO");
  return (await readOr(`${ctx.dir}/got`)) ?? "";
}

function lines(text: string): number {
  return text.split("\n").filter((l) => l !== "").length;
}

/** Makes a character device like /dev/null (1,3) inside the scenario's folder. */
async function devNullClone(ctx: Ctx, name: string): Promise<void> {
  const r = await ctx.sh(`mknod ${name} c 1 3 && chmod 666 ${name}`);
  assert(r.code === 0, r.stderr);
}

/** The output-target scenarios. */
export const TARGET_SCENARIOS: Scenario[] = [
  {
    cls: "targets",
    tried: "`data qrels --out FIFO` (a reader attached)",
    async run(ctx) {
      const got = await throughFifo(ctx, QRELS("out.fifo"));
      assertEquals(lines(got), QRELS_LINES);
      return `written through: the reader got all ${lines(got)} lines; the FIFO stays a FIFO`;
    },
  },
  {
    cls: "targets",
    tried: "`data qrels --out FIFO --force`",
    async run(ctx) {
      const got = await throughFifo(ctx, QRELS("out.fifo", "--force"));
      assertEquals(lines(got), QRELS_LINES);
      return "the same: `--force` never replaces a special file";
    },
  },
  {
    cls: "targets",
    tried: "`data qrels --out DEV --force`, DEV a character device made like `/dev/null` " +
      "(what `--out /dev/null --force` does as root)",
    needs: ["root"],
    async run(ctx) {
      await devNullClone(ctx, "null");
      const r = await ctx.kit(QRELS("null", "--force"));
      succeeded(r);
      assertEquals(await kindOf(`${ctx.dir}/null`), "char");
      return "exit 0, written through; the device node is still a device node";
    },
  },
  {
    cls: "targets",
    tried: "`data qrels --out /dev/null` (no `--force`)",
    async run(ctx) {
      const r = await ctx.kit(QRELS("/dev/null"));
      succeeded(r);
      assertEquals(await kindOf("/dev/null"), "char");
      return "exit 0: nothing is replaced, so `--force` is not needed (as with `set -C; >`)";
    },
  },
  {
    cls: "targets",
    tried: "`data qrels --out /dev/full`",
    async run(ctx) {
      const r = await ctx.kit(QRELS("/dev/full"));
      return refused(r, "/dev/full", /the device is full/);
    },
  },
  {
    cls: "targets",
    tried: "`data qrels --out /dev/stdout | wc -l`",
    async run(ctx) {
      const r = await ctx.sh(`$KIT ${QRELS("/dev/stdout").join(" ")} | wc -l`);
      assertEquals(r.stdout.trim(), String(QRELS_LINES), r.stderr);
      return `the ${QRELS_LINES} lines go down the pipe`;
    },
  },
  {
    cls: "targets",
    tried: "`data qrels --out /dev/stdout >> FILE` (FILE has a line already)",
    async run(ctx) {
      await Deno.writeTextFile(`${ctx.dir}/log`, "kept\n");
      const r = await ctx.sh(`$KIT ${QRELS("/dev/stdout").join(" ")} >> log`);
      succeeded(r);
      const text = (await readOr(`${ctx.dir}/log`))!;
      assert(text.startsWith("kept\n"), text);
      assertEquals(lines(text), QRELS_LINES + 1);
      return "appended after the existing line (descriptors are opened for appending)";
    },
  },
  {
    cls: "targets",
    tried: "`data qrels --out >(wc -l)` (bash process substitution: `/dev/fd/63`)",
    async run(ctx) {
      // `wc` prints on the shell's standard output, a pipe the test reads to its end: its count
      // is there however long after the kit the substituted process finishes.
      const r = await ctx.sh(`$KIT ${QRELS("OUT").join(" ").replace("OUT", ">(wc -l)")}`);
      succeeded(r);
      assertEquals(r.stdout.trim(), String(QRELS_LINES));
      return `written through the descriptor: \`wc\` counted ${QRELS_LINES} lines`;
    },
  },
  {
    cls: "targets",
    tried: "`data qrels --out /dev/stderr 2> FILE`",
    async run(ctx) {
      const r = await ctx.sh(`$KIT ${QRELS("/dev/stderr").join(" ")} 2> err`);
      succeeded(r);
      const err = (await readOr(`${ctx.dir}/err`))!;
      assertEquals(err.split("\n").filter((l) => / 0 \S+ [01]$/.test(l)).length, QRELS_LINES);
      return "the qrels go to standard error's file, beside the command's notes";
    },
  },
  {
    cls: "targets",
    tried: "`data qrels --out newdir/` (a trailing slash: a folder that does not exist yet)",
    async run(ctx) {
      const doc = refused(await ctx.kit(QRELS("newdir/")), "newdir/", /names a folder, not a file/);
      assertEquals(await readOr(`${ctx.dir}/newdir`), undefined);
      assertEquals([...Deno.readDirSync(ctx.dir)].length, 0, "nothing created");
      return `${doc}; no folder is created`;
    },
  },
  {
    cls: "targets",
    tried: "`data qrels --out 'my runs/تشغيل 1.qrels'` (spaces and Arabic in the path)",
    async run(ctx) {
      succeeded(await ctx.kit(QRELS("my runs/تشغيل 1.qrels")));
      assertEquals(lines((await readOr(`${ctx.dir}/my runs/تشغيل 1.qrels`))!), QRELS_LINES);
      return "written, the folder created";
    },
  },
  {
    cls: "targets",
    tried: "`data qrels --out PRIVATE --force`, PRIVATE an existing file with mode 0600",
    async run(ctx) {
      await Deno.writeTextFile(`${ctx.dir}/private.qrels`, PRECIOUS, { mode: 0o600 });
      await Deno.chmod(`${ctx.dir}/private.qrels`, 0o600);
      succeeded(await ctx.kit(QRELS("private.qrels", "--force")));
      assertEquals(lines((await readOr(`${ctx.dir}/private.qrels`))!), QRELS_LINES);
      assertEquals((await Deno.stat(`${ctx.dir}/private.qrels`)).mode! & 0o777, 0o600);
      return "replaced, and still 0600: a replaced file keeps its permissions";
    },
  },
  {
    cls: "targets",
    tried: "`data qrels --out LINK`, LINK a symlink to an existing file, no `--force`",
    async run(ctx) {
      await Deno.writeTextFile(`${ctx.dir}/mine.qrels`, PRECIOUS);
      await Deno.symlink("mine.qrels", `${ctx.dir}/link.qrels`);
      const r = await ctx.kit(QRELS("link.qrels"));
      const doc = refused(r, "link.qrels", /refusing to overwrite an existing file, .*mine\.qrels/);
      assertEquals(await readOr(`${ctx.dir}/mine.qrels`), PRECIOUS);
      assertEquals(await kindOf(`${ctx.dir}/link.qrels`), "link");
      return doc;
    },
  },
  {
    cls: "targets",
    tried: "`data qrels --out LINK --force`",
    async run(ctx) {
      await Deno.writeTextFile(`${ctx.dir}/mine.qrels`, PRECIOUS);
      await Deno.symlink("mine.qrels", `${ctx.dir}/link.qrels`);
      succeeded(await ctx.kit(QRELS("link.qrels", "--force")));
      assertEquals(await kindOf(`${ctx.dir}/link.qrels`), "link");
      assertEquals(await Deno.readLink(`${ctx.dir}/link.qrels`), "mine.qrels");
      assertEquals(lines((await readOr(`${ctx.dir}/mine.qrels`))!), QRELS_LINES);
      return "the file the link leads to is replaced (atomically); the link stays a link";
    },
  },
  {
    cls: "targets",
    tried: "`data qrels --out LINK`, a dangling link (its target does not exist)",
    async run(ctx) {
      await Deno.symlink("made/by/link.qrels", `${ctx.dir}/link.qrels`);
      succeeded(await ctx.kit(QRELS("link.qrels")));
      assertEquals(lines((await readOr(`${ctx.dir}/made/by/link.qrels`))!), QRELS_LINES);
      return "the link's target is created (with its folders), as `>` would";
    },
  },
  {
    cls: "targets",
    tried: "`data qrels --out LOOP`, two links pointing at each other",
    async run(ctx) {
      await Deno.symlink("b", `${ctx.dir}/a`);
      await Deno.symlink("a", `${ctx.dir}/b`);
      return refused(await ctx.kit(QRELS("a", "--force")), "a", /too many levels of symbolic/);
    },
  },
  {
    cls: "targets",
    tried: "`data qrels --out LINK`, a link to a folder",
    async run(ctx) {
      await Deno.mkdir(`${ctx.dir}/folder`);
      await Deno.symlink("folder", `${ctx.dir}/link`);
      return refused(await ctx.kit(QRELS("link", "--force")), "link", /is a folder/);
    },
  },
  {
    cls: "targets",
    tried: "`data qrels --out .` and `--out FOLDER --force`",
    async run(ctx) {
      await Deno.mkdir(`${ctx.dir}/folder`);
      await Deno.writeTextFile(`${ctx.dir}/folder/mine`, PRECIOUS);
      refused(await ctx.kit(QRELS(".")), ".", /is a folder/);
      const doc = refused(await ctx.kit(QRELS("folder", "--force")), "folder", /is a folder/);
      assertEquals(await readOr(`${ctx.dir}/folder/mine`), PRECIOUS);
      return doc;
    },
  },
  {
    cls: "targets",
    tried: "`data qrels --out SOCKET --force` (a Unix socket)",
    async run(ctx) {
      const listener = Deno.listen({ transport: "unix", path: `${ctx.dir}/sock` });
      ctx.defer(() => listener.close());
      const doc = refused(await ctx.kit(QRELS("sock", "--force")), "sock", /is a socket/);
      assertEquals(await kindOf(`${ctx.dir}/sock`), "socket");
      return doc;
    },
  },
  {
    cls: "targets",
    tried: "`data qrels --out DISK --force`, a block device node",
    needs: ["root"],
    async run(ctx) {
      // A node for a loop device number: refused before anything opens it.
      const r = await ctx.sh("mknod disk b 7 250");
      assert(r.code === 0, r.stderr);
      const doc = refused(await ctx.kit(QRELS("disk", "--force")), "disk", /block device/);
      assertEquals(await kindOf(`${ctx.dir}/disk`), "block");
      return doc;
    },
  },
  {
    cls: "targets",
    tried: "`score --out FIFO` (a reader attached)",
    async run(ctx) {
      const got = await throughFifo(ctx, SCORE("run.fifo"), "run.fifo");
      assert(/ Q0 /.test(got) && lines(got) === QRELS_LINES, got);
      return `the run (${lines(got)} lines) reaches the reader; the FIFO stays`;
    },
  },
  {
    cls: "targets",
    tried: "`score --out LINK --force`, a link to an existing run",
    async run(ctx) {
      await Deno.writeTextFile(`${ctx.dir}/old.run`, PRECIOUS);
      await Deno.symlink("old.run", `${ctx.dir}/latest.run`);
      succeeded(await ctx.kit(SCORE("latest.run", "--force")));
      assertEquals(await kindOf(`${ctx.dir}/latest.run`), "link");
      assert(/ Q0 /.test((await readOr(`${ctx.dir}/old.run`))!));
      return "the run the link leads to is replaced; the link stays";
    },
  },
  {
    cls: "targets",
    tried: "`score --out DEV --force`, a `/dev/null`-like device node",
    needs: ["root"],
    async run(ctx) {
      await devNullClone(ctx, "null");
      succeeded(await ctx.kit(SCORE("null", "--force")));
      assertEquals(await kindOf(`${ctx.dir}/null`), "char");
      return "exit 0, written through; the node stays";
    },
  },
  {
    cls: "targets",
    tried: "`eval compare --out FIFO`",
    async run(ctx) {
      const got = await throughFifo(ctx, COMPARE("table.fifo"), "table.fifo");
      assert(got.includes("| a"), got);
      return "the table reaches the reader";
    },
  },
  {
    cls: "targets",
    tried: "`eval qrcd-baseline --out /dev/stdout`",
    async run(ctx) {
      const r = await ctx.kit(BASELINE("/dev/stdout"));
      succeeded(r);
      assert(JSON.parse(r.stdout) && r.stdout.includes("113:1-5_911"), r.stdout);
      return "the run JSON goes to standard output";
    },
  },
  {
    cls: "targets",
    tried: "`fuse RUN RUN --out FIFO` (a reader attached)",
    async run(ctx) {
      const got = await throughFifo(
        ctx,
        ["fuse", SAMPLE.run, SAMPLE.run, "--out", "f.fifo"],
        "f.fifo",
      );
      assert(/ Q0 .* rrf$/m.test(got), got);
      return "the fused run reaches the reader; the FIFO stays";
    },
  },
  {
    cls: "targets",
    tried: "`data fetch qrcd --dir LINK`, a link to an empty folder",
    needs: ["corpora"],
    async run(ctx) {
      await Deno.mkdir(`${ctx.dir}/real`);
      await Deno.symlink("real", `${ctx.dir}/cache`);
      succeeded(
        await ctx.kit(ARGS.fetch("qrcd", ctx.corpora, "cache")),
      );
      assertEquals(await kindOf(`${ctx.dir}/cache`), "link");
      assert(await readOr(`${ctx.dir}/real/qrcd/.installed.json`));
      return "installed into the folder the link leads to";
    },
  },
  {
    cls: "targets",
    tried: "`data fetch qrcd --dir FIFO`",
    async run(ctx) {
      await ctx.sh("mkfifo pipe");
      const r = await ctx.kit([
        "data",
        "fetch",
        "qrcd",
        "--mirror",
        "/nonexistent",
        "--dir",
        "pipe",
      ]);
      // The folder is checked before the mirror, the download or anything else.
      return refused(r, "pipe", /cannot install qrcd into this folder: pipe is a file/);
    },
  },
];

/** Outputs that cannot be written, each checked before the work. */
export const UNWRITABLE_SCENARIOS: Scenario[] = [
  {
    cls: "unwritable",
    tried: "`data qrels --out FILE/x` (a path through an existing file)",
    async run(ctx) {
      await Deno.writeTextFile(`${ctx.dir}/notes.txt`, PRECIOUS);
      const r = await ctx.kit(QRELS("notes.txt/x.qrels"));
      const doc = refused(r, "notes.txt/x.qrels", /notes\.txt is a file, not a folder/);
      assertEquals(await readOr(`${ctx.dir}/notes.txt`), PRECIOUS);
      return doc;
    },
  },
  {
    cls: "unwritable",
    tried: "`data qrels --out RO/missing/x.qrels` (a missing folder on a read-only file " +
      "system: a real read-only tmpfs)",
    needs: ["mount"],
    async run(ctx) {
      await ctx.tmpfs("ro");
      return refused(await ctx.kit(QRELS("ro/missing/x.qrels")), "ro/missing/x.qrels", /read-only/);
    },
  },
  {
    cls: "unwritable",
    tried: "`data qrels --out RO/x.qrels --force` (read-only file system)",
    needs: ["mount"],
    async run(ctx) {
      await ctx.tmpfs("ro");
      return refused(await ctx.kit(QRELS("ro/x.qrels", "--force")), "ro/x.qrels", /read-only/);
    },
  },
  {
    cls: "unwritable",
    tried: "`data fetch qrcd --dir RO` (read-only file system)",
    needs: ["mount"],
    async run(ctx) {
      await ctx.tmpfs("ro");
      const r = await ctx.kit(ARGS.fetch("qrcd", ctx.mirror, "ro"));
      return refused(r, "ro", /cannot install qrcd into this folder: read-only/);
    },
  },
  {
    cls: "unwritable",
    tried: "`data fetch qrcd --dir RO/new/cache` (missing folders on a read-only file system)",
    needs: ["mount"],
    async run(ctx) {
      await ctx.tmpfs("ro");
      const r = await ctx.kit(ARGS.fetch("qrcd", ctx.mirror, "ro/new/cache"));
      return refused(r, "ro/new/cache", /read-only file system \(ro\)/);
    },
  },
  {
    cls: "unwritable",
    tried: "`data fetch qrcd --dir FILE/cache`",
    async run(ctx) {
      await Deno.writeTextFile(`${ctx.dir}/notes.txt`, PRECIOUS);
      const r = await ctx.kit(["data", "fetch", "qrcd", "--dir", "notes.txt/cache"]);
      return refused(r, "notes.txt/cache", /notes\.txt is a file, not a folder/);
    },
  },
  {
    cls: "unwritable",
    tried: "`score --out RO/x.run --model no/such-model`: is the output checked before the " +
      "model is loaded?",
    needs: ["mount"],
    async run(ctx) {
      await ctx.tmpfs("ro");
      const argv = SCORE("ro/x.run").map((a) => a === "lexical:wordcnt" ? "no/such-model" : a);
      const doc = refused(await ctx.kit(argv), "ro/x.run", /read-only/);
      return `${doc} (before the model, so before any scoring)`;
    },
  },
  {
    cls: "unwritable",
    tried: "`score --out EXISTING.run --model no/such-model` (no `--force`)",
    async run(ctx) {
      await Deno.writeTextFile(`${ctx.dir}/mine.run`, PRECIOUS);
      const argv = SCORE("mine.run").map((a) => a === "lexical:wordcnt" ? "no/such-model" : a);
      const doc = refused(await ctx.kit(argv), "mine.run", /refusing to overwrite/);
      assertEquals(await readOr(`${ctx.dir}/mine.run`), PRECIOUS);
      return doc;
    },
  },
  {
    cls: "unwritable",
    tried: "`eval compare --out RO/t.md` with a run file that does not exist",
    needs: ["mount"],
    async run(ctx) {
      await ctx.tmpfs("ro");
      const argv = COMPARE("ro/t.md").map((a) => a === SAMPLE.run ? "missing.run" : a);
      return refused(await ctx.kit(argv), "ro/t.md", /read-only/);
    },
  },
  {
    cls: "unwritable",
    tried: "`fuse missing.run RUN --out RO/f.run` (the output checked before the runs are read)",
    needs: ["mount"],
    async run(ctx) {
      await ctx.tmpfs("ro");
      const r = await ctx.kit(["fuse", "missing.run", SAMPLE.run, "--out", "ro/f.run"]);
      return refused(r, "ro/f.run", /read-only/);
    },
  },
  {
    cls: "unwritable",
    tried: "`eval qrcd-baseline --out FILE/run.json`",
    async run(ctx) {
      await Deno.writeTextFile(`${ctx.dir}/notes.txt`, PRECIOUS);
      return refused(
        await ctx.kit(BASELINE("notes.txt/run.json")),
        "notes.txt/run.json",
        /notes\.txt is a file, not a folder/,
      );
    },
  },
  {
    cls: "unwritable",
    tried: "`data qrels --out ''` (an empty name)",
    async run(ctx) {
      const r = await ctx.kit(QRELS(""));
      assertEquals(r.code, 2);
      return `exit 2: \`${stable(errorOnly(r.stderr))}\``;
    },
  },
  {
    cls: "unwritable",
    tried: "`data qrels --out NAME` with a 300-character file name",
    async run(ctx) {
      const name = "q".repeat(300);
      const r = await ctx.kit(QRELS(name));
      const doc = refused(r, name, /file name is too long/);
      return doc.replace(name, "qqq...q");
    },
  },
  {
    cls: "unwritable",
    tried: "`data qrels --out FULL/x.qrels --force` on a full file system (a 16 KiB tmpfs, " +
      "the earlier file kept)",
    needs: ["mount"],
    async run(ctx) {
      const full = await ctx.tmpfs("full", { size: "16k", readOnly: false });
      await Deno.writeTextFile(`${full}/x.qrels`, PRECIOUS);
      // Fill the rest of the file system.
      await ctx.sh("head -c 1000000 /dev/zero > full/filler 2>/dev/null; true");
      const r = await ctx.kit(QRELS("full/x.qrels", "--force"));
      if (r.code === 0) {
        // The qrels fitted in what was left: then the disk was not full; make it so.
        throw new Error(`the write fitted on the full tmpfs: ${r.stderr}`);
      }
      const doc = refused(r, "full/x.qrels", /disk is full|No space left/);
      assertEquals(await readOr(`${full}/x.qrels`), PRECIOUS);
      return doc;
    },
  },
];

function errorOnly(stderr: string): string {
  return stderr.split("\n").find((l) => l.startsWith("error: ")) ?? stderr.trim();
}
