/**
 * Temporary files of killed commands are swept by the next command that writes there, never a
 * live process's: `convert` killed outright (SIGKILL) mid-write leaves `OUT.tmp-PID-RANDOM`,
 * which the next `convert` into that folder removes; a report's browser killed with its process
 * leaves its temporary folders (Chromium's `org.chromium.Chromium.*`, playwright's
 * `playwright-artifacts-*`) only inside the kit's `kit-chromium-PID-*` folder, which the next
 * command making a temporary folder removes; a model generation killed outright leaves its
 * half-built `<model>.tmp-PID-RANDOM/`, which the next generation in that folder removes.
 *
 * Every process here is killed on an event, never after a sleep: a writer is frozen (SIGSTOP,
 * every thread stopped) the moment its temporary file appears and killed only while that file
 * is still there, so it cannot have finished first; the browser and the waiting work say on
 * stdout when they are ready. Repeated beside two CPU hogs (as CI's two busy cores):
 *
 *     deno run -A tests/under_load.ts --runs 20 tests/io/killed_temps_test.ts
 */
import assert from "node:assert/strict";
import { ExitedFirst, freezeWhenSeen, runCli, waitFor } from "../helpers.ts";

const MAIN = new URL("../../lib/cli/main.ts", import.meta.url).pathname;
const listing = (dir: string) => [...Deno.readDirSync(dir)].map((e) => e.name).sort();

const exists = (path: string) => Deno.lstat(path).then(() => true, () => false);

/**
 * Starts a writer with `spawn` and catches it in the middle of writing `output`, at what `find`
 * sees in folder `where` (its temporary file or folder): frozen ({@link freezeWhenSeen}) while
 * that is still there and `output` is not (a file is linked into place before its temporary
 * name is removed: frozen between the two, the write is done). The writer writes only after
 * reading its whole input, so nothing the test feeds it can hold the write open; one that
 * finished before it was caught (exit 0) is undone with `reset` and started again, up to 10
 * times.
 */
async function catchMidWrite(
  spawn: () => Deno.ChildProcess,
  find: (pid: number) => string | undefined,
  where: string,
  output: string,
  reset: () => Promise<void>,
): Promise<{ child: Deno.ChildProcess; caught: string }> {
  for (let attempt = 1;; attempt++) {
    const child = spawn();
    try {
      const caught = await freezeWhenSeen(
        `the temporary file of process ${child.pid}`,
        child,
        () => find(child.pid),
        async (name) => (await exists(`${where}/${name}`)) && !(await exists(output)),
      );
      return { child, caught };
    } catch (e) {
      if (!(e instanceof ExitedFirst && e.status.success && attempt < 10)) throw e;
      console.error(`(process ${child.pid} finished before it was caught: started again)`);
      for (const stream of ["stdout", "stderr"] as const) {
        try {
          await child[stream].cancel();
        } catch { /* not piped, or read to its end */ }
      }
      await reset();
    }
  }
}

/** Whether a running process names `text` on its command line. */
function named(text: string): boolean {
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      if (Deno.readTextFileSync(`/proc/${e.name}/cmdline`).includes(text)) return true;
    } catch { /* gone */ }
  }
  return false;
}

Deno.test("convert killed mid-write: its OUT.tmp-PID-* is swept by the next convert there; a live process's is kept", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // A run of 300,000 lines (about 11 MB): long enough to be caught while it is written.
    const lines: string[] = [];
    for (let q = 0; q < 3000; q++) {
      for (let d = 0; d < 100; d++) lines.push(`q${q} Q0 doc${q}_${d} ${d + 1} ${100 - d} run\n`);
    }
    await Deno.writeTextFile(`${dir}/in.run`, lines.join(""));
    const { child, caught } = await catchMidWrite(
      () =>
        new Deno.Command(Deno.execPath(), {
          args: ["run", "--allow-all", MAIN, "convert", "run", "in.run", "out.json.gz"],
          cwd: dir,
          env: { NO_COLOR: "1", INIT_CWD: dir },
          stdout: "null",
          stderr: "piped",
        }).spawn(),
      (pid) =>
        listing(dir).find((n) => new RegExp(`^out\\.json\\.gz\\.tmp-${pid}-[0-9a-z]+$`).test(n)),
      dir,
      `${dir}/out.json.gz`,
      () => Deno.remove(`${dir}/out.json.gz`),
    );
    // Frozen with its temporary file there and no out.json.gz: killed, it cannot finish.
    child.kill("SIGKILL");
    await child.status;
    await child.stderr.cancel();
    assert.deepEqual(listing(dir), ["in.run", caught]);
    // A live process's temporary file in the same folder (this test's, written after it started).
    const live = `other.run.tmp-${Deno.pid}-abc123`;
    await Deno.writeTextFile(`${dir}/${live}`, "being written");
    const again = await runCli(["convert", "run", "in.run", "out.json.gz"], { cwd: dir });
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(listing(dir), ["in.run", live, "out.json.gz"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a model generation killed mid-write: its half-built folder is swept by the next generation there; a live process's is kept", async () => {
  const SHAPED = new URL("../../lib/scoring/model/shaped.ts", import.meta.url).href;
  const cacheDir = await Deno.makeTempDir();
  const generated = `${cacheDir}/models/generated`;
  /** A process generating `minilm-l6-seed<seed>` into the cache, printing what it swept. */
  const generate = (seed: number) =>
    new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `import { shapedModelDir } from ${JSON.stringify(SHAPED)};
await shapedModelDir("minilm-l6", { cacheDir: ${JSON.stringify(cacheDir)}, seed: ${seed},
  onSwept: (p) => console.log("swept " + p) });`,
      ],
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    });
  try {
    const { child, caught: seen } = await catchMidWrite(
      () => generate(1).spawn(),
      (pid) => {
        const temp = new RegExp(`^minilm-l6-seed1\\.tmp-${pid}-[0-9a-z]+$`);
        try {
          return listing(generated).find((n) => temp.test(n));
        } catch {
          return undefined; // the folder is not made yet
        }
      },
      generated,
      `${generated}/minilm-l6-seed1`,
      () => Deno.remove(`${generated}/minilm-l6-seed1`, { recursive: true }),
    );
    child.kill("SIGKILL");
    await child.status;
    await child.stdout.cancel();
    await child.stderr.cancel();
    assert.deepEqual(listing(generated), [seen]);
    // Beside it: a live process's half-built folder (this test's, made after it started), and
    // a user's folder whose name merely looks like one.
    const tag = seen.slice(seen.lastIndexOf("-") + 1, seen.lastIndexOf("-") + 5);
    const live = `bert-base-seed3.tmp-${Deno.pid}-${tag}k3`;
    await Deno.mkdir(`${generated}/${live}/onnx`, { recursive: true });
    await Deno.mkdir(`${generated}/notes.tmp-draft`);
    // The next generation there, of another model.
    const next = await generate(2).output();
    assert(next.success);
    assert.equal(
      new TextDecoder().decode(next.stdout),
      `swept ${generated}/${seen}\n`,
    );
    assert.deepEqual(listing(generated), [live, "minilm-l6-seed2", "notes.tmp-draft"].sort());
  } finally {
    await Deno.remove(cacheDir, { recursive: true });
  }
});

Deno.test("a report's browser killed with its process: Chromium's and playwright's folders only in kit-chromium-PID-*, swept next time", async () => {
  const tmp = await Deno.makeTempDir(); // the system's temporary folder of the processes below
  try {
    const browserLib = new URL("../../lib/report/check/browser.ts", import.meta.url).href;
    const script = `
      import { launchBrowser } from ${JSON.stringify(browserLib)};
      const s = await launchBrowser();
      const page = await s.context.newPage();
      await page.setContent("<p>x</p>");
      console.log("ready");
      await new Promise(() => {});
    `;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", script],
      env: { TMPDIR: tmp, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const reader = child.stdout.getReader();
    let said = "";
    while (!said.includes("ready")) {
      const { value, done } = await reader.read();
      if (done) break;
      said += new TextDecoder().decode(value);
    }
    assert.match(said, /ready/);
    const during = listing(tmp);
    const scratch = during.filter((n) => n.startsWith(`kit-chromium-${child.pid}-`));
    assert.equal(scratch.length, 1, during.join(" "));
    // Chromium's and playwright's own folders are inside it, none beside it.
    assert(
      !during.some((n) => /^(org\.chromium\.|playwright-artifacts-)/.test(n)),
      during.join(" "),
    );
    assert(listing(`${tmp}/${scratch[0]}`).includes("artifacts"));
    child.kill("SIGKILL");
    await child.status;
    reader.releaseLock();
    await child.stdout.cancel().catch(() => {});
    assert(listing(tmp).includes(scratch[0]));
    // Playwright's profile of the killed browser: swept when no process names it and it is
    // old. Its Chromium ends when it finds its pipe closed, and writes its profile on the way.
    const profiles = listing(tmp).filter((n) => n.startsWith("playwright_chromiumdev_profile-"));
    await waitFor("the killed browser's Chromium to end", () => !profiles.some(named), undefined, {
      interval: 50,
    });
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const n of profiles) await Deno.utime(`${tmp}/${n}`, hourAgo, hourAgo);
    // The next command that makes a temporary folder there (here: a browser, launched and closed).
    const next = new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `import { launchBrowser } from ${
          JSON.stringify(browserLib)
        }; await (await launchBrowser()).close();`,
      ],
      env: { TMPDIR: tmp, NO_COLOR: "1" },
      stdout: "null",
      stderr: "piped",
    });
    const out = await next.output();
    assert(out.success, new TextDecoder().decode(out.stderr));
    assert.deepEqual(listing(tmp), []);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("a kit temporary folder is removed on Ctrl-C and SIGTERM while the work inside it waits", async () => {
  const TEMP = new URL("../../lib/io/temp.ts", import.meta.url).href;
  const tmp = await Deno.makeTempDir();
  try {
    for (const [signal, status] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
      // The work waits for ever inside the folder (as the figures' page waits for plotly.js).
      const script = `import { withKitTempDir } from ${JSON.stringify(TEMP)};
await withKitTempDir("kit-png-", async (dir) => {
  console.log(dir);
  await new Promise(() => setInterval(() => {}, 1000));
});`;
      const child = new Deno.Command(Deno.execPath(), {
        args: ["eval", script],
        env: { TMPDIR: tmp, NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      const dir = (await reader.read()).value!.trim();
      assert.ok(dir.startsWith(`${tmp}/kit-png-${child.pid}-`), dir);
      assert.ok((await Deno.stat(dir)).isDirectory);
      child.kill(signal);
      await reader.cancel();
      await child.stderr.cancel();
      const done = await child.status;
      assert.equal(done.code, status, signal);
      assert.deepEqual(listing(tmp), [], `${signal}: ${dir} left`);
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
