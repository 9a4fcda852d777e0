/**
 * How many CPUs this process was given, and by whom: the smallest of the scheduler's
 * allocation (`SLURM_CPUS_PER_TASK`), the cgroup CPU quota (`cpu.max` in cgroup v2,
 * `cpu.cfs_quota_us / cpu.cfs_period_us` in v1, the smallest along the process's cgroup and its
 * parents: a Kubernetes CPU limit, systemd's `CPUQuota`), the process's CPU affinity
 * (`Cpus_allowed_list`: `taskset`, Slurm's CPU binding, `docker --cpuset-cpus`) and the
 * machine's online CPUs. Slurm without CPU binding (`srun -c1` under `TaskPlugin=task/none`)
 * sets only the variable, so the variable counts even where the affinity mask is the whole
 * node. A quota of 1.5 CPUs gives 2 threads (rounded up, as the Rust standard library rounds
 * it for `navigator.hardwareConcurrency`).
 *
 * @module
 */

/** The CPUs this process may use, and what limited them. */
export interface CpuAllocation {
  /** At least 1. */
  count: number;
  /** What set the count, in words: `SLURM_CPUS_PER_TASK=1`, `cgroup cpu.max`, `CPU affinity`, `the machine's CPUs`. */
  source: string;
}

/** Where {@link cpuAllocation} reads (for tests: a fake file system and environment). */
export interface CpuSources {
  /** The environment (default: the process's). */
  env?: Record<string, string | undefined>;
  /** Reads a text file, or undefined when it cannot (default: `Deno.readTextFileSync`). */
  read?: (path: string) => string | undefined;
}

/**
 * The number of CPUs in a Linux CPU list (`0-3,8,10-11` is 7); undefined when it is not one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cpuListCount } from "./cpus.ts";
 * assert.equal(cpuListCount("0-3,8,10-11\n"), 7);
 * assert.equal(cpuListCount("0"), 1);
 * assert.equal(cpuListCount("x"), undefined);
 * ```
 */
export function cpuListCount(text: string): number | undefined {
  let n = 0;
  for (const part of text.trim().split(",")) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) return undefined;
    const lo = Number(m[1]), hi = m[2] === undefined ? lo : Number(m[2]);
    if (hi < lo) return undefined;
    n += hi - lo + 1;
  }
  return n || undefined;
}

/**
 * CPUs a cgroup quota allows (`quota / period`, rounded up); undefined for no limit (`max`,
 * `-1`) or text that is not a quota.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { quotaCpus } from "./cpus.ts";
 * assert.equal(quotaCpus("150000", "100000"), 2);
 * assert.equal(quotaCpus("100000", "100000"), 1);
 * assert.equal(quotaCpus("max", "100000"), undefined);
 * assert.equal(quotaCpus("-1", "100000"), undefined);
 * ```
 */
export function quotaCpus(quota: string, period: string): number | undefined {
  const q = Number(quota.trim()), p = Number(period.trim());
  if (!Number.isFinite(q) || !Number.isFinite(p) || q <= 0 || p <= 0) return undefined;
  return Math.max(1, Math.ceil(q / p));
}

function defaultRead(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

/** The paths from `path` up to the root (`/a/b`, `/a`, `/`). */
function upwards(path: string): string[] {
  const out: string[] = [];
  let p = path.replace(/\/+$/, "") || "/";
  for (;;) {
    out.push(p);
    if (p === "/") return out;
    p = p.slice(0, p.lastIndexOf("/")) || "/";
  }
}

/** The smallest CPU quota along this process's cgroup and its parents (v2, then v1). */
function cgroupCpus(read: (path: string) => string | undefined): number | undefined {
  const lines = (read("/proc/self/cgroup") ?? "").split("\n");
  let best: number | undefined;
  const take = (n: number | undefined) => {
    if (n !== undefined && (best === undefined || n < best)) best = n;
  };
  const v2 = lines.find((l) => l.startsWith("0::"));
  if (v2) {
    for (const dir of upwards(v2.slice(3))) {
      const max = read(`/sys/fs/cgroup${dir === "/" ? "" : dir}/cpu.max`);
      if (max) {
        const [quota, period] = max.trim().split(/\s+/);
        take(quotaCpus(quota, period ?? "100000"));
      }
    }
  }
  const v1 = lines.find((l) => /^\d+:([^:]*,)?cpu(,[^:]*)?:/.test(l));
  if (v1) {
    const [, controllers, path] = v1.split(":");
    for (const mount of [`/sys/fs/cgroup/${controllers}`, "/sys/fs/cgroup/cpu"]) {
      for (const dir of upwards(path)) {
        const base = `${mount}${dir === "/" ? "" : dir}`;
        const quota = read(`${base}/cpu.cfs_quota_us`), period = read(`${base}/cpu.cfs_period_us`);
        if (quota !== undefined && period !== undefined) take(quotaCpus(quota, period));
      }
    }
  }
  return best;
}

/**
 * The CPUs this process may use: the smallest of `SLURM_CPUS_PER_TASK`, the cgroup quota, the
 * affinity mask and the machine's online CPUs, with what set it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cpuAllocation } from "./cpus.ts";
 * const files: Record<string, string> = {
 *   "/proc/self/status": "Name:\tdeno\nCpus_allowed_list:\t0-7\n",
 *   "/sys/devices/system/cpu/online": "0-15\n",
 *   "/proc/self/cgroup": "0::/job\n",
 *   "/sys/fs/cgroup/job/cpu.max": "400000 100000\n",
 * };
 * const read = (p: string) => files[p];
 * assert.deepEqual(cpuAllocation({ env: {}, read }), { count: 4, source: "cgroup CPU quota" });
 * assert.deepEqual(cpuAllocation({ env: { SLURM_CPUS_PER_TASK: "1" }, read }), {
 *   count: 1,
 *   source: "SLURM_CPUS_PER_TASK=1",
 * });
 * assert(cpuAllocation().count >= 1);
 * ```
 */
export function cpuAllocation(sources: CpuSources = {}): CpuAllocation {
  const env = sources.env ?? Deno.env.toObject();
  const read = sources.read ?? defaultRead;
  // In order from the broadest: on a tie the broadest says why (a 2-CPU machine, not "affinity").
  const candidates: [number | undefined, string][] = [];
  const online = read("/sys/devices/system/cpu/online");
  candidates.push([
    (online ? cpuListCount(online) : undefined) ??
      (typeof navigator === "undefined" ? 1 : navigator.hardwareConcurrency || 1),
    "the machine's CPUs",
  ]);
  const allowed = /^Cpus_allowed_list:\s*(\S+)/m.exec(read("/proc/self/status") ?? "");
  candidates.push([allowed ? cpuListCount(allowed[1]) : undefined, "CPU affinity"]);
  candidates.push([cgroupCpus(read), "cgroup CPU quota"]);
  const slurm = env.SLURM_CPUS_PER_TASK;
  if (slurm && /^[1-9]\d{0,5}$/.test(slurm)) {
    candidates.push([Number(slurm), `SLURM_CPUS_PER_TASK=${slurm}`]);
  }
  let best: CpuAllocation | undefined;
  for (const [n, source] of candidates) {
    if (n !== undefined && (best === undefined || n < best.count)) best = { count: n, source };
  }
  return best ?? { count: 1, source: "the machine's CPUs" };
}
