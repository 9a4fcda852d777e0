/**
 * Inputs that are not regular files, or too large: what an outside tester gives the commands
 * where they read a file (a model folder's files, `--init-model`, run and qrels files, corpus
 * files under `--dir`): a folder, a FIFO without a writer, a device (`/dev/zero`), a dangling
 * link, an unreadable file, a file over its kind's limit. Each case runs the kit as a real
 * process in a fresh folder and asserts a one-line message with exit status 2 and no stack
 * trace (or, for a FIFO given as a run, that it is read). `input_files_test.ts` runs them and
 * checks `docs/bad-input.md`, whose tables "whole-file limits" (from `WHOLE_FILE_LIMITS`) and
 * "input files" (from what these cases did) `deno run --allow-all tests/faults/update_doc.ts`
 * rewrites.
 *
 * @module
 */
import { assert } from "../assert.ts";
import { PROJECT_ROOT } from "../../lib/data/paths.ts";
import {
  formatLimit,
  tooLargeProblem,
  WHOLE_FILE_LIMITS,
  type WholeFileKind,
} from "../../lib/io/whole_file.ts";

const MAIN = `${PROJECT_ROOT}/lib/cli/main.ts`;
const FIXTURE = `${PROJECT_ROOT}/tests/fixtures/tiny-model/cross-encoder`;
const SAMPLE_QRELS = `${PROJECT_ROOT}/data/samples/runs/wikiqa-test-clean.qrels`;
const SAMPLE_RUN = `${PROJECT_ROOT}/data/samples/runs/wikiqa-test.run`;

/** The most a refused `score` may take in memory (a read of `/dev/zero` passes it in seconds). */
export const PEAK_RSS_LIMIT_KB = 512 * 1024;
/** The most any case may take before its process is killed (it should exit in about a second). */
const DEADLINE_MS = 30_000;

/** One finished process. */
interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** Killed at the deadline (blocked on a FIFO, or reading without end). */
  killed: boolean;
}

/** Whether reads can be made to fail for lack of permission: not root, or root with setpriv. */
const CAN_DROP = Deno.uid() !== 0 ||
  await new Deno.Command("setpriv", { args: ["--version"], stdout: "null", stderr: "null" })
    .output().then((o) => o.success, () => false);

/**
 * Runs the kit in `dir`; with `dropCaps`, as root without the capabilities that let root read
 * any file (so that `chmod 000` applies to it as to anyone).
 */
async function kit(
  dir: string,
  args: string[],
  options: { env?: Record<string, string>; dropCaps?: boolean; stdin?: "null" } = {},
): Promise<Run> {
  const deno = [Deno.execPath(), "run", "-A", MAIN, ...args];
  const [cmd, ...rest] = options.dropCaps && Deno.uid() === 0
    ? ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--", ...deno]
    : deno;
  const child = new Deno.Command(cmd, {
    args: rest,
    cwd: dir,
    env: { NO_COLOR: "1", INIT_CWD: dir, ...options.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill("SIGKILL");
  }, DEADLINE_MS);
  const out = await child.output().finally(() => clearTimeout(timer));
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr), killed };
}

/** The one `error:` line of a refused command, checked: exit 2, no stack trace, names `file`. */
function refused(r: Run, file: string, says: RegExp): string {
  assert(!r.killed, `still running after ${DEADLINE_MS} ms (blocked, or reading without end)`);
  assert(!/^\s+at |Uncaught/m.test(r.stderr), `a stack trace instead of a message:\n${r.stderr}`);
  assert(r.code === 2, `expected exit 2, got ${r.code}:\n${r.stderr}`);
  const lines = r.stderr.split("\n").filter((l) => l.startsWith("error: "));
  assert(lines.length === 1, `expected one error line, got:\n${r.stderr}`);
  assert(lines[0].startsWith(`error: ${file}: `), `'${lines[0]}' does not name ${file}`);
  assert(says.test(lines[0]), `'${lines[0]}' does not match ${says}`);
  return `exit 2: \`${lines[0]}\``;
}

async function mkfifo(path: string): Promise<void> {
  const o = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert(o.success, `mkfifo ${path} failed`);
}

/** What stands in for a file: the kinds of entry a tester tries. */
type Stand = "folder" | "fifo" | "zero" | "dangling" | "unreadable" | "too large";

/** Puts `stand` at `path` (`real`: the good file's bytes, for `unreadable`). */
async function place(path: string, stand: Stand, kind: WholeFileKind, real?: string) {
  await Deno.remove(path, { recursive: true }).catch(() => {});
  if (stand === "folder") await Deno.mkdir(path);
  else if (stand === "fifo") await mkfifo(path);
  else if (stand === "zero") await Deno.symlink("/dev/zero", path);
  else if (stand === "dangling") await Deno.symlink("gone", path);
  else if (stand === "unreadable") {
    await Deno.copyFile(real!, path);
    await Deno.chmod(path, 0o000);
  } else {
    await Deno.writeFile(path, new Uint8Array());
    await Deno.truncate(path, WHOLE_FILE_LIMITS[kind].bytes + 1); // sparse: no disk used
  }
}

/** What each stand is refused with. */
const SAYS: Record<Stand, RegExp> = {
  folder: /: is a folder, not a regular file; expected /,
  fifo: /: is a FIFO \(a named pipe\), not a regular file; expected /,
  zero: /: is a character device, not a regular file; expected /,
  dangling: /: a dangling link \(to 'gone', which does not exist\)$/,
  unreadable: /: unreadable: permission denied$/,
  "too large": /: \d+ bytes, larger than the .* limit for /,
};

/** How each stand is described in the doc. */
const TRIED: Record<Stand, string> = {
  folder: "a folder",
  fifo: "a FIFO with no writer",
  zero: "a link to `/dev/zero`",
  dangling: "a dangling link",
  unreadable: "unreadable (`chmod 000`; as root, run without `CAP_DAC_OVERRIDE`)",
  "too large": "one byte over its limit (a sparse file)",
};

/** A copy of the tiny cross-encoder in `dir/m`, its weights as `m/model.onnx`. */
export async function modelFolder(dir: string): Promise<string> {
  const m = `${dir}/m`;
  await Deno.mkdir(m);
  for (const f of ["config.json", "tokenizer.json", "tokenizer_config.json"]) {
    await Deno.copyFile(`${FIXTURE}/${f}`, `${m}/${f}`);
  }
  await Deno.copyFile(`${FIXTURE}/onnx/model.onnx`, `${m}/model.onnx`);
  return m;
}

const SCORE = (more: string[] = []) => [
  ...["score", "--model", "m", "--backend", "cpu", "--dataset", "wikiqa", "--split", "test"],
  ...["--dir", "samples", "--no-cache", "--out", "r.run", ...more],
];
const INIT = (file: string) => [
  ...["score", "--model", "ltr", "--init-model", file, "--epochs", "0", "--dataset", "wikiqa"],
  ...["--split", "test", "--dir", "samples", "--no-cache", "--out", "r.run"],
];

/** One case: what was tried (Markdown), and a run that asserts and returns what happened. */
export interface InputCase {
  tried: string;
  /** Only where reads can be made to fail for lack of permission. */
  needsDrop?: boolean;
  run(dir: string): Promise<string>;
}

/** A model folder's file replaced by `stand`. */
function modelCase(file: string, stand: Stand, kind: WholeFileKind, setup?: string): InputCase {
  return {
    tried: `\`score --model DIR\`, DIR/${file} ${TRIED[stand]}${setup ? ` (${setup})` : ""}`,
    needsDrop: stand === "unreadable",
    async run(dir) {
      const m = await modelFolder(dir);
      if (file === "vocab.txt") await Deno.remove(`${m}/tokenizer.json`);
      await place(`${m}/${file}`, stand, kind, `${m}/config.json`);
      const r = await kit(dir, SCORE(), { dropCaps: stand === "unreadable" });
      return refused(r, `m/${file}`, SAYS[stand]);
    },
  };
}

/** The tester's case: the weights a link to `/dev/zero`, with the process's peak memory. */
const ZERO_WEIGHTS: InputCase = {
  tried: "`score --model DIR`, DIR/model.onnx a link to `/dev/zero` (the process's peak memory " +
    "measured)",
  async run(dir) {
    const m = await modelFolder(dir);
    await place(`${m}/model.onnx`, "zero", "weights");
    const r = await kit(dir, SCORE(), { env: { QA_KIT_PEAK_RSS: "1" } });
    const said = refused(r, "m/model.onnx", SAYS.zero);
    const peak = Number(/peak-rss-kb: (\d+)/.exec(r.stderr)?.[1]);
    assert(peak > 0, `no peak-rss-kb line:\n${r.stderr}`);
    assert(peak < PEAK_RSS_LIMIT_KB, `peak memory ${peak} kB, over ${PEAK_RSS_LIMIT_KB} kB`);
    return `${said}; nothing is read (peak memory under ${PEAK_RSS_LIMIT_KB / 1024} MiB)`;
  },
};

/** `--init-model` given `stand`. */
function initCase(stand: Stand): InputCase {
  return {
    tried: `\`score --model ltr --init-model FILE\`, FILE ${TRIED[stand]}`,
    async run(dir) {
      const file = stand === "zero" ? "/dev/zero" : "init.json";
      if (stand !== "zero") await place(`${dir}/${file}`, stand, "ranker");
      return refused(await kit(dir, INIT(file)), file, SAYS[stand]);
    },
  };
}

/** `eval trec QRELS RUN` with one side replaced by `stand`. */
function evalCase(side: "run" | "qrels", stand: Stand): InputCase {
  return {
    tried: `\`eval trec QRELS RUN\`, the ${side} file ${TRIED[stand]}`,
    needsDrop: stand === "unreadable",
    async run(dir) {
      const file = side === "run" ? "r.run" : "q.qrels";
      await place(`${dir}/${file}`, stand, "qrels", side === "run" ? SAMPLE_RUN : SAMPLE_QRELS);
      const args = side === "run" ? [SAMPLE_QRELS, file] : [file, SAMPLE_RUN];
      const r = await kit(dir, ["eval", "trec", ...args], { dropCaps: stand === "unreadable" });
      const says = stand === "folder" ? /: is a folder, expected a file$/ : SAYS[stand];
      return refused(r, file, says);
    },
  };
}

/** A run given as a FIFO that a writer fills: read as a stream, as `<(...)` needs. */
const FIFO_RUN: InputCase = {
  tried: "`eval trec QRELS FIFO`, a writer attached (as `<(zcat run.gz)` gives)",
  async run(dir) {
    await mkfifo(`${dir}/r.run`);
    const writer = new Deno.Command("bash", {
      args: ["-c", `cat '${SAMPLE_RUN}' > r.run`],
      cwd: dir,
    }).spawn();
    const r = await kit(dir, ["eval", "trec", SAMPLE_QRELS, "r.run"]);
    await writer.status;
    const direct = await kit(dir, ["eval", "trec", SAMPLE_QRELS, SAMPLE_RUN]);
    assert(r.code === 0 && !r.killed, `exit ${r.code}:\n${r.stderr}`);
    assert(r.stdout === direct.stdout, "the FIFO's result differs from the file's");
    return "read, with the file's result: a run or qrels file is read as a stream (a FIFO " +
      "without a writer waits for one, as `cat` does)";
  },
};

/** A corpus file under `--dir` replaced by `stand`. */
function corpusCase(stand: Stand, options: { qrcd?: boolean; installed?: boolean } = {}) {
  const rel = options.qrcd ? "qrcd/qrcd_v1.1_dev.jsonl" : "wikiqa/WikiQA-test.tsv";
  const command = options.qrcd
    ? ["data", "stats", "qrcd", "--split", "dev", "--dir", "c"]
    : ["data", "qrels", "wikiqa", "--split", "test", "--dir", "c"];
  return {
    tried: `\`${command.slice(0, 3).join(" ")} --dir DIR\`, DIR/${rel} ${TRIED[stand]}` +
      (options.installed ? " in an installed corpus (its install marker lists the file)" : ""),
    async run(dir: string) {
      await Deno.mkdir(`${dir}/c/${rel.split("/")[0]}`, { recursive: true });
      await place(`${dir}/c/${rel}`, stand, "corpus");
      if (options.installed) {
        const stamp = { sha256: "0".repeat(64), size: 1, mtimeMs: 0, ctimeMs: 0 };
        await Deno.writeTextFile(
          `${dir}/c/wikiqa/.installed.json`,
          JSON.stringify({ dataset: "wikiqa", source: "upstream", files: { [rel]: stamp } }),
        );
      }
      const r = await kit(dir, command);
      const says = options.installed
        ? /: is a FIFO \(a named pipe\), not a regular file: it belongs to the installed wikiqa corpus; restore it/
        : SAYS[stand];
      return refused(r, `c/${rel}`, says);
    },
  };
}

/** Every case, in doc order. */
export const INPUT_CASES: InputCase[] = [
  ZERO_WEIGHTS,
  modelCase("model.onnx", "fifo", "weights"),
  modelCase("model.onnx", "folder", "weights"),
  modelCase("model.onnx", "dangling", "weights"),
  modelCase("model.onnx", "unreadable", "weights"),
  modelCase("model.onnx", "too large", "weights"),
  modelCase("config.json", "fifo", "config"),
  modelCase("tokenizer.json", "zero", "tokenizer"),
  modelCase("vocab.txt", "fifo", "tokenizer", "no tokenizer.json"),
  initCase("zero"),
  initCase("fifo"),
  initCase("folder"),
  initCase("dangling"),
  evalCase("run", "folder"),
  evalCase("qrels", "dangling"),
  evalCase("run", "unreadable"),
  FIFO_RUN,
  corpusCase("fifo"),
  corpusCase("zero"),
  corpusCase("dangling"),
  corpusCase("folder", { qrcd: true }),
  corpusCase("fifo", { installed: true }),
];

/** What running a case gave. */
export type CaseOutcome =
  | { kind: "ok"; doc: string }
  | { kind: "failed"; error: unknown }
  | { kind: "skipped"; why: string };

/** Runs every case (`limit` at a time), each in a fresh folder; outcomes in case order. */
export async function runInputCases(limit = 3): Promise<CaseOutcome[]> {
  const outcomes: CaseOutcome[] = new Array(INPUT_CASES.length);
  let next = 0;
  const worker = async () => {
    while (next < INPUT_CASES.length) {
      const i = next++;
      const c = INPUT_CASES[i];
      if (c.needsDrop && !CAN_DROP) {
        outcomes[i] = {
          kind: "skipped",
          why: "root without setpriv: chmod 000 does not stop root",
        };
        continue;
      }
      const dir = await Deno.makeTempDir({ prefix: "kit-input-" });
      try {
        outcomes[i] = { kind: "ok", doc: await c.run(dir) };
      } catch (error) {
        outcomes[i] = { kind: "failed", error };
      } finally {
        await Deno.chmod(dir, 0o755).catch(() => {});
        await Deno.remove(dir, { recursive: true }).catch(() => {});
      }
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return outcomes;
}

function cell(s: string): string {
  return s.replace(/\|/g, "\\|").replace(/\n/g, " ");
}

/** The doc's table of the cases and what the kit did. */
export function renderInputCases(outcomes: CaseOutcome[]): string {
  const rows = INPUT_CASES.map((c, i) => {
    const o = outcomes[i];
    const what = o.kind === "ok"
      ? o.doc
      : o.kind === "skipped"
      ? `not run here (${o.why})`
      : `**FAILED**: ${String((o.error as Error)?.message ?? o.error).split("\n")[0]}`;
    return `| ${cell(c.tried)} | ${cell(what)} |`;
  });
  return ["| tried | what the kit does |", "|---|---|", ...rows].join("\n") + "\n";
}

/** The doc's table of the kinds of file read whole, their limits and the message past them. */
export function renderLimits(): string {
  const rows = Object.entries(WHOLE_FILE_LIMITS).map(([kind, l]) =>
    `| ${cell(l.what)} | ${cell(l.files)} | ${formatLimit(l.bytes)} | \`FILE: ${
      cell(tooLargeProblem(kind as WholeFileKind, l.bytes + 1))
    }\` |`
  );
  return [
    "| file read whole | where | limit | a file one byte over |",
    "|---|---|---:|---|",
    ...rows,
  ].join("\n") + "\n";
}

/** The generated parts of `docs/bad-input.md` this module owns. */
export function inputDocParts(outcomes: CaseOutcome[]): Record<string, string> {
  return { "whole-file limits": renderLimits(), "input files": renderInputCases(outcomes) };
}
