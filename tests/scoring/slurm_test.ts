/**
 * The repository's Slurm scripts (examples/cluster/score.sbatch and merge.sbatch), unchanged,
 * on a real Slurm: a one-node cluster of this machine (munged, slurmctld and slurmd started by
 * the test in a temporary folder, stopped at the end). The scripts' resources are overridden on
 * sbatch's command line and their variables given in the environment, as a user would.
 *
 * Checked: a missing logs/ fails the task before the script runs (exit 0:53, the reason
 * docs/scoring.md says to `mkdir -p logs` first); the array's shards, merged by the merge job
 * (afterok), evaluate under trec_eval exactly as the unsharded run; a task requeued while it
 * runs is scored again and the merge still waits for it; a failed task leaves the afterok
 * merge in DependencyNeverSatisfied, and requeueing the task and pointing the merge at it
 * (`scontrol update jobid=M dependency=afterok:J_1`) recovers, as docs/scoring.md says; a
 * finished task run again skips its shard ("already complete") and the merge gives the same
 * run. Deno's shared cache is a read-only mount throughout.
 *
 * Needs root and the packages of tools/ci-packages.txt; skipped, saying why, without them,
 * unless `QA_KIT_REQUIRE_SLURM=1` (set by .ci/run) makes that a failure.
 */
import assert from "node:assert/strict";
import { PROJECT_ROOT } from "../../lib/data/paths.ts";
import { runCli } from "../helpers.ts";
import {
  MODEL,
  NO_SCHEDULER,
  readOnlyDenoDir,
  type ReadOnlyMount,
  runLines,
  SCORE_ARGS,
  trecEvalAll,
  writeDataQrels,
} from "./cluster.ts";

const NAME = "slurm: the repository's sbatch scripts on a one-node Slurm, merged, requeued";
const REQUIRED = Deno.env.get("QA_KIT_REQUIRE_SLURM") === "1";
const COMMANDS = [
  "munged",
  "mungekey",
  "slurmctld",
  "slurmd",
  "sbatch",
  "scontrol",
  "sinfo",
  "scancel",
];
const SCRIPTS = `${PROJECT_ROOT}/examples/cluster`;

/** A command's absolute path: on PATH or in the sbin folders (root's daemons live there). */
function which(command: string): string | undefined {
  const dirs = [...(Deno.env.get("PATH") ?? "").split(":"), "/usr/sbin", "/sbin", "/usr/bin"];
  for (const dir of dirs.filter(Boolean)) {
    try {
      if (Deno.statSync(`${dir}/${command}`).isFile) return `${dir}/${command}`;
    } catch { /* not here */ }
  }
  return undefined;
}

/** Why the test cannot run here, or undefined. */
function missing(): string | undefined {
  if (Deno.uid() !== 0) {
    return "needs root (it starts munged, slurmctld and slurmd as root and mounts Deno's " +
      "cache read-only)";
  }
  const absent = COMMANDS.filter((c) => !which(c));
  if (absent.length === 0) return undefined;
  const packages = Deno.readTextFileSync(`${PROJECT_ROOT}/tools/ci-packages.txt`)
    .split("\n").map((l) => l.replace(/#.*/, "").trim()).filter(Boolean);
  return `${absent.join(", ")} not installed (apt-get install ${packages.join(" ")}: ` +
    "tools/ci-packages.txt)";
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const decode = (b: Uint8Array) => new TextDecoder().decode(b);

/** A daemon the test started, its stderr collected, its exit known when it ends. */
interface Daemon {
  name: string;
  child: Deno.ChildProcess;
  /** The log file it writes besides stderr. */
  log: string;
  stderr: Promise<string>;
  exited?: Deno.CommandStatus;
}

/** A one-node Slurm cluster in a temporary folder. */
class Cluster {
  readonly daemons: Daemon[] = [];
  readonly jobs: string[] = [];
  readonly env: Record<string, string>;

  constructor(readonly dir: string) {
    this.env = { SLURM_CONF: `${dir}/slurm.conf` };
  }

  spawn(name: string, args: string[], log: string): void {
    const child = new Deno.Command(which(name)!, {
      args,
      env: this.env,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const daemon: Daemon = { name, child, log, stderr: new Response(child.stderr).text() };
    child.status.then((s) => daemon.exited = s);
    this.daemons.push(daemon);
  }

  /** The logs of every daemon, for a failure message. */
  async logs(): Promise<string> {
    const parts: string[] = [];
    for (const d of this.daemons) {
      let log = "";
      try {
        log = (await Deno.readTextFile(d.log)).split("\n").slice(-30).join("\n");
      } catch { /* not written */ }
      const state = d.exited ? `exited ${d.exited.code}` : "running";
      parts.push(`--- ${d.name} (${state}), ${d.log}:\n${log}`);
    }
    return parts.join("\n");
  }

  /** Fails, with the logs, when a daemon has ended. */
  async checkAlive(): Promise<void> {
    const dead = this.daemons.find((d) => d.exited);
    if (dead) {
      throw new Error(
        `${dead.name} ended (code ${dead.exited!.code}): ${await dead.stderr}\n` +
          (await this.logs()),
      );
    }
  }

  /** Polls `probe` until it gives a value, a daemon dies, or `seconds` pass. */
  async until<T>(what: string, probe: () => Promise<T | undefined>, seconds = 90): Promise<T> {
    const deadline = Date.now() + seconds * 1000;
    for (;;) {
      await this.checkAlive();
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) {
        throw new Error(`${what}: not after ${seconds} s\n${await this.logs()}`);
      }
      await sleep(200);
    }
  }

  /** Runs a Slurm command; its stdout, or an error with its stderr. */
  async run(
    command: string,
    args: string[],
    options: { cwd?: string; env?: Record<string, string> } = {},
  ): Promise<string> {
    const out = await new Deno.Command(which(command)!, {
      args,
      cwd: options.cwd,
      env: { ...this.env, ...options.env },
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      throw new Error(`${command} ${args.join(" ")}: ${decode(out.stderr)}${decode(out.stdout)}`);
    }
    return decode(out.stdout);
  }

  /** Submits a script; its job id. */
  async sbatch(args: string[], cwd: string, env: Record<string, string>): Promise<string> {
    const id = (await this.run("sbatch", ["--parsable", ...args], { cwd, env })).trim()
      .split(";")[0];
    assert.match(id, /^\d+$/);
    this.jobs.push(id);
    return id;
  }

  /** Every record of a job (one per array task), its fields by name. */
  async show(id: string): Promise<Record<string, string>[]> {
    const text = await this.run("scontrol", ["show", "job", "-o", id]);
    return text.split("\n").filter(Boolean).map((line) =>
      Object.fromEntries([...line.matchAll(/(\w+)=(\S*)/g)].map((m) => [m[1], m[2]]))
    );
  }

  /** Waits until every task of a job has ended; its records. */
  done(id: string, seconds = 90): Promise<Record<string, string>[]> {
    const ended = new Set([
      "COMPLETED",
      "FAILED",
      "CANCELLED",
      "TIMEOUT",
      "OUT_OF_MEMORY",
      "NODE_FAIL",
      "BOOT_FAIL",
      "DEADLINE",
      "PREEMPTED",
    ]);
    return this.until(`job ${id} to end`, async () => {
      const records = await this.show(id);
      return records.every((r) => ended.has(r.JobState) && !/[-,%]/.test(r.ArrayTaskId ?? ""))
        ? records
        : undefined;
    }, seconds);
  }

  /** One record: a job's, or an array task's (`J_I`). */
  async one(id: string): Promise<Record<string, string>> {
    const [record] = await this.show(id);
    return record;
  }

  /**
   * Requeues a task and starts it at once: Slurm holds a requeued job back for a while
   * (its BeginTime), which `scontrol update ... starttime=now` lifts once it is pending.
   */
  async requeue(task: string): Promise<void> {
    await this.run("scontrol", ["requeue", task]);
    await this.until(`${task} pending after its requeue`, async () => {
      const r = await this.one(task);
      return r.JobState === "PENDING" ? r : undefined;
    });
    await this.run("scontrol", ["update", `jobid=${task}`, "starttime=now"]);
  }

  /** Cancels the jobs it submitted, then stops its daemons (by pid), last started first. */
  async stop(): Promise<void> {
    if (this.jobs.length && this.daemons.every((d) => !d.exited)) {
      await this.run("scancel", this.jobs).catch(() => {});
      for (let i = 0; i < 50; i++) {
        const left = await this.run("squeue", ["-h", "-j", this.jobs.join(",")]).catch(() => "");
        if (!left.trim()) break;
        await sleep(200);
      }
    }
    for (const d of [...this.daemons].reverse()) {
      if (!d.exited) {
        d.child.kill("SIGTERM");
        const timer = setTimeout(() => {
          if (!d.exited) d.child.kill("SIGKILL");
        }, 10_000);
        await d.child.status;
        clearTimeout(timer);
      }
      await d.stderr;
    }
  }
}

/** A free TCP port of this machine. */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Starts munged, slurmctld and slurmd on a one-node configuration in `cluster.dir`. */
async function start(cluster: Cluster): Promise<void> {
  const d = cluster.dir;
  for (const sub of ["munge", "state", "spool", "log"]) await Deno.mkdir(`${d}/${sub}`);
  const key = `${d}/munge/munge.key`;
  const made = await new Deno.Command(which("mungekey")!, {
    args: ["--create", `--keyfile=${key}`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!made.success) throw new Error(`mungekey: ${decode(made.stderr)}`);
  const socket = `${d}/munge/munge.socket`;
  cluster.spawn("munged", [
    "--foreground",
    "--force",
    `--socket=${socket}`,
    `--key-file=${key}`,
    `--pid-file=${d}/munge/munged.pid`,
    `--seed-file=${d}/munge/munged.seed`,
    `--log-file=${d}/log/munged.log`,
  ], `${d}/log/munged.log`);
  await cluster.until("munged's socket", async () => {
    try {
      return (await Deno.stat(socket)).isSocket ? true : undefined;
    } catch {
      return undefined;
    }
  }, 20);
  const cpus = Number(decode((await new Deno.Command("nproc").output()).stdout));
  const memTotal = /MemTotal:\s+(\d+) kB/.exec(await Deno.readTextFile("/proc/meminfo"))!;
  const memory = Math.floor(Number(memTotal[1]) / 1024 * 0.8);
  const conf = [
    "ClusterName=kittest",
    "SlurmctldHost=localhost",
    "SlurmUser=root",
    "SlurmdUser=root",
    `SlurmctldPort=${freePort()}`,
    `SlurmdPort=${freePort()}`,
    "AuthType=auth/munge",
    `AuthInfo=socket=${socket}`,
    "CredType=cred/munge",
    `StateSaveLocation=${d}/state`,
    `SlurmdSpoolDir=${d}/spool`,
    `SlurmctldPidFile=${d}/slurmctld.pid`,
    `SlurmdPidFile=${d}/slurmd.pid`,
    `SlurmctldLogFile=${d}/log/slurmctld.log`,
    `SlurmdLogFile=${d}/log/slurmd.log`,
    "MailProg=/bin/true",
    // no cgroups: processes tracked by their parents, tasks not bound
    "ProctrackType=proctrack/linuxproc",
    "TaskPlugin=task/none",
    "JobAcctGatherType=jobacct_gather/none",
    "AccountingStorageType=accounting_storage/none",
    "MpiDefault=none",
    "SchedulerType=sched/builtin",
    "SelectType=select/cons_tres",
    "SelectTypeParameters=CR_CPU_Memory",
    "ReturnToService=2",
    `NodeName=localhost NodeAddr=127.0.0.1 CPUs=${cpus} RealMemory=${memory} State=UNKNOWN`,
    "PartitionName=kit Nodes=ALL Default=YES MaxTime=INFINITE State=UP",
  ];
  await Deno.writeTextFile(`${d}/slurm.conf`, conf.join("\n") + "\n");
  cluster.spawn("slurmctld", ["-D", "-f", `${d}/slurm.conf`], `${d}/log/slurmctld.log`);
  cluster.spawn(
    "slurmd",
    ["-D", "-N", "localhost", "-f", `${d}/slurm.conf`],
    `${d}/log/slurmd.log`,
  );
  await cluster.until("the node idle", async () => {
    const state = await cluster.run("sinfo", ["-h", "-n", "localhost", "-o", "%t"])
      .catch(() => "");
    return state.trim() === "idle" ? true : undefined;
  }, 60);
}

const why = missing();
if (why && !REQUIRED) console.error(`skipping "${NAME}": ${why}`);

Deno.test({
  name: NAME,
  ignore: why !== undefined && !REQUIRED,
  async fn() {
    if (why) throw new Error(`${why}, but QA_KIT_REQUIRE_SLURM=1`);
    const dir = await Deno.makeTempDir({ prefix: "kit-slurm-" });
    await Deno.chmod(dir, 0o755); // munged's socket must be reachable
    const cluster = new Cluster(dir);
    let deno: ReadOnlyMount | undefined;
    const work = `${dir}/work`, jobTmp = `${dir}/tmp`;
    try {
      deno = await readOnlyDenoDir();
      assert.ok(deno, "cannot mount Deno's cache read-only");
      await Deno.mkdir(`${work}/logs`, { recursive: true });
      await Deno.mkdir(`${work}/runs`);
      await Deno.mkdir(jobTmp);
      const [, reference] = await Promise.all([
        start(cluster),
        // the unsharded run, scored by one process outside Slurm
        runCli(["score", ...SCORE_ARGS, "--no-cache", "--out", "all.run"], {
          env: NO_SCHEDULER,
          cwd: work,
        }),
      ]);
      assert.equal(reference.code, 0, reference.stderr);
      // what the scripts read from the environment; their #SBATCH lines stay as in the repo
      const env = {
        ...NO_SCHEDULER,
        SHARDS: "3",
        MODEL,
        DATASET: "wikiqa",
        SPLIT: "test",
        FILTER: "raw",
        CORPUS_DIR: "samples",
        SCORE_FLAGS: "--backend cpu",
        RUN: "runs/ce",
        KIT: PROJECT_ROOT,
        KIT_DENO_DIR: deno.dir,
        TMPDIR: jobTmp,
        PATH: `${Deno.execPath().replace(/\/[^/]*$/, "")}:${Deno.env.get("PATH") ?? ""}`,
      };
      const small = ["--cpus-per-task=1", "--mem=300M", "--time=10"];
      const score = `${SCRIPTS}/score.sbatch`, merge = `${SCRIPTS}/merge.sbatch`;

      // Without logs/, slurmd cannot open --output: the task fails before the script runs.
      await Deno.mkdir(`${dir}/nologs`);
      const lost = await cluster.sbatch([...small, "--array=0", score], `${dir}/nologs`, env);
      const [failed] = await cluster.done(lost);
      assert.equal(failed.JobState, "FAILED");
      assert.equal(failed.ExitCode, "0:53");

      // The array and its merge; task 1 requeued while it runs (killed, then run again).
      const array = await cluster.sbatch([...small, "--array=0-2", score], work, env);
      const merged = await cluster.sbatch(
        ["--mem=300M", `--dependency=afterok:${array}`, merge],
        work,
        env,
      );
      await cluster.until(`${array}_1 running`, async () => {
        const r = await cluster.one(`${array}_1`);
        return r.JobState === "PENDING" ? undefined : r;
      });
      await cluster.requeue(`${array}_1`);
      for (const r of await cluster.done(array)) {
        assert.equal(r.JobState, "COMPLETED", JSON.stringify(r));
      }
      assert.equal((await cluster.one(`${array}_1`)).Restarts, "1");
      const [m] = await cluster.done(merged);
      const mergeLog = () => Deno.readTextFile(`${work}/logs/merge-${merged}.log`);
      assert.equal(m.JobState, "COMPLETED", await mergeLog());
      assert.match(await mergeLog(), /^map\s+all\s/m);
      const qrels = `${work}/test.qrels`;
      await writeDataQrels(qrels);
      assert.deepEqual(await runLines(`${work}/runs/ce.run`), await runLines(`${work}/all.run`));
      assert.equal(
        await trecEvalAll(qrels, `${work}/runs/ce.run`),
        await trecEvalAll(qrels, `${work}/all.run`),
      );
      const first = await Deno.readFile(`${work}/runs/ce.run`);

      // A failed task: the afterok merge can never start; requeued, and the merge pointed at
      // the requeued task, it does.
      await Deno.mkdir(`${work}/runs/b.1.run`); // a folder where shard 1's run goes
      const envB = { ...env, RUN: "runs/b" };
      const arrayB = await cluster.sbatch([...small, "--array=0-2", score], work, envB);
      const mergedB = await cluster.sbatch(
        ["--mem=300M", `--dependency=afterok:${arrayB}`, merge],
        work,
        envB,
      );
      const states = (await cluster.done(arrayB)).map((r) => r.JobState);
      assert.deepEqual(states.sort(), ["COMPLETED", "COMPLETED", "FAILED"]);
      await cluster.until("the merge never satisfied", async () => {
        const r = await cluster.one(mergedB);
        return r.Reason === "DependencyNeverSatisfied" ? r : undefined;
      });
      await Deno.remove(`${work}/runs/b.1.run`);
      await cluster.requeue(`${arrayB}_1`);
      await cluster.run("scontrol", [
        "update",
        `jobid=${mergedB}`,
        `dependency=afterok:${arrayB}_1`,
      ]);
      const [mB] = await cluster.done(mergedB);
      assert.equal(
        mB.JobState,
        "COMPLETED",
        await Deno.readTextFile(`${work}/logs/merge-${mergedB}.log`),
      );
      assert.deepEqual(await Deno.readFile(`${work}/runs/b.run`), first);

      // A finished task run again skips its shard; the merge run again gives the same run.
      await cluster.requeue(`${array}_0`);
      const [again] = await cluster.done(`${array}_0`);
      assert.equal(again.JobState, "COMPLETED");
      assert.match(
        await Deno.readTextFile(`${work}/logs/score-${array}_0.log`),
        /already complete/,
      );
      const remerged = await cluster.sbatch(["--mem=300M", merge], work, env);
      assert.equal((await cluster.done(remerged))[0].JobState, "COMPLETED");
      assert.deepEqual(await Deno.readFile(`${work}/runs/ce.run`), first);
      // One task resubmitted alone (its shard lost): it is shard 1 of 3 still, and the merge
      // after it gives the same run.
      await Deno.remove(`${work}/runs/ce.1.run`);
      await Deno.remove(`${work}/runs/ce.1.run.shard.json`);
      const single = await cluster.sbatch([...small, "--array=1", score], work, env);
      assert.equal((await cluster.done(single))[0].JobState, "COMPLETED");
      assert.match(
        await Deno.readTextFile(`${work}/logs/score-${single}_1.log`),
        /shard 1 of 3 \(--shard 1\/3\)/,
      );
      const merged1 = await cluster.sbatch(["--mem=300M", merge], work, env);
      assert.equal((await cluster.done(merged1))[0].JobState, "COMPLETED");
      assert.deepEqual(await Deno.readFile(`${work}/runs/ce.run`), first);
      // every job removed its own DENO_DIR (onnxruntime leaves its .ses file there)
      const left = [...Deno.readDirSync(jobTmp)].map((e) => e.name);
      assert.deepEqual(left.filter((name) => name.startsWith("kit-deno")), [], `${left}`);
    } catch (e) {
      // what the jobs and the daemons said, to tell a failure of the scripts from one of Slurm
      for (const folder of [`${work}/logs`, `${work}/runs`]) {
        let names: string[] = [];
        try {
          names = [...Deno.readDirSync(folder)].map((entry) => entry.name).sort();
        } catch { /* not made yet */ }
        for (const name of names) {
          const text = name.endsWith(".log") ? await Deno.readTextFile(`${folder}/${name}`) : "";
          console.error(`--- ${folder}/${name}\n${text}`);
        }
      }
      console.error(await cluster.logs());
      throw e;
    } finally {
      await cluster.stop();
      await deno?.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
