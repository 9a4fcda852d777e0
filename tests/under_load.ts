/**
 * Repeats test files beside CPU hogs, as CI's two busy cores run them:
 *
 *     deno run -A tests/under_load.ts [--runs N] [--hogs H] [--minutes M] FILE... [-- ARGS...]
 *
 * runs `deno test -A ARGS FILE...` N times in a row (default 20) beside H busy loops (default
 * 2: `sh -c 'while :; do :; done'`, one per core of CI), stops at the first failure (printing
 * that run's output), says how many runs passed, and stops the hogs however it ends (Ctrl-C
 * included). With `--minutes M` no run starts after M minutes (for slow files: the runs that
 * fit). Exit status 0 when every run started passed. For example
 * `deno run -A tests/under_load.ts tests/io/killed_temps_test.ts`, or
 * `deno run -A tests/under_load.ts --minutes 40 tests/report/interrupt_test.ts`.
 *
 * @module
 */
import { cpuHogs } from "./helpers.ts";

const args = [...Deno.args];
const dashes = args.indexOf("--");
const testArgs = dashes >= 0 ? args.splice(dashes).slice(1) : [];
let runs = 20, hogCount = 2, minutes = Infinity;
const files: string[] = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--runs") runs = Number(args[++i]);
  else if (args[i] === "--hogs") hogCount = Number(args[++i]);
  else if (args[i] === "--minutes") minutes = Number(args[++i]);
  else files.push(args[i]);
}
if (!files.length || !(runs >= 1) || !(hogCount >= 0) || !(minutes > 0)) {
  console.error(
    "usage: deno run -A tests/under_load.ts [--runs N] [--hogs H] [--minutes M] FILE... [-- ARGS]",
  );
  Deno.exit(2);
}

const hogs = cpuHogs(hogCount);
let current: Deno.ChildProcess | undefined;
const stop = () => {
  for (const pid of hogs.pids) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* ended */ }
  }
  try {
    current?.kill("SIGTERM"); // the test run under way
  } catch { /* ended */ }
  Deno.exit(130);
};
Deno.addSignalListener("SIGINT", stop);
Deno.addSignalListener("SIGTERM", stop);
let passed = 0, started = 0, failed = false;
const t00 = performance.now();
try {
  console.error(
    `${hogCount} CPU hog(s): ${hogs.pids.join(" ")}; deno test -A ${
      testArgs.concat(files).join(" ")
    }`,
  );
  for (let i = 1; i <= runs; i++) {
    if ((performance.now() - t00) / 60_000 >= minutes) {
      console.error(`no run started after ${minutes} minutes`);
      break;
    }
    started++;
    const t0 = performance.now();
    current = new Deno.Command(Deno.execPath(), {
      args: ["test", "-A", ...testArgs, ...files],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).spawn();
    const out = await current.output();
    const seconds = ((performance.now() - t0) / 1000).toFixed(0);
    const load = Deno.loadavg()[0].toFixed(1);
    if (!out.success) {
      const dec = new TextDecoder();
      console.error(dec.decode(out.stdout) + dec.decode(out.stderr));
      console.error(`run ${i}/${runs}: FAILED (${seconds} s, load ${load})`);
      failed = true;
      break;
    }
    passed++;
    console.error(`run ${i}/${runs}: ok (${seconds} s, load ${load})`);
  }
} finally {
  await hogs.stop();
}
console.error(
  `${passed} of ${started} runs passed in a row beside ${hogCount} CPU hog(s)` +
    (started < runs && !failed ? ` (${runs} asked; ${minutes} minutes were up)` : ""),
);
Deno.exit(failed ? 1 : 0);
