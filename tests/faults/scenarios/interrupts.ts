/**
 * Interrupts with real signals to real processes halfway through a write: a process of the
 * kit's writer stopped on purpose halfway (deterministic), and `data fetch` and `score
 * --out` frozen (SIGSTOP) the moment their temporary file appears, then signalled. Plus the
 * neighbours: a SIGKILL (nothing can clean up; the next write there sweeps), stale-looking
 * files that must not be swept, a FIFO nobody reads, and Ctrl-C during a computation with
 * nothing to clean (the default action, at once).
 *
 * Every signal is sent on an event, never after a sleep: the writer saying `halfway` (it then
 * waits for its stdin to close), a temporary file appearing (the process frozen, every thread
 * stopped, and the file still there), the kit blocked opening the FIFO (the kernel's
 * `wait_for_partner`), the output check's probe file removed (the file system's event). Each
 * wait ends on its event or when the process ends (failing with its stderr). Repeated beside
 * two CPU hogs (as CI's two busy cores):
 *
 *     QA_KIT_SCENARIOS='^interrupts:' \
 *       deno run -A tests/under_load.ts --runs 20 tests/faults/scenarios_test.ts
 *
 * @module
 */
import { assert, assertEquals } from "../../assert.ts";
import { localTempTag } from "../../../lib/io/temp.ts";
import {
  ARGS,
  type Ctx,
  finish,
  kitCommand,
  listing,
  noTemps,
  readOr,
  type Run,
  type Scenario,
  stable,
  start,
  succeeded,
} from "./kit.ts";
import { blockedOpeningFifo, freeze, waitFor } from "../../helpers.ts";

const CHILD = new URL("./writer_child.ts", import.meta.url).pathname;
const dec = new TextDecoder();

/**
 * Starts the writer child on `out`, waits until it says it is halfway, and returns it; it stays
 * halfway until its standard input is closed, when the scenario ends (long after the signal).
 */
async function halfwayWriter(ctx: Ctx, out: string) {
  const child = start(Deno.execPath(), ["run", "-A", CHILD, out], ctx.dir, { stdin: "piped" });
  ctx.defer(() => child.stdin.close().catch(() => {}));
  const reader = child.stdout.getReader();
  let said = "";
  while (!said.includes("halfway")) {
    const { value, done } = await reader.read();
    if (done) break;
    said += dec.decode(value);
  }
  reader.releaseLock();
  if (!said.includes("halfway")) {
    const r = await finish(child);
    assert(false, `the writer did not get halfway (exit ${r.code}): ${said}${r.stderr}`);
  }
  const temps = listing(ctx.dir).filter((n) => /\.tmp-\d+-/.test(n));
  assertEquals(temps.length, 1, `one temporary file while halfway: ${listing(ctx.dir)}`);
  return { child, temp: temps[0] };
}

/** Ends a process a scenario started, if it still runs (when the scenario failed early). */
function kill(child: Deno.ChildProcess): void {
  try {
    child.kill("SIGKILL");
  } catch { /* ended */ }
}

function signalScenario(signal: Deno.Signal, status: number): Scenario {
  return {
    cls: "interrupts",
    tried: `${signal} to a process halfway through writing \`out.run\` over an existing one`,
    async run(ctx) {
      await Deno.writeTextFile(`${ctx.dir}/out.run`, "the earlier run\n");
      const { child, temp } = await halfwayWriter(ctx, "out.run");
      child.kill(signal);
      const r = await finish(child);
      assertEquals(r.code, status, r.stderr);
      assertEquals(listing(ctx.dir), ["out.run"]);
      assertEquals(await readOr(`${ctx.dir}/out.run`), "the earlier run\n");
      const line = r.stderr.trim();
      assert(line.includes(temp), line);
      return `exit ${status}, \`${stable(line)}\`; the earlier \`out.run\` intact`;
    },
  };
}

/**
 * Runs the kit with `argv` and freezes it (SIGSTOP, every thread stopped: `freeze`) whenever a
 * kit temporary file appears under `watch`; when the file is still there while frozen, sends
 * `signal` and lets it go on. Returns the run and the temporary file caught (undefined when
 * the process finished between creating and freezing every time).
 */
async function signalWhenTempAppears(
  ctx: Ctx,
  argv: string[],
  watch: string,
  signal: Deno.Signal,
  wanted: (path: string) => boolean,
): Promise<{ run: Run; caught?: string }> {
  const watcher = Deno.watchFs(watch, { recursive: true });
  const child = start(...kitCommand(argv), ctx.dir);
  let caught: string | undefined;
  const watching = (async () => {
    for await (const ev of watcher) {
      const temp = ev.kind === "create" &&
        ev.paths.find((p) => /\.tmp-\d+-[0-9a-z]+$/.test(p) && wanted(p));
      if (!temp) continue;
      // Every thread stopped (not merely signalled): a rename under way cannot land after the
      // check below.
      if (!(await freeze(child))) return; // already finished
      const there = await Deno.lstat(temp).then(() => true, () => false);
      if (there) {
        caught = temp.slice(ctx.dir.length + 1);
        child.kill(signal);
      }
      child.kill("SIGCONT");
      if (there) return;
    }
  })();
  const run = await finish(child);
  watcher.close();
  await watching;
  return { run, caught };
}

/**
 * Tries up to `tries` times to interrupt `argv` halfway (see `signalWhenTempAppears`); after
 * every attempt `check` asserts what must hold whatever the timing (no temporary file, the
 * output whole or absent). Returns the attempt that was interrupted halfway.
 */
async function interruptHalfway(
  ctx: Ctx,
  argv: string[],
  watch: string,
  signal: Deno.Signal,
  check: (r: Run) => Promise<void>,
  reset: () => Promise<void>,
  wanted: (path: string) => boolean = () => true,
  tries = 8,
): Promise<{ run: Run; caught: string; attempts: number }> {
  for (let attempt = 1; attempt <= tries; attempt++) {
    await reset();
    const { run, caught } = await signalWhenTempAppears(ctx, argv, watch, signal, wanted);
    await check(run);
    if (caught && run.code !== 0) return { run, caught, attempts: attempt };
  }
  throw new Error(`no attempt of ${tries} was interrupted halfway through a write`);
}

/** The interrupt scenarios. */
export const INTERRUPT_SCENARIOS: Scenario[] = [
  signalScenario("SIGINT", 130),
  signalScenario("SIGTERM", 143),
  signalScenario("SIGHUP", 129),
  signalScenario("SIGQUIT", 131),
  {
    cls: "interrupts",
    tried: "SIGINT to `data fetch wikiqa` the moment a temporary file appears in the cache " +
      "(the process frozen there with SIGSTOP), on a fresh cache; then the same command again",
    needs: ["corpora"],
    async run(ctx) {
      const argv = ARGS.fetch("wikiqa", ctx.corpora, "cache");
      const marker = `${ctx.dir}/cache/wikiqa/.installed.json`;
      const { run, caught } = await interruptHalfway(
        ctx,
        argv,
        `${ctx.dir}/cache`,
        "SIGINT",
        async (r) => {
          noTemps(ctx.dir);
          // Interrupted: no marker, so the corpus is not taken as installed.
          if (r.code !== 0) assertEquals(await readOr(marker), undefined);
        },
        async () => {
          await Deno.remove(`${ctx.dir}/cache`, { recursive: true }).catch(() => {});
          await Deno.mkdir(`${ctx.dir}/cache/wikiqa`, { recursive: true });
        },
        // A corpus file, not the early check's probe (nor the marker, written last).
        (p) => !p.includes(".installed.json.tmp-"),
      );
      assertEquals(run.code, 130, run.stderr);
      const line = run.stderr.trim().split("\n").pop()!;
      assert(line.startsWith("interrupted (SIGINT): removed the unfinished cache/wikiqa/"), line);
      const again = await ctx.kit(argv);
      succeeded(again, "the second fetch");
      assert(await readOr(marker));
      noTemps(ctx.dir);
      assert(caught.startsWith("cache/wikiqa/"), caught);
      return "exit 130, `interrupted (SIGINT): removed the unfinished " +
        "cache/wikiqa/FILE.tmp-PID-RANDOM`; no temporary file and no install marker; the " +
        "rerun completes the install";
    },
  },
  {
    cls: "interrupts",
    tried: "SIGTERM to `score --out out.run` (WikiQA train, 20,360 candidates) the moment " +
      "`out.run.tmp-*` appears, over an existing `out.run` (`--force`)",
    needs: ["corpora"],
    async run(ctx) {
      const argv = ARGS.score("train", "out.run", ["--filter", "raw", "--force"], ctx.corpora);
      const { run } = await interruptHalfway(
        ctx,
        argv,
        ctx.dir,
        "SIGTERM",
        async (r) => {
          noTemps(ctx.dir);
          const text = (await readOr(`${ctx.dir}/out.run`))!;
          // Whatever the timing: the earlier run intact, or (finished first) the whole new one.
          if (r.code !== 0) assertEquals(text, "the earlier run\n");
          else assertEquals(text.split("\n").length - 1, 20360);
        },
        () => Deno.writeTextFile(`${ctx.dir}/out.run`, "the earlier run\n"),
      );
      assertEquals(run.code, 143, run.stderr);
      return "exit 143, `interrupted (SIGTERM): removed the unfinished out.run.tmp-PID-RANDOM`; " +
        "the earlier `out.run` intact";
    },
  },
  {
    cls: "interrupts",
    tried: "SIGKILL halfway (nothing can clean up), then `data qrels --out` another file in " +
      "the same folder at once",
    async run(ctx) {
      await Deno.writeTextFile(`${ctx.dir}/out.qrels`, "the earlier qrels\n");
      const { child, temp } = await halfwayWriter(ctx, "out.qrels");
      child.kill("SIGKILL");
      await finish(child);
      assertEquals(listing(ctx.dir), ["out.qrels", temp]);
      const r = await ctx.kit(ARGS.qrels("test", "--out", "other.qrels"));
      succeeded(r);
      assertEquals(listing(ctx.dir), ["other.qrels", "out.qrels"]);
      assertEquals(await Deno.readTextFile(`${ctx.dir}/out.qrels`), "the earlier qrels\n");
      return "the killed process's `out.qrels.tmp-PID-RANDOM` stays until the next write in " +
        "that folder, which removes it (its process is gone) and writes; `out.qrels` intact";
    },
  },
  {
    cls: "interrupts",
    tried: "temporary files that may or may not be swept: a fresh one of a dead process, one " +
      "of a live process written after it started, one named with a live process's id but " +
      "older than that process (the id reused), a user's `out.qrels.tmp-notes`",
    async run(ctx) {
      // Named as this host's processes name them (the kit run below is one of them).
      const dead = `out.qrels.tmp-999999999-${localTempTag()}abc123`;
      const live = `out.qrels.tmp-${Deno.pid}-${localTempTag()}def456`;
      const reused = `out.qrels.tmp-${Deno.pid}-${localTempTag()}aaa111`;
      const user = "out.qrels.tmp-notes";
      for (const n of [dead, live, reused, user]) await Deno.writeTextFile(`${ctx.dir}/${n}`, "x");
      const old = new Date(Date.now() - 3600_000);
      await Deno.utime(`${ctx.dir}/${reused}`, new Date(0), new Date(0));
      await Deno.utime(`${ctx.dir}/${user}`, old, old);
      const r = await ctx.kit(ARGS.qrels("test", "--out", "out.qrels"));
      succeeded(r);
      assertEquals(listing(ctx.dir), [user, live, "out.qrels"].sort());
      return "the dead process's and the reused id's removed; the live process's and the " +
        "user's kept (process alive and started before it; not a kit name)";
    },
  },
  {
    cls: "interrupts",
    tried: "`data fetch` with stale temporary files of a killed earlier fetch in the cache",
    needs: ["corpora"],
    async run(ctx) {
      const argv = ARGS.fetch("qrcd", ctx.corpora, "cache");
      succeeded(await ctx.kit(argv));
      const stale = "cache/qrcd/qrcd_v1.1_dev.jsonl.tmp-999999999-abc123";
      await Deno.writeTextFile(`${ctx.dir}/${stale}`, "half a file");
      const old = new Date(Date.now() - 3600_000);
      await Deno.utime(`${ctx.dir}/${stale}`, old, old);
      const r = await ctx.kit(argv);
      succeeded(r);
      noTemps(ctx.dir);
      const said = r.stderr.split("\n").find((l) => l.includes("interrupted earlier run"));
      assert(said, r.stderr);
      return `swept, and said: \`${said.trim()}\``;
    },
  },
  {
    cls: "interrupts",
    tried: "SIGINT to `data qrels --out FIFO` while no process reads the FIFO",
    async run(ctx) {
      await ctx.sh("mkfifo out.fifo");
      const child = start(...kitCommand(ARGS.qrels("test", "--out", "out.fifo")), ctx.dir);
      ctx.defer(() => kill(child));
      // It waits for a reader, as `>` does: signalled once it is blocked there, opening the FIFO.
      await waitFor(
        "the kit to block opening out.fifo",
        () => blockedOpeningFifo(child.pid),
        child,
      );
      child.kill("SIGINT");
      const r = await finish(child);
      assert(r.code === 130 || r.signal === "SIGINT", `${r.code} ${r.signal} ${r.stderr}`);
      assert((await Deno.lstat(`${ctx.dir}/out.fifo`)).isFifo);
      return "it waits for a reader, as a shell's `>` does; Ctrl-C ends it (130), the FIFO stays";
    },
  },
  {
    cls: "interrupts",
    tried: "SIGINT during a long computation with no file being written " +
      "(`eval compare --trials 1000000000` over 40 queries, minutes of work)",
    async run(ctx) {
      // 40 queries where a and b differ: 2^40 sign flips, so the trials are drawn one by one.
      const qrels: string[] = [], a: string[] = [], b: string[] = [];
      for (let q = 0; q < 40; q++) {
        qrels.push(`q${q} 0 d1 1`, `q${q} 0 d2 0`);
        a.push(`q${q} Q0 d1 1 2 a`, `q${q} Q0 d2 2 1 a`);
        b.push(`q${q} Q0 d1 1 ${q % 3} b`, `q${q} Q0 d2 2 1 b`);
      }
      await Deno.writeTextFile(`${ctx.dir}/q`, qrels.join("\n") + "\n");
      await Deno.writeTextFile(`${ctx.dir}/a.run`, a.join("\n") + "\n");
      await Deno.writeTextFile(`${ctx.dir}/b.run`, b.join("\n") + "\n");
      const argv = ["eval", "compare", "--qrels", "q", "a.run", "b.run", "--out", "table.md"];
      // Signalled once its output check is over (the check's probe file `table.md.tmp-*`
      // removed, as the file system tells): then it reads the runs and computes.
      const watcher = Deno.watchFs(ctx.dir);
      const events: Deno.FsEvent[] = [];
      const watching = (async () => {
        for await (const e of watcher) events.push(e);
      })();
      const p = start(...kitCommand([...argv, "--trials", "1000000000"]), ctx.dir);
      ctx.defer(() => kill(p));
      try {
        await waitFor(
          "the output check's probe file to be removed",
          () =>
            events.some((e) =>
              e.kind === "remove" && e.paths.some((f) => /\/table\.md\.tmp-\d+-/.test(f))
            ),
          p,
        );
      } finally {
        watcher.close();
        await watching;
      }
      p.kill("SIGINT");
      const r = await finish(p);
      // Nothing registered: the default action ends it, not a handler waiting for the loop
      // (unless the signal came in the microseconds between the probe file's removal and the
      // end of the output check).
      assert(
        r.signal === "SIGINT" || (r.code === 130 && r.stderr.includes("interrupted (SIGINT)")),
        `${r.code} ${r.signal} ${r.stderr}`,
      );
      assertEquals(listing(ctx.dir).includes("table.md"), false);
      return "ended by the signal's default action at once (no handler is installed while " +
        "nothing needs cleaning); no `table.md`";
    },
  },
];
