/**
 * The sbatch scripts' own DENO_DIR (a folder per job in the node's $TMPDIR) is gone after the
 * job, however TERM finds it: Slurm's scancel, requeue and time limit send TERM to every
 * process of the job, at any moment, the first lines of the script included (a requeue lands
 * there when it follows the start at once, as slurm_test.ts's does). Here each script runs
 * outside Slurm, in a process group of its own, with its external commands (dirname, mkdir,
 * mktemp, ln, deno) wrapped: one run per command, TERM sent to the whole group just before it
 * and one just after it. A folder of a job killed outright (KILL) is swept by the next job of
 * the same user on the node; another node's, or a live process's, is left alone.
 */
import assert from "node:assert/strict";
import { PROJECT_ROOT } from "../../lib/data/paths.ts";

const SCRIPTS = ["score.sbatch", "merge.sbatch"];
const WRAPPED = ["dirname", "mkdir", "mktemp", "ln", "deno"];
const decode = (b: Uint8Array) => new TextDecoder().decode(b);

/** Where `name` is on this machine's PATH. */
async function where(name: string): Promise<string> {
  const out = await new Deno.Command("bash", { args: ["-c", `type -P ${name}`] }).output();
  const path = decode(out.stdout).trim();
  assert.ok(out.success && path, `${name} is not on PATH`);
  return path;
}

/** A fake checkout, cache, submit folder and wrapped commands in a new temporary folder. */
async function setUp(): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = await Deno.makeTempDir({ prefix: "kit-sbatch-" });
  await Deno.mkdir(`${dir}/kit/.deno/npm`, { recursive: true });
  await Deno.mkdir(`${dir}/submit`);
  await Deno.mkdir(`${dir}/tmp`);
  await Deno.mkdir(`${dir}/bin`);
  for (const name of WRAPPED) {
    // deno itself is not run: it says what DENO_DIR it was given and what that folder holds
    const real = name === "deno"
      ? `echo "seen $DENO_DIR $(${await where(
        "stat",
      )} -c %a "$DENO_DIR") $([ -L "$DENO_DIR/npm" ] && echo linked)" >> "$LOG"`
      : `${await where(name)} "$@"`;
    await Deno.writeTextFile(
      `${dir}/bin/${name}`,
      [
        "#!/bin/bash",
        'read -r n < "$CALLS"; n=$((n + 1)); echo "$n" > "$CALLS"',
        `echo "call ${name} $n" >> "$LOG"`,
        '[ "$n" != "$TERM_BEFORE" ] || kill -TERM 0',
        real,
        "status=$?",
        '[ "$n" != "$TERM_AFTER" ] || kill -TERM 0',
        "exit $status",
      ].join("\n") + "\n",
    );
    await Deno.chmod(`${dir}/bin/${name}`, 0o755);
  }
  const env = {
    PATH: `${dir}/bin:/usr/bin:/bin`,
    HOME: dir,
    SLURM_SUBMIT_DIR: `${dir}/submit`,
    SLURM_ARRAY_TASK_ID: "0",
    SLURM_JOB_ID: "41",
    SHARDS: "1",
    KIT: `${dir}/kit`,
    TMPDIR: `${dir}/tmp`,
    CALLS: `${dir}/calls`,
    LOG: `${dir}/log`,
  };
  return { dir, env };
}

/** Runs a script in a session (so a process group) of its own; its exit code and log. */
async function runScript(
  script: string,
  dir: string,
  env: Record<string, string>,
  term: { before?: number; after?: number } = {},
): Promise<{ code: number; log: string[]; stderr: string }> {
  await Deno.writeTextFile(env.CALLS, "0\n");
  await Deno.writeTextFile(env.LOG, "");
  const out = await new Deno.Command(await where("setsid"), {
    args: ["-w", "bash", `${PROJECT_ROOT}/examples/cluster/${script}`],
    cwd: dir,
    clearEnv: true,
    env: { ...env, TERM_BEFORE: String(term.before ?? 0), TERM_AFTER: String(term.after ?? 0) },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const log = (await Deno.readTextFile(env.LOG)).split("\n").filter(Boolean);
  return { code: out.code, log, stderr: decode(out.stderr) };
}

/** The kit-deno folders in the fake node's $TMPDIR. */
function denoDirsLeft(dir: string): string[] {
  return [...Deno.readDirSync(`${dir}/tmp`)].map((e) => e.name)
    .filter((name) => name.startsWith("kit-deno")).sort();
}

/** This machine's host name as bash's $HOSTNAME gives it. */
async function hostname(): Promise<string> {
  const out = await new Deno.Command("bash", { args: ["-c", "echo $HOSTNAME"] }).output();
  return decode(out.stdout).trim();
}

for (const script of SCRIPTS) {
  Deno.test(`${script}: its DENO_DIR is made, given to deno, and gone after TERM before or after any command`, async () => {
    const { dir, env } = await setUp();
    try {
      const plain = await runScript(script, dir, env);
      assert.equal(plain.code, 0, plain.stderr);
      const host = await hostname();
      const seen = plain.log.filter((l) => l.startsWith("seen "));
      assert.ok(seen.length >= 1, plain.log.join("\n"));
      for (const line of seen) {
        assert.match(
          line,
          new RegExp(`^seen ${dir}/tmp/kit-deno\\.${host}\\.41\\.\\d+ 700 linked$`),
        );
      }
      assert.deepEqual(denoDirsLeft(dir), []);
      const calls = plain.log.filter((l) => l.startsWith("call "));
      assert.ok(calls.length >= 4, plain.log.join("\n"));
      for (let n = 1; n <= calls.length; n++) {
        for (const when of ["before", "after"] as const) {
          const r = await runScript(script, dir, env, { [when]: n });
          assert.notEqual(r.code, 0, `TERM ${when} ${calls[n - 1]}: the script went on`);
          assert.deepEqual(denoDirsLeft(dir), [], `TERM ${when} ${calls[n - 1]}: ${r.stderr}`);
        }
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

Deno.test("score.sbatch sweeps this node's DENO_DIRs of this user's killed jobs, no other", async () => {
  const { dir, env } = await setUp();
  try {
    const host = await hostname();
    const gone = new Deno.Command("true").spawn();
    await gone.status;
    const killed = `kit-deno.${host}.9.${gone.pid}`;
    const live = `kit-deno.${host}.9.${Deno.pid}`;
    const otherNode = `kit-deno.${host}x.9.${gone.pid}`;
    const notOurs = `kit-deno.${host}.9.notapid`;
    for (const name of [killed, live, otherNode, notOurs]) {
      await Deno.mkdir(`${dir}/tmp/${name}/npm`, { recursive: true });
    }
    const r = await runScript("score.sbatch", dir, env);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(denoDirsLeft(dir), [live, notOurs, otherNode].sort());
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
