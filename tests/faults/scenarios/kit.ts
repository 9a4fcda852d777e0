/**
 * What the command-level fault scenarios share: a fresh folder per scenario (the commands run
 * in it, so paths in messages are the relative paths typed), the kit as a real subprocess,
 * bash for pipes and redirections, real read-only file systems and device nodes where this
 * process may make them, and the rendering of an observed run for the doc.
 *
 * @module
 */
import { assert } from "../../assert.ts";
import { isInstalled, PROJECT_ROOT } from "../../../lib/data/paths.ts";

/** The kit's command line, as a process. */
export const MAIN = `${PROJECT_ROOT}/lib/cli/main.ts`;

/** One finished process. */
export interface Run {
  code: number;
  signal: Deno.Signal | null;
  stdout: string;
  stderr: string;
}

/** The classes of faults, in doc order, each with what the kit now does in one line. */
export const CLASSES = {
  targets: {
    title: "Output paths that are special files, links or folders",
    summary: "a FIFO, character device or descriptor is written through (as `>` does) and " +
      "never replaced, even with `--force`; a link is followed (its target is written, the " +
      "link stays); a folder, disk or socket is refused; a report never deletes a file it " +
      "did not write",
  },
  unwritable: {
    title: "Outputs that cannot be written",
    summary: "checked before any work (scoring, downloads): one line naming the path and " +
      "what to do; a full disk mid-write keeps the earlier file",
  },
  interrupts: {
    title: "Interrupts and killed processes",
    summary: "SIGINT / SIGTERM / SIGHUP / SIGQUIT remove the unfinished temporary files and exit " +
      "130 / 143 / 129 / 131; files left by a killed process are swept by the next write there",
  },
  stdout: {
    title: "Standard output closed early (`| head`)",
    summary: "a quiet exit with status 0, no stack trace",
  },
  corpus: {
    title: "Installed corpus changed after installation",
    summary: "a changed or missing file is an error naming it and the command that restores " +
      "it (size and times checked on every use, sha256 when they differ); a copied or " +
      "read-only checkout: one line, once",
  },
  jacana: {
    title: "TREC-QA jacana XML: malformed tags",
    summary: "an error naming the line: no block closes with another's tag, no candidate " +
      "merges into its neighbour",
  },
  paths: {
    title: "Relative paths from another folder",
    summary: "resolved against the caller's folder (`INIT_CWD` of `deno task`, `./kit`); " +
      "messages show the path as typed",
  },
  filters: {
    title: "Filter defaults",
    summary: "every command defaults to the protocol's filter (clean for dev/test, no-all " +
      "for train) and says on stderr which one it used",
  },
  machine: {
    title: "The kit on its user's machine",
    summary: "`--help` installs and registers nothing; the Jupyter kernel is registered where " +
      "Jupyter looks (`JUPYTER_DATA_DIR`), once, silently afterwards",
  },
} as const;

/** A class id. */
export type ClassId = keyof typeof CLASSES;

/**
 * What a scenario needs from the machine: root (device nodes), mounting (read-only and full
 * file systems), the fetched corpora, the shared mirror, a `./kit` that would only check
 * (not install) before running.
 */
export type Need = "root" | "mount" | "corpora" | "mirror" | "kit";

/** One fault tried: runs it, asserts what must hold, returns what the kit did (for the doc). */
export interface Scenario {
  cls: ClassId;
  /** What was tried (Markdown). */
  tried: string;
  needs?: Need[];
  run(ctx: Ctx): Promise<string>;
}

/** What a scenario runs with. */
export interface Ctx {
  /** A fresh folder; commands run in it. */
  dir: string;
  /** A folder laid out like `../shared/datasets` holding the real corpora (when `corpora`). */
  corpora: string;
  /** The shared mirror (when `mirror`). */
  mirror: string;
  /** Runs the kit (`deno run main.ts`) in `dir` (or `cwd`). */
  kit(args: string[], options?: { cwd?: string; env?: Record<string, string> }): Promise<Run>;
  /** Runs a bash script in `dir`, with `$KIT` the kit's command line. */
  sh(script: string, env?: Record<string, string>): Promise<Run>;
  /** Mounts a tmpfs at `dir/name`, read-only by default (unmounted afterwards). */
  tmpfs(name: string, options?: { size?: string; readOnly?: boolean }): Promise<string>;
  /** Runs `fn` when the scenario ends (unmounting, killing). */
  defer(fn: () => Promise<void> | void): void;
}

const dec = new TextDecoder();

/**
 * Starts `cmd` in `cwd`. `INIT_CWD` is set to `cwd`, as `deno task` would (so one inherited
 * from an outer `deno task test` does not move the command), unless `asCaller`: then it is
 * removed, as in a user's shell, for `deno task` and `./kit` to set themselves. Standard input
 * is empty (`/dev/null`) unless `stdin: "piped"` (the caller writes to it and closes it).
 */
export function start(
  cmd: string,
  args: string[],
  cwd: string,
  options: { env?: Record<string, string>; asCaller?: boolean; stdin?: "piped" | "null" } = {},
): Deno.ChildProcess {
  const env = Deno.env.toObject();
  if (options.asCaller) delete env.INIT_CWD;
  else env.INIT_CWD = cwd;
  return new Deno.Command(cmd, {
    args,
    cwd,
    clearEnv: true,
    env: { ...env, NO_COLOR: "1", ...options.env },
    stdin: options.stdin ?? "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Waits for a process and collects its output. */
export async function finish(child: Deno.ChildProcess): Promise<Run> {
  const out = await child.output();
  return {
    code: out.code,
    signal: out.signal,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
  };
}

/** The kit's own command line (`deno run main.ts ARGS`) as a program and its arguments. */
export function kitCommand(args: string[]): [string, string[]] {
  return [Deno.execPath(), ["run", "-A", MAIN, ...args]];
}

/** Arguments of the commands the scenarios run most, on the bundled samples. */
export const ARGS = {
  /** `data qrels` of a WikiQA split of the samples. */
  qrels: (
    split = "test",
    ...more: string[]
  ) => ["data", "qrels", "wikiqa", "--split", split, "--dir", "samples", ...more],
  /** `score` with Word Cnt on a WikiQA split of the samples (or `dir`), without the cache. */
  score: (split: string, out: string, more: string[] = [], dir = "samples") => [
    ...["score", "--model", "lexical:wordcnt", "--dataset", "wikiqa", "--split", split],
    ...["--dir", dir, "--no-cache", "--out", out, ...more],
  ],
  /** `eval as2` of a run on a WikiQA split of the samples. */
  as2: (
    split: string,
    run: string,
    ...more: string[]
  ) => ["eval", "as2", "--dataset", "wikiqa", "--split", split, "--dir", "samples", ...more, run],
  /** `eval compare` of the sample run with itself (as systems a and b), 20 trials. */
  compare: (...more: string[]) => [
    ...["eval", "compare", "--qrels", SAMPLE.qrels, SAMPLE.run, SAMPLE.run],
    ...["--name", "a", "--name", "b", "--trials", "20", ...more],
  ],
  /** `eval qrcd-baseline` of the samples' dev split. */
  baseline: (
    out: string,
  ) => ["eval", "qrcd-baseline", "--split", "dev", "--dir", "samples", "--out", out],
  /** `data fetch` of a corpus from `mirror` into `dir`. */
  fetch: (
    dataset: string,
    mirror: string,
    dir: string,
  ) => ["data", "fetch", dataset, "--mirror", mirror, "--dir", dir],
};

/** Whether this process can mount file systems and make device nodes. */
export const IS_ROOT = Deno.uid() === 0;

async function canMount(): Promise<boolean> {
  if (!IS_ROOT) return false;
  const d = await Deno.makeTempDir({ prefix: "kit-mount-probe-" });
  try {
    const m = await new Deno.Command("mount", {
      args: ["-t", "tmpfs", "-o", "size=16k,ro", "tmpfs", d],
      stdout: "null",
      stderr: "null",
    }).output();
    if (!m.success) return false;
    await new Deno.Command("umount", { args: [d] }).output();
    return true;
  } catch {
    return false;
  } finally {
    await Deno.remove(d).catch(() => {});
  }
}

/** The shared mirror of the real corpora, if present. */
export const MIRROR = Deno.env.get("QA_KIT_MIRROR") ?? `${PROJECT_ROOT}/../shared/datasets`;

/**
 * The Deno `./kit` would use (as its `ensure_deno` picks it), when `./kit` would only check,
 * not install: that Deno is 2.9.6, the Debian packages are there and trec_eval is built. (Its
 * Jupyter kernel it registers in the folder the scenario gives it, {@link ownJupyterData}.)
 */
async function kitDeno(): Promise<string | undefined> {
  const run = async (cmd: string, args: string[]) => {
    try {
      const o = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).output();
      return o.success ? new TextDecoder().decode(o.stdout).trim() : undefined;
    } catch {
      return undefined; // no such program
    }
  };
  const local = `${PROJECT_ROOT}/.tools/node_modules/.bin/deno`;
  const deno = (await run(local, ["--version"]))
    ? local
    : await run("bash", ["-c", "command -v deno"]);
  if (!deno || !(await run(deno, ["--version"]))?.startsWith("deno 2.9.6 ")) return undefined;
  const list = await Deno.readTextFile(`${PROJECT_ROOT}/tools/packages.txt`);
  for (const line of list.split("\n")) {
    const p = line.replace(/#.*/, "").trim().split(/\s+/)[0];
    if (
      p && !(await run("dpkg-query", ["-W", "-f=${Status}", p]))?.includes("install ok installed")
    ) {
      return undefined;
    }
  }
  // ./kit builds trec_eval (the metric tests' oracle) when its source is there and it is not.
  const built = (p: string) => Deno.stat(p).then(() => true, () => false);
  if (
    await built(`${PROJECT_ROOT}/../shared/tools/trec_eval-9.0.8.tar.gz`) &&
    !(await built(`${PROJECT_ROOT}/.tools/trec_eval-9.0.8/trec_eval`))
  ) return undefined;
  return deno;
}

/**
 * `JUPYTER_DATA_DIR` for a `./kit` a scenario runs: a folder of the scenario's own (removed after
 * it), where `./kit` registers its Jupyter kernel. So no scenario touches the user-wide kernelspec,
 * nor depends on where it points (another checkout's `./kit` may have registered it meanwhile).
 */
export async function ownJupyterData(ctx: Ctx): Promise<{ JUPYTER_DATA_DIR: string }> {
  const data = await Deno.makeTempDir({ prefix: "kit-fault-jupyter-" });
  ctx.defer(() => Deno.remove(data, { recursive: true }));
  return { JUPYTER_DATA_DIR: data };
}

/** What this machine offers, decided once. */
export const CAN: Record<Need, boolean> = {
  root: IS_ROOT,
  mount: await canMount(),
  mirror: await Deno.stat(`${MIRROR}/wikiqa/WikiQA-test.tsv`).then(() => true, () => false),
  corpora: ["wikiqa", "trecqa", "qrcd"].every((d) => isInstalled(d as "wikiqa")),
  kit: (await kitDeno()) !== undefined,
};

/** The fetched cache (laid out like the mirror), used as a mirror for installs in tests. */
export const CORPORA = Deno.env.get("QA_KIT_DATA_DIR") || `${PROJECT_ROOT}/data/cache`;

/** Makes a context in a fresh folder; `close` undoes mounts and other deferred steps. */
export async function makeCtx(): Promise<{ ctx: Ctx; close: () => Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "kit-fault-" });
  const deferred: (() => Promise<void> | void)[] = [];
  const ctx: Ctx = {
    dir,
    corpora: CORPORA,
    mirror: MIRROR,
    kit: (args, o = {}) => finish(start(...kitCommand(args), o.cwd ?? dir, { env: o.env })),
    sh: (script, extra) =>
      finish(start("bash", ["-c", script], dir, {
        env: { KIT: `${Deno.execPath()} run -A ${MAIN}`, ...extra },
      })),
    async tmpfs(name, o = {}) {
      const path = `${dir}/${name}`;
      await Deno.mkdir(path);
      const opts = `size=${o.size ?? "64k"}${o.readOnly === false ? "" : ",ro"}`;
      const m = await new Deno.Command("mount", {
        args: ["-t", "tmpfs", "-o", opts, "tmpfs", path],
        stderr: "piped",
      }).output();
      assert(m.success, `mount failed: ${dec.decode(m.stderr)}`);
      deferred.push(async () => {
        await new Deno.Command("umount", { args: ["-l", path] }).output();
      });
      return path;
    },
    defer: (fn) => deferred.push(fn),
  };
  return {
    ctx,
    close: async () => {
      for (const fn of deferred.reverse()) await fn();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** Temporary names and pids vary from run to run; the doc shows them generically. */
export function stable(text: string): string {
  return text.replace(/\.tmp-\d+-[0-9a-z]+/g, ".tmp-PID-RANDOM")
    .replace(/kit-fault-[A-Za-z0-9_]+/g, "DIR");
}

/** The one `error:` line of a failed command (asserting there is no stack trace). */
export function errorLine(r: Run): string {
  assert(!/^\s+at /m.test(r.stderr), `a stack trace instead of a message:\n${r.stderr}`);
  const lines = r.stderr.split("\n").filter((l) => l.startsWith("error: "));
  assert(lines.length === 1, `expected one error line, got:\n${r.stderr}`);
  return lines[0];
}

/** A failed command as the doc shows it: status and message, checked to name `path`. */
export function refused(r: Run, path: string, says: RegExp, code = 2): string {
  assert(r.code === code, `expected exit ${code}, got ${r.code}:\n${r.stderr}`);
  const line = errorLine(r);
  assert(line.startsWith(`error: ${path}`), `the message must start with '${path}': ${line}`);
  assert(says.test(line), `'${line}' does not match ${says}`);
  return `exit ${r.code}: \`${stable(line)}\``;
}

/** Asserts a command succeeded without any error line or stack trace. */
export function succeeded(r: Run, what = "the command"): void {
  assert(r.code === 0, `${what} failed (exit ${r.code}):\n${r.stderr}`);
  assert(!/^\s+at |^error: /m.test(r.stderr), `${what} printed an error:\n${r.stderr}`);
}

/** Lines of a text file, or undefined when it is missing. */
export async function readOr(path: string): Promise<string | undefined> {
  return await Deno.readTextFile(path).catch(() => undefined);
}

/** Names in a folder, sorted. */
export function listing(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).sort();
}

/** Asserts no kit temporary file is left in `dir` (recursively). */
export function noTemps(dir: string): void {
  const left: string[] = [];
  const walk = (d: string) => {
    for (const e of Deno.readDirSync(d)) {
      if (e.isDirectory) walk(`${d}/${e.name}`);
      else if (/\.tmp-\d+-/.test(e.name)) left.push(`${d}/${e.name}`);
    }
  };
  walk(dir);
  assert(left.length === 0, `temporary files left: ${left.join(", ")}`);
}

/** The sample files every scenario may read (absolute: commands run elsewhere). */
export const SAMPLE = {
  qrels: `${PROJECT_ROOT}/data/samples/runs/wikiqa-test-clean.qrels`,
  run: `${PROJECT_ROOT}/data/samples/runs/wikiqa-test.run`,
  jacanaDev: `${PROJECT_ROOT}/data/samples/trecqa/jacana-xml/DEV.xml`,
};
