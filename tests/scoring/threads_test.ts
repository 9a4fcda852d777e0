/**
 * The native backend's threads come from the CPUs the job was given: the smallest of
 * SLURM_CPUS_PER_TASK, the cgroup quota (v2 `cpu.max` and v1 `cfs_quota_us`, along the cgroup and
 * its parents), the CPU affinity and the machine's CPUs; `--threads` overrides; the backend line
 * says which decided.
 */
import assert from "node:assert/strict";
import { cpuAllocation } from "../../lib/scoring/model/cpus.ts";

const MODEL = new URL("../fixtures/tiny-model/cross-encoder", import.meta.url).pathname;

/** A fake machine of 16 CPUs. */
function machine(files: Record<string, string>) {
  const all: Record<string, string> = {
    "/sys/devices/system/cpu/online": "0-15\n",
    "/proc/self/status": "Name:\tdeno\nCpus_allowed_list:\t0-15\n",
    "/proc/self/cgroup": "0::/\n",
    ...files,
  };
  return (p: string) => all[p];
}

Deno.test("cpuAllocation: the smallest limit wins, and is named", () => {
  assert.deepEqual(cpuAllocation({ env: {}, read: machine({}) }), {
    count: 16,
    source: "the machine's CPUs",
  });
  assert.deepEqual(
    cpuAllocation({
      env: {},
      read: machine({ "/proc/self/status": "Cpus_allowed_list:\t2-3,7\n" }),
    }),
    { count: 3, source: "CPU affinity" },
  );
  // cgroup v2: a parent's quota below the leaf's counts; 1.5 CPUs round up to 2.
  assert.deepEqual(
    cpuAllocation({
      env: {},
      read: machine({
        "/proc/self/cgroup": "0::/kubepods/pod1/ctr\n",
        "/sys/fs/cgroup/kubepods/pod1/ctr/cpu.max": "max 100000\n",
        "/sys/fs/cgroup/kubepods/pod1/cpu.max": "150000 100000\n",
        "/sys/fs/cgroup/kubepods/cpu.max": "800000 100000\n",
      }),
    }),
    { count: 2, source: "cgroup CPU quota" },
  );
  // cgroup v1 (cpu,cpuacct controllers), -1 is no limit.
  assert.deepEqual(
    cpuAllocation({
      env: {},
      read: machine({
        "/proc/self/cgroup": "4:cpu,cpuacct:/slurm/job_7\n0::/\n",
        "/sys/fs/cgroup/cpu,cpuacct/slurm/job_7/cpu.cfs_quota_us": "300000\n",
        "/sys/fs/cgroup/cpu,cpuacct/slurm/job_7/cpu.cfs_period_us": "100000\n",
        "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us": "-1\n",
        "/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us": "100000\n",
      }),
    }),
    { count: 3, source: "cgroup CPU quota" },
  );
  // Slurm without CPU binding: only the variable says 1.
  assert.deepEqual(cpuAllocation({ env: { SLURM_CPUS_PER_TASK: "1" }, read: machine({}) }), {
    count: 1,
    source: "SLURM_CPUS_PER_TASK=1",
  });
  // A variable that is not a count is not read as one.
  assert.equal(cpuAllocation({ env: { SLURM_CPUS_PER_TASK: "0" }, read: machine({}) }).count, 16);
  // Nothing readable: the machine's CPUs as the runtime sees them.
  assert(cpuAllocation({ env: {}, read: () => undefined }).count >= 1);
});

async function backendLine(
  env: Record<string, string>,
  prefix: string[] = [],
  extra: string[] = [],
) {
  const args = [
    ...prefix,
    Deno.execPath(),
    "run",
    "--allow-all",
    new URL("../../lib/cli/main.ts", import.meta.url).pathname,
    "score",
    "--model",
    MODEL,
    "--backend",
    "cpu",
    "--dataset",
    "wikiqa",
    "--split",
    "test",
    "--dir",
    "samples",
    "--no-cache",
    "--out",
    "/dev/null",
    ...extra,
  ];
  const out = await new Deno.Command(args[0], {
    args: args.slice(1),
    env: { NO_COLOR: "1", ...env },
    stdout: "null",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 0, stderr);
  return stderr.split("\n")[0];
}

Deno.test("score under taskset -c 0, under SLURM_CPUS_PER_TASK=1 and with --threads: the backend line says the threads and why", async () => {
  const taskset = await new Deno.Command("taskset", { args: ["-c", "0", "true"] }).output()
    .catch(() => undefined);
  if (taskset?.success) {
    assert.match(
      await backendLine({}, ["taskset", "-c", "0"]),
      /native CPU, 1 intra-op thread \((CPU affinity|the machine's CPUs)\)\)/,
    );
  } else console.error("taskset is not available here: the affinity case is checked above");
  assert.match(
    await backendLine({ SLURM_CPUS_PER_TASK: "1" }),
    /native CPU, 1 intra-op thread \((SLURM_CPUS_PER_TASK=1|CPU affinity|the machine's CPUs)\)\)/,
  );
  assert.match(
    await backendLine({ SLURM_CPUS_PER_TASK: "1" }, [], ["--threads", "3"]),
    /native CPU, 3 intra-op threads \(--threads 3\)\)/,
  );
});
