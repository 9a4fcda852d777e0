/**
 * The kit where users run it: a report folder on a read-only or full file system or holding
 * the user's files (`--force` keeps them; one where the report writes stops it), `./kit` with
 * `JUPYTER_DATA_DIR` set (where the kernel is registered, and that `--help` changes nothing),
 * and a checkout copied with `cp -a` or mounted read-only (the corpus check says one line, once).
 *
 * Nothing here waits for the clock: a copy's later change times come from recording the install
 * a second earlier in its marker (`installedASecondEarlier`). Those two, repeated beside two CPU
 * hogs (as CI's two busy cores):
 *
 *     QA_KIT_SCENARIOS='cp -a|same copy' \
 *       deno run -A tests/under_load.ts --runs 20 tests/faults/scenarios_test.ts
 *
 * @module
 */
import { assert, assertEquals } from "../../assert.ts";
import { PROJECT_ROOT } from "../../../lib/data/paths.ts";
import { manifestOf } from "../../../lib/report/build/foreign.ts";
import { ARGS, finish, listing, readOr, refused, type Scenario, start, succeeded } from "./kit.ts";

/** `./kit ARGS` in the scenario's folder with `env`. */
function kitScript(dir: string, args: string[], env: Record<string, string>) {
  return finish(start(`${PROJECT_ROOT}/kit`, args, dir, { env, asCaller: true }));
}

/**
 * Records in a corpus's install marker that it was installed a second earlier than it was, so a
 * copy made now has later change times whatever the clock says. (Deno gives change times to the
 * second and nothing sets them: otherwise the copy would have to wait for the next second.)
 */
async function installedASecondEarlier(marker: string): Promise<void> {
  const data = JSON.parse(await Deno.readTextFile(marker));
  for (const f of Object.values(data.files) as { ctimeMs?: number | null }[]) {
    if (typeof f.ctimeMs === "number") f.ctimeMs -= 1000;
  }
  await Deno.writeTextFile(marker, JSON.stringify(data, null, 2) + "\n");
}

/** Every entry below `dir`, recursively (for "nothing was written"). */
function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of Deno.readDirSync(d)) {
      out.push(`${d.slice(dir.length)}/${e.name}`);
      if (e.isDirectory) walk(`${d}/${e.name}`);
    }
  };
  walk(dir);
  return out.sort();
}

/** The report names its folder by absolute path: the doc shows it from the scenario's folder. */
function inDir(doc: string): string {
  return doc.replace(/[^\s`(]*\/DIR\//g, "DIR/");
}

const REPORT = (out: string) => ["report", "--only", "01", "--no-pdf", "--out", out];

/**
 * A report folder that cannot be written, or holds a file the report would overwrite, checked
 * before any notebook runs.
 */
export const REPORT_DESTINATION_SCENARIOS: Scenario[] = [
  {
    cls: "unwritable",
    tried: "`report --out RO/report` (a read-only file system: a real read-only tmpfs)",
    needs: ["mount"],
    async run(ctx) {
      await ctx.tmpfs("ro");
      const r = await ctx.kit(REPORT("ro/report"));
      assert(!/executing/.test(r.stderr), `a notebook ran:\n${r.stderr}`);
      return inDir(refused(r, `${ctx.dir}/ro/report`, /cannot write: read-only file system/));
    },
  },
  {
    cls: "unwritable",
    tried: "`report --out FULL/report` (a full file system: a 64 KiB tmpfs filled up)",
    needs: ["mount"],
    async run(ctx) {
      const full = await ctx.tmpfs("full", { readOnly: false });
      const fill = await ctx.sh("dd if=/dev/zero of=full/filler bs=4k 2>/dev/null || true");
      assertEquals(fill.code, 0);
      const r = await ctx.kit(REPORT("full/report"));
      assert(!/executing/.test(r.stderr), `a notebook ran:\n${r.stderr}`);
      const doc = inDir(refused(r, `${ctx.dir}/full/report`, /the disk is full/));
      // No empty `report.tmp-PID-*` folder left behind.
      assertEquals(listing(full), ["filler"]);
      return `${doc}; nothing left in the folder`;
    },
  },
  {
    cls: "targets",
    tried: "`report --out R --force`, R a report holding NOTES.txt (0600, dated 2001), mine/ " +
      "and html/01-datasets.html",
    async run(ctx) {
      const out = `${ctx.dir}/R`;
      await Deno.mkdir(`${out}/html`, { recursive: true });
      await Deno.mkdir(`${out}/mine`);
      await Deno.writeTextFile(`${out}/index.html`, "<p>the previous report</p>\n");
      await Deno.writeTextFile(
        `${out}/.kit-report`,
        JSON.stringify(manifestOf(out, "deno task report", ["index.html"])),
      );
      await Deno.writeTextFile(`${out}/html/01-datasets.html`, "<p>my own page</p>\n");
      await Deno.writeTextFile(`${out}/NOTES.txt`, "my notes\n");
      await Deno.chmod(`${out}/NOTES.txt`, 0o600);
      await Deno.writeTextFile(`${out}/mine/base.run`, "q1 Q0 d1 1 0.5 mine\n");
      const then = new Date("2001-02-03T04:05:06Z");
      for (const p of ["NOTES.txt", "mine/base.run", "mine"]) {
        await Deno.utime(`${out}/${p}`, then, then);
      }
      const users = ["NOTES.txt", "mine", "mine/base.run"];
      const stamp = async (p: string) => {
        const st = await Deno.lstat(`${out}/${p}`);
        const bytes = st.isFile ? await Deno.readTextFile(`${out}/${p}`) : "folder";
        return `${p} ${(st.mode! & 0o7777).toString(8)} ${st.mtime?.toISOString()} ${bytes}`;
      };
      const before = await Promise.all(users.map(stamp));
      const clash = await ctx.kit([...REPORT("R"), "--force"]);
      assert(!/executing/.test(clash.stderr), `a notebook ran:\n${clash.stderr}`);
      const doc = inDir(
        refused(clash, out, /refusing to build: 1 file\(s\) .* \(html\/01-datasets\.html\)/),
      );
      assertEquals(await Deno.readTextFile(`${out}/html/01-datasets.html`), "<p>my own page</p>\n");
      await Deno.rename(`${out}/html/01-datasets.html`, `${ctx.dir}/01-datasets.html`);
      const forced = await ctx.kit([...REPORT("R"), "--force"]);
      succeeded(forced, "report --force");
      assertEquals(await Promise.all(users.map(stamp)), before);
      assert(before[0].startsWith("NOTES.txt 600 2001-02-03T04:05:06.000Z"), before[0]);
      const marker = JSON.parse(await Deno.readTextFile(`${out}/.kit-report`));
      const listed: string[] = marker.files.map((f: { path: string }) => f.path);
      assert(listed.includes("html/01-datasets.html"), listed.join(" "));
      assert(!listed.some((f) => f === "NOTES.txt" || f.startsWith("mine/")));
      assert(/01-datasets/.test(await Deno.readTextFile(`${out}/index.html`)));
      assertEquals(listing(ctx.dir), ["01-datasets.html", "R"]);
      return `${doc}; with that page moved out, exit 0: the report replaced what it wrote, ` +
        "NOTES.txt and mine/ kept in the new report (same bytes, mode and time), listed " +
        "nowhere in its `.kit-report`";
    },
  },
];

/** `./kit` on a machine set up by its user: the kernelspec, --help, a copied checkout. */
export const MACHINE_SCENARIOS: Scenario[] = [
  {
    cls: "machine",
    tried: "`./kit --help`, `./kit`, `./kit eval --help` with `JUPYTER_DATA_DIR` set to an " +
      "empty folder",
    needs: ["kit"],
    async run(ctx) {
      const data = `${ctx.dir}/jupyter`;
      // A temporary folder of its own, and no runtime folder: whatever ./kit made there (mktemp's
      // tmp.*, its kernelspec and runtime folders) shows, and nothing another test or scenario
      // makes in the shared /tmp meanwhile does (CI saw one's kernelspec folder).
      const tmp = await Deno.makeTempDir({ prefix: "kit-fault-tmp-" });
      ctx.defer(() => Deno.remove(tmp, { recursive: true }));
      const env = { JUPYTER_DATA_DIR: data, TMPDIR: tmp, XDG_RUNTIME_DIR: "" };
      const help = await kitScript(ctx.dir, ["--help"], env);
      assertEquals(help.code, 0, help.stderr);
      assert(help.stderr.startsWith("usage: ./kit report"), help.stderr);
      const none = await kitScript(ctx.dir, [], env);
      assertEquals(none.code, 2);
      const evalHelp = await kitScript(ctx.dir, ["eval", "--help"], env);
      assertEquals(evalHelp.code, 0, evalHelp.stderr);
      assert(evalHelp.stdout.includes("eval trec"), evalHelp.stdout);
      for (const r of [help, none, evalHelp]) {
        assert(!/kernel|installed/i.test(r.stderr), `it registered something:\n${r.stderr}`);
      }
      assertEquals(listing(ctx.dir), [], "nothing written in the folder (no kernelspec)");
      assertEquals(listing(tmp), [], "no temporary file or folder");
      return "usage (exit 0), usage (exit 2), the group's commands (exit 0); nothing registered, " +
        "nothing written";
    },
  },
  {
    cls: "machine",
    tried: "`JUPYTER_DATA_DIR=D ./kit setup` twice, then with D's kernelspec pointing at " +
      "another Deno",
    needs: ["kit"],
    async run(ctx) {
      const data = `${ctx.dir}/jupyter`;
      const env = { JUPYTER_DATA_DIR: data };
      const spec = `${data}/kernels/deno/kernel.json`;
      const first = await kitScript(ctx.dir, ["setup"], env);
      succeeded(first, "./kit setup");
      const line = `registered the Deno Jupyter kernel`;
      assertEquals(
        first.stderr.split("\n").filter((l) => l.includes(line)).length,
        1,
        first.stderr,
      );
      const argv0 = () => JSON.parse(Deno.readTextFileSync(spec)).argv[0] as string;
      const deno = argv0();
      assert(deno.endsWith("/deno"), deno);
      assertEquals(tree(`${data}/kernels`).includes("/deno/logo-64x64.png"), true);
      // Jupyter itself finds it there.
      const list = await finish(
        start("jupyter", ["kernelspec", "list", "--json"], ctx.dir, {
          env: { ...env, PYDEVD_DISABLE_FILE_VALIDATION: "1" },
        }),
      );
      const found = JSON.parse(list.stdout).kernelspecs.deno.resource_dir as string;
      assertEquals(found, `${data}/kernels/deno`);
      const second = await kitScript(ctx.dir, ["setup"], env);
      succeeded(second, "./kit setup");
      assertEquals(second.stderr, "", "silent when the kernel is registered");
      await Deno.writeTextFile(spec, (await readOr(spec))!.replace(deno, "/elsewhere/deno"));
      const third = await kitScript(ctx.dir, ["setup"], env);
      succeeded(third, "./kit setup");
      assert(third.stderr.includes(line), third.stderr);
      assertEquals(argv0(), deno);
      return "registered in D once (one line), then silent; a kernelspec pointing at another " +
        "Deno is registered again";
    },
  },
  {
    cls: "corpus",
    tried: "the installed QRCD copied with `cp -a` (a copied checkout: every change time new), " +
      "then `data stats qrcd --dir COPY` twice",
    needs: ["corpora"],
    async run(ctx) {
      succeeded(await ctx.kit(ARGS.fetch("qrcd", ctx.corpora, "cache")));
      await installedASecondEarlier(`${ctx.dir}/cache/qrcd/.installed.json`);
      succeeded(await ctx.sh("cp -a cache copy"));
      const stats = ["data", "stats", "qrcd", "--dir", "copy"];
      const first = await ctx.kit(stats);
      succeeded(first, "data stats");
      const notes = first.stderr.split("\n").filter((l) => l.startsWith("note:"));
      assertEquals(notes.length, 1, first.stderr);
      assert(/recorded in its install marker/.test(notes[0]), notes[0]);
      const second = await ctx.kit(stats);
      succeeded(second, "data stats");
      assert(!/note:/.test(second.stderr), second.stderr);
      assertEquals(second.stdout, first.stdout);
      return `one line (\`${notes[0].replace(ctx.dir, "DIR")}\`), then none`;
    },
  },
  {
    cls: "corpus",
    tried: "the same copy on a read-only file system (a read-only checkout)",
    needs: ["corpora", "mount"],
    async run(ctx) {
      succeeded(await ctx.kit(ARGS.fetch("qrcd", ctx.corpora, "cache")));
      await ctx.tmpfs("ro", { readOnly: false, size: "64m" });
      await installedASecondEarlier(`${ctx.dir}/cache/qrcd/.installed.json`);
      succeeded(await ctx.sh("cp -a cache/. ro/ && mount -o remount,ro ro"));
      const env = { XDG_CACHE_HOME: `${ctx.dir}/user-cache` };
      const stats = ["data", "stats", "qrcd", "--dir", "ro"];
      const first = await ctx.kit(stats, { env });
      succeeded(first, "data stats");
      const notes = first.stderr.split("\n").filter((l) => l.startsWith("note:"));
      assertEquals(notes.length, 1, first.stderr);
      assert(/\(the corpus folder cannot be written\)/.test(notes[0]), notes[0]);
      const second = await ctx.kit(stats, { env });
      succeeded(second, "data stats");
      assert(!/note:/.test(second.stderr), second.stderr);
      return `one line (\`${
        notes[0].replaceAll(ctx.dir, "DIR")
      }\`), then none: the verified times are kept in the user's cache`;
    },
  },
];
