/**
 * Nothing the user has is lost by a report that does not finish: the new report is built
 * beside the old one and swapped in only when complete. Real interrupts of a running
 * `deno task report` (Ctrl-C as a terminal sends it, to the whole process group; SIGTERM to
 * the kit's process alone) stop the notebook runner and its Jupyter kernel, remove the partial
 * folder, and leave the previous report as it was; a failing model or cell does the same (a
 * failing cell keeps the attempt as `<out>.failed/`); a partial folder left by a killed build is
 * swept by the next one; an input inside the report folder, or a file there the kit did not
 * write, stops the report before any work; with --force the report replaces only what it wrote
 * and the user's files go on in the new report (and stay in the old one when a build fails or
 * is interrupted).
 *
 * The signals are sent on events, never after a sleep: once the notebook runner and its kernel
 * run (read from /proc), and the test then waits for every process of the report to be gone,
 * however long that takes on a loaded machine (each wait also ends, failing with the report's
 * stderr, if the report ends first). Repeated beside two CPU hogs (as CI's two busy cores):
 *
 *     deno run -A tests/under_load.ts --runs 20 tests/report/interrupt_test.ts
 *
 * or, for the three tests that signal a report alone (a fifth of the time):
 *
 *     deno run -A tests/under_load.ts --runs 20 tests/report/interrupt_test.ts -- \
 *       --filter '/^report (interrupted|killed)/'
 */
import assert from "node:assert/strict";
import { type Descendant, descendants } from "../../lib/report/check/process_tree.ts";
import { buildReport } from "../../lib/report/build/build.ts";
import { openWorkspace, REPORT_MARKER, writeMarker } from "../../lib/report/build/workspace.ts";
import { UNFINISHED_MARKER } from "../../lib/report/build/foreign.ts";
import { runCli, waitFor } from "../helpers.ts";
import { denoNotebook } from "./notebook_fixture.ts";

const ROOT = new URL("../..", import.meta.url).pathname.replace(/\/$/, "");
const SAMPLE_RUN = `${ROOT}/data/samples/runs/wikiqa-test.run`;

/** A report folder the kit made earlier, with a few files, and a snapshot of its contents. */
async function oldReport(): Promise<{ dir: string; out: string; snapshot: () => Promise<string> }> {
  const dir = await Deno.makeTempDir({ prefix: "kit-interrupt-" });
  const out = `${dir}/report`;
  await Deno.mkdir(`${out}/html`, { recursive: true });
  await Deno.writeTextFile(`${out}/index.html`, "<p>the previous report</p>\n");
  await Deno.writeTextFile(`${out}/html/01-datasets.html`, "<p>a page</p>\n");
  await writeMarker(out);
  // The user's own files in it: every build below runs with --force, which keeps them.
  await Deno.writeTextFile(`${out}/NOTES.txt`, "my notes\n");
  await Deno.mkdir(`${out}/mine`);
  await Deno.writeTextFile(`${out}/mine/base.run`, "q 0 d 1 1 mine\n");
  const snapshot = async () => {
    const files: string[] = [];
    const walk = async (d: string) => {
      for await (const e of Deno.readDir(d)) {
        if (e.isDirectory) await walk(`${d}/${e.name}`);
        else {files.push(
            `${d.slice(out.length)}/${e.name}: ${await Deno.readTextFile(`${d}/${e.name}`)}`,
          );}
      }
    };
    await walk(out);
    return files.sort().join("\n");
  };
  return { dir, out, snapshot };
}

/**
 * Starts `deno task report`, or `./kit report` (`via: "kit"`), in a session of its own (a
 * terminal's process group).
 */
function startReport(out: string, via: "task" | "kit" = "task") {
  const [cmd, first] = via === "kit"
    ? [`${ROOT}/kit`, ["report"]]
    : [Deno.execPath(), ["task", "-q", "report"]];
  return new Deno.Command(cmd, {
    args: [
      ...first,
      "--data",
      "sample",
      "--run",
      `mine=${SAMPLE_RUN}`,
      "--only",
      "00",
      "--out",
      out,
      "--no-pdf",
      "--force",
    ],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
    detached: true,
    env: { NO_COLOR: "1" },
  }).spawn();
}

/**
 * Waits until the report's notebook runner, its kernel and its browser run (the browser starts
 * beside the runner, not before it: on a loaded machine either may come first), or the report
 * ends (then fails with its stderr); returns the tree of processes below the report.
 */
async function waitForKernel(child: Deno.ChildProcess): Promise<Descendant[]> {
  return await waitFor(
    "the notebook runner, its kernel and the browser to start",
    () => {
      const tree = descendants(child.pid);
      const has = (test: (a: string) => boolean) => tree.some((d) => d.argv.some(test));
      const kernel = tree.some((d) => d.argv.includes("jupyter") && d.argv.includes("--kernel"));
      const runner = has((a) => a.endsWith("run_notebook.py"));
      const browser = has((a) => a.startsWith("--user-data-dir="));
      return kernel && runner && browser ? tree : undefined;
    },
    child,
    { interval: 20 },
  );
}

/** Waits until none of `processes` runs any more (no time limit: see the module's note). */
async function waitGone(what: string, processes: Descendant[]): Promise<void> {
  await waitFor(what, () => !processes.some((d) => running(d.pid)), undefined, { interval: 20 });
}

function running(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
}

for (
  const [how, send] of [
    // A terminal's Ctrl-C: SIGINT to every process of the foreground group.
    ["Ctrl-C (SIGINT to the process group)", (pid: number) => Deno.kill(-pid, "SIGINT")],
    // `kill PID` of the kit's own process (below `deno task`).
    ["SIGTERM to the kit's process", (pid: number) => {
      const kit = descendants(pid).find((d) => d.argv.includes("lib/cli/main.ts"))!;
      Deno.kill(kit.pid, "SIGTERM");
    }],
  ] as const
) {
  Deno.test({
    name:
      `report interrupted by ${how}: runner and kernel stopped, partial folder removed, old report kept`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const { dir, out, snapshot } = await oldReport();
      const before = await snapshot();
      const child = startReport(out);
      try {
        const tree = await waitForKernel(child);
        const partial = [...Deno.readDirSync(dir)].filter((e) => e.name.includes(".tmp-"));
        assert.equal(partial.length, 1, "the new report is built beside the old one");
        const conn = tree.flatMap((d) => {
          const i = d.argv.indexOf("--conn");
          return i >= 0 ? [d.argv[i + 1]] : [];
        });
        send(child.pid);
        const status = await child.output();
        const stderr = new TextDecoder().decode(status.stderr);
        // One line; other cleanups' notes (an unfinished file being written then) may come first.
        assert.match(stderr, /interrupted \(SIG(INT|TERM)\): (.*; )?stopped the notebook runner/);
        // Every process the report started is gone: runner, kernel, browser.
        await waitGone("the runner, kernel and browser to end", tree);
        // No partial folder, no temporary file; the old report exactly as it was.
        assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["report"]);
        // Nor the temporary folders of the kit and its browser: those named with the kit's id
        // (Chromium's own are inside kit-chromium-PID-*) and the profile playwright made.
        const kit = tree.find((d) => d.argv.includes("lib/cli/main.ts"))!;
        const tmp = Deno.env.get("TMPDIR") || "/tmp";
        assert.deepEqual(
          [...Deno.readDirSync(tmp)].map((e) => e.name).filter((n) =>
            n.startsWith("kit-") && n.includes(`-${kit.pid}-`)
          ),
          [],
        );
        const profiles = tree.flatMap((d) => d.argv).filter((a) =>
          a.startsWith("--user-data-dir=")
        );
        assert.ok(profiles.length > 0, "the browser runs with a profile of its own");
        for (const a of profiles) {
          const path = a.slice("--user-data-dir=".length);
          assert.ok(!(await Deno.stat(path).then(() => true, () => false)), `${path} left`);
        }
        assert.equal(await snapshot(), before);
        for (const c of conn) {
          assert.ok(!(await Deno.stat(c).then(() => true, () => false)), `kernel file ${c} left`);
        }
      } finally {
        try {
          Deno.kill(-child.pid, "SIGKILL");
        } catch { /* gone */ }
        await Deno.remove(dir, { recursive: true });
      }
    },
  });
}

Deno.test({
  name: "report killed outright (SIGKILL): runner and kernel end with it; the next build sweeps " +
    "its folders",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { dir, out, snapshot } = await oldReport();
    const before = await snapshot();
    const child = startReport(out);
    try {
      const tree = await waitForKernel(child);
      const kit = tree.find((d) => d.argv.includes("lib/cli/main.ts"))!;
      const tmp = Deno.env.get("TMPDIR") || "/tmp";
      const ours = () =>
        [...Deno.readDirSync(tmp)].map((e) => e.name).filter((n) =>
          n.startsWith("kit-") && n.includes(`-${kit.pid}-`)
        );
      assert.ok(ours().length >= 2, `runtime and PDF folders named with the pid: ${ours()}`);
      Deno.kill(kit.pid, "SIGKILL");
      // The runner gets SIGTERM when its parent dies and stops its kernel (which also has
      // SIGKILL as its parent-death signal): wait for both to be gone.
      const others = tree.filter((d) => d.pid !== kit.pid && d.argv.length > 0);
      await waitGone("the runner and kernel to end with the killed kit", others);
      await child.output();
      assert.equal(await snapshot(), before, "the old report as it was");
      // The next build of the report sweeps the partial folder and the temporary folders.
      const lines: string[] = [];
      const ws = await openWorkspace(out, { log: (l) => lines.push(l) });
      ws.discard();
      assert.ok(
        lines.some((l) => /removed a partial report left behind/.test(l)),
        lines.join("\n"),
      );
      assert.deepEqual(ours(), []);
      assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["report"]);
    } finally {
      try {
        Deno.kill(-child.pid, "SIGKILL");
      } catch { /* gone */ }
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "./kit report killed outright (SIGKILL to ./kit's own process): the build ends with it, " +
    "the old report stays",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const { dir, out, snapshot } = await oldReport();
    const before = await snapshot();
    const child = startReport(out, "kit");
    try {
      // ./kit runs the build in its own process (no `deno task` between): what a user who kills
      // ./kit's process id stops is the build, with its runner, kernel and browser.
      const tree = await waitForKernel(child);
      Deno.kill(child.pid, "SIGKILL");
      await waitGone("the build's processes to end with ./kit", tree.filter((d) => d.argv.length));
      assert.equal((await child.output()).signal, "SIGKILL");
      assert.equal(await snapshot(), before, "the old report as it was");
    } finally {
      try {
        Deno.kill(-child.pid, "SIGKILL");
      } catch { /* gone */ }
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("a failing model or cell leaves the old report whole; stale partial folders are swept", async () => {
  const { dir, out, snapshot } = await oldReport();
  try {
    const before = await snapshot();
    // A partial folder of a build that was killed outright (its pid no longer runs).
    await Deno.mkdir(`${out}.tmp-999999999-xy1/notebooks`, { recursive: true });
    await Deno.writeTextFile(`${out}.tmp-999999999-xy1/${REPORT_MARKER}`, UNFINISHED_MARKER);
    const bad = await runCli([
      "report",
      "--data",
      "sample",
      "--run",
      `mine=${SAMPLE_RUN}`,
      "--model",
      "bad=nonexistent:model",
      "--only",
      "00",
      "--out",
      out,
      "--no-pdf",
      "--force",
    ]);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /removed a partial report left behind: .*report\.tmp-999999999-xy1/);
    assert.match(bad.stderr, /nonexistent:model/);
    assert.equal(await snapshot(), before);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["report"]);

    // A cell that fails: the error names the cell; nothing of the new build is left.
    const notebooks = `${dir}/notebooks`;
    await Deno.mkdir(notebooks);
    await Deno.writeTextFile(
      `${notebooks}/01-broken.ipynb`,
      denoNotebook(['throw new Error("cell broke 41");']),
    );
    const lines: string[] = [];
    await assert.rejects(
      buildReport({
        params: { data: "sample" },
        notebooksDir: notebooks,
        outDir: out,
        force: true,
        pdf: false,
        log: (line) => lines.push(line),
      }),
      (e: Error) =>
        /cell broke 41/.test(e.message) &&
        e.message.includes(`(the failed attempt is kept in ${out}.failed/; the previous report `),
    );
    assert.equal(await snapshot(), before);
    // The failed attempt is kept for inspection under a printed name, the executed notebook in it.
    assert.ok(
      lines.includes(
        `the failed attempt is kept for inspection: ${out}.failed/ ` +
          "(replaced by the next failure)",
      ),
      lines.join("\n"),
    );
    const kept = JSON.parse(await Deno.readTextFile(`${out}.failed/notebooks/01-broken.ipynb`));
    assert.equal(kept.cells[0].outputs[0].evalue.includes("cell broke 41"), true);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "notebooks",
      "report",
      "report.failed",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("report: an input inside the report folder or a file the kit did not write stops it before any work; --force keeps the user's files", async () => {
  // Issue 23's case: R/mine.run and R/runs/01-bm.run given as runs, R/NOTES.txt added by hand.
  const dir = await Deno.makeTempDir({ prefix: "kit-inputs-" });
  try {
    const out = `${dir}/R`;
    await Deno.mkdir(`${out}/runs`, { recursive: true });
    await Deno.writeTextFile(`${out}/index.html`, "<p>the previous report</p>\n");
    const run = await Deno.readTextFile(SAMPLE_RUN);
    await Deno.writeTextFile(`${out}/runs/01-bm.run`, run);
    await writeMarker(out);
    await Deno.writeTextFile(`${out}/mine.run`, run);
    await Deno.writeTextFile(`${out}/NOTES.txt`, "x\n");
    const listing = async () => {
      const files: string[] = [];
      const walk = (d: string) => {
        for (const e of Deno.readDirSync(d)) {
          e.isDirectory ? walk(`${d}/${e.name}`) : files.push(`${d}/${e.name}`);
        }
      };
      walk(dir);
      return await Promise.all(files.sort().map(async (f) => `${f} ${await Deno.readTextFile(f)}`));
    };
    const before = await listing();
    const args = (...runs: string[]) => [
      "report",
      "--data",
      "sample",
      "--only",
      "00",
      "--no-pdf",
      "--out",
      out,
      ...runs.flatMap((r) => ["--run", r]),
    ];
    const inside = await runCli(args(`mine=${out}/mine.run`, `prev=${out}/runs/01-bm.run`));
    assert.equal(inside.code, 2, inside.stderr);
    assert.match(
      inside.stderr,
      /mine\.run: --run mine is inside the report folder .*R, which the report replaces/,
    );
    assert.doesNotMatch(inside.stderr, /executing|scored/);
    // With the runs outside, the note the user added still stops it (no --force).
    await Deno.copyFile(SAMPLE_RUN, `${dir}/base.run`);
    const foreign = await runCli(args(`mine=${dir}/base.run`));
    assert.equal(foreign.code, 2, foreign.stderr);
    assert.match(
      foreign.stderr,
      /R: refusing to replace this report: it holds 2 file\(s\) the report did not write \(NOTES\.txt, mine\.run\)/,
    );
    assert.doesNotMatch(foreign.stderr, /executing|scored/);
    assert.deepEqual(await listing(), [...before, `${dir}/base.run ${run}`].sort());

    // --force: a file of the user's where the new report writes is still refused before any work.
    await Deno.mkdir(`${out}/html`);
    await Deno.writeTextFile(`${out}/html/00-your-systems.html`, "<p>my page</p>\n");
    const clash = await runCli([...args(`mine=${dir}/base.run`), "--force"]);
    assert.equal(clash.code, 2, clash.stderr);
    assert.match(
      clash.stderr,
      /R: refusing to build: 1 file\(s\) the report did not write sit where the new report writes \(html\/00-your-systems\.html\); the report never deletes a file it did not write, so move or rename them, or choose another --out/,
    );
    assert.doesNotMatch(clash.stderr, /executing|scored/);
    await Deno.remove(`${out}/html`, { recursive: true });

    // --force: the report replaces what it wrote; the user's files go on, same bytes, mode, time.
    const then = new Date("2001-02-03T04:05:06.789Z");
    await Deno.chmod(`${out}/NOTES.txt`, 0o600);
    await Deno.utime(`${out}/NOTES.txt`, then, then);
    await Deno.mkdir(`${out}/mine/deep`, { recursive: true });
    await Deno.writeTextFile(`${out}/mine/deep/seed2.run`, run);
    await Deno.utime(`${out}/mine/deep`, then, then);
    await Deno.utime(`${out}/mine`, then, then);
    const users = ["NOTES.txt", "mine.run", "mine", "mine/deep", "mine/deep/seed2.run"];
    const stamp = async (p: string) => {
      const st = await Deno.lstat(`${out}/${p}`);
      const bytes = st.isDirectory ? "folder" : await Deno.readTextFile(`${out}/${p}`);
      return `${p} ${(st.mode! & 0o7777).toString(8)} ${st.mtime?.toISOString()} ${bytes}`;
    };
    const usersBefore = await Promise.all(users.map(stamp));
    const forced = await runCli([...args(`mine=${dir}/base.run`), "--force"]);
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stderr, /kept 3 file\(s\) the report did not write/);
    assert.deepEqual(await Promise.all(users.map(stamp)), usersBefore);
    assert.ok(usersBefore[0].startsWith("NOTES.txt 600 2001-02-03T04:05:06.789Z x\n"));
    // What the old report wrote and the new one did not is gone; the new marker lists only the
    // new report's files, so the user's stay theirs (the next build without --force refuses).
    assert.equal(await Deno.stat(`${out}/runs/01-bm.run`).then(() => 1, () => 0), 0);
    assert.match(await Deno.readTextFile(`${out}/index.html`), /00-your-systems/);
    const files: string[] = JSON.parse(await Deno.readTextFile(`${out}/${REPORT_MARKER}`)).files
      .map((f: { path: string }) => f.path);
    assert.ok(files.includes("html/00-your-systems.html"), files.join(" "));
    for (const u of users) assert.ok(!files.includes(u), u);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), ["R", "base.run"]);
    const again = await runCli(args(`mine=${dir}/base.run`));
    assert.equal(again.code, 2, again.stderr);
    assert.match(
      again.stderr,
      /it holds 3 file\(s\) the report did not write \(NOTES\.txt, mine\.run, mine\/deep\/seed2\.run\)/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("report refuses to replace a special file, a symbolic link or a folder it did not make", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/file`, "mine\n");
    await Deno.mkdir(`${dir}/folder`);
    await Deno.writeTextFile(`${dir}/folder/notes.txt`, "mine\n");
    await Deno.symlink(`${dir}/folder`, `${dir}/link`);
    const fifo = await new Deno.Command("mkfifo", { args: [`${dir}/fifo`] }).output();
    const cases: [string, RegExp][] = [
      [`${dir}/file`, /not a folder/],
      [`${dir}/folder`, /not a report made by the kit/],
      // A link is followed: the folder it leads to is what would be replaced.
      [`${dir}/link`, /folder.*not a report made by the kit/],
      ["/dev/null", /not a folder/],
      ...(fifo.success ? [[`${dir}/fifo`, /not a folder/] as [string, RegExp]] : []),
    ];
    for (const [out, message] of cases) {
      const r = await runCli(["report", "--only", "01", "--out", out, "--no-pdf"]);
      assert.equal(r.code, 2, `${out}: ${r.stderr}`);
      assert.match(r.stderr, message, out);
    }
    assert.equal(await Deno.readTextFile(`${dir}/folder/notes.txt`), "mine\n");
    assert.equal(await Deno.readTextFile(`${dir}/file`), "mine\n");
    assert.ok((await Deno.lstat(`${dir}/link`)).isSymlink);
    assert.ok((await Deno.stat("/dev/null")).isCharDevice);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
