/**
 * The kit's command line: `deno task <data|eval|convert|score|report|bench> ...`.
 * Each top-level command lives in its own module and registers its subcommands in
 * {@link COMMANDS}; this file only dispatches and turns `KitError`s into a one-line
 * message and exit status 2, and a closed standard output (`| head -1`, also through
 * `--out /dev/stdout` or a FIFO) into a quiet exit 0.
 *
 * Paths: every relative path a user gives (flags, positionals, `--out`) means what it means
 * in the folder the command was run from. `deno task` runs in the project root and passes
 * that folder in `INIT_CWD` (`./kit` passes its caller's); the process moves there before
 * any command runs ({@link callerDirectory}), so paths and the messages naming them stay as
 * the user typed them. The kit finds its own files from `import.meta.url`, never from the
 * working folder.
 *
 * @module
 */
import { PROJECT_ROOT } from "../data/root.ts";
import { KitError } from "../errors.ts";
import { type Command, helpText, usageLine } from "./command.ts";
import { asksForHelp, UsageError } from "./grammar.ts";
import { ReaderClosed } from "../io/output.ts";
import { guardConsoleLog, stdoutError, StdoutFailure } from "./stdout.ts";

/** A command group (`eval trec`) or a command taking flags directly (`score --model ...`). */
export type CommandEntry = Record<string, Command> | Command;

/**
 * Imports one of the command modules beside this file. The specifier is computed, not
 * written: Deno prepares, at start-up, the module graph of every dynamic import written as
 * a string (npm packages included), even one never run. Written out, the table below made
 * every command, `eval trec` too, pay for `report`'s and `score`'s graphs (playwright-core,
 * onnxruntime-web): 0.13 s and 22 MB of start-up measured for `report` alone.
 */
function loadModule<T>(file: string): Promise<T> {
  return import(new URL(file, import.meta.url).href);
}

/**
 * Every command, loaded on demand: `eval trec` must not pay for loading onnxruntime-web or
 * playwright-core (about 0.4 s and 50 MB), which only `score`, `bench` and `report` need.
 * Adding a command touches one place.
 */
export const COMMANDS: Record<string, () => Promise<CommandEntry>> = {
  data: async () => (await loadModule<typeof import("./data.ts")>("./data.ts")).dataCommands,
  eval: async () =>
    await (await loadModule<typeof import("./eval.ts")>("./eval.ts")).evalCommands(),
  convert: async () =>
    (await loadModule<typeof import("./convert.ts")>("./convert.ts")).convertCommands,
  score: async () => (await loadModule<typeof import("./score.ts")>("./score.ts")).scoreCommand,
  fuse: async () => (await loadModule<typeof import("./fuse.ts")>("./fuse.ts")).fuseCommand,
  bench: async () => (await loadModule<typeof import("./bench.ts")>("./bench.ts")).benchCommands,
  report: async () => (await loadModule<typeof import("./report.ts")>("./report.ts")).reportCommand,
};

/** Every command, loaded (for the usage text and tests). */
export async function loadCommands(): Promise<Record<string, CommandEntry>> {
  const out: Record<string, CommandEntry> = {};
  for (const [name, load] of Object.entries(COMMANDS)) out[name] = await load();
  return out;
}

/**
 * Every command with its path as typed after `deno task` (`eval trec`, `score`), in the
 * order of the command list.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commandList } from "./main.ts";
 * const paths = (await commandList()).map(([path]) => path);
 * assert(paths.includes("eval trec") && paths.includes("score"));
 * ```
 */
export async function commandList(): Promise<[string, Command][]> {
  const out: [string, Command][] = [];
  for (const [group, subs] of Object.entries(await loadCommands())) {
    if (isCommand(subs)) out.push([group, subs]);
    else for (const [name, cmd] of Object.entries(subs)) out.push([`${group} ${name}`, cmd]);
  }
  return out;
}

/** The command list; with `group`, only that group's subcommands. */
async function usage(group?: string): Promise<string> {
  const lines = [`usage: deno task ${group ?? "<command>"} <subcommand> [options]`, ""];
  for (const [path, cmd] of await commandList()) {
    if (group === undefined || path.startsWith(`${group} `)) {
      lines.push(`  ${path}`.padEnd(22) + cmd.summary);
    }
  }
  return lines.join("\n");
}

/** Runs the command line `argv`; returns the exit status. */
export async function main(argv: string[]): Promise<number> {
  // Standard output that fails (a full disk, a closed pipe) is one line or a quiet exit, for
  // the help texts as for a command's output.
  const restore = guardConsoleLog();
  try {
    return await dispatch(argv);
  } catch (caught) {
    if (!(caught instanceof StdoutFailure)) throw caught;
    const e = await stdoutError(caught.failure);
    if (e instanceof ReaderClosed) return 0;
    if (!(e instanceof KitError)) throw e;
    console.error(`error: ${e.message}`);
    return 2;
  } finally {
    restore();
  }
}

/** {@link main} with its standard output guarded. */
async function dispatch(argv: string[]): Promise<number> {
  const [group, ...afterGroup] = argv;
  if (group === "--help" || group === "-h") {
    console.log(await usage());
    return 0;
  }
  if (!group) {
    // (A mistake: the usage goes with the other messages, to standard error.)
    console.error(await usage());
    return 2;
  }
  // `eval trec` alone, without its group's other modules (see eval_trec.ts).
  const load: (() => Promise<CommandEntry>) | undefined =
    group === "eval" && afterGroup[0] === "trec"
      ? async () => ({
        trec: (await loadModule<typeof import("./eval_trec.ts")>("./eval_trec.ts")).trecCommand,
      })
      : Object.hasOwn(COMMANDS, group)
      ? COMMANDS[group]
      : undefined;
  if (!load) {
    console.error(`error: unknown command '${group}'\n${await usage()}`);
    return 2;
  }
  const subs = await load();
  const direct = isCommand(subs);
  const sub = direct ? "" : afterGroup[0];
  const rest = direct ? afterGroup : afterGroup.slice(1);
  if (!direct && (sub === "-h" || sub === "--help")) {
    console.log(await usage(group));
    return 0;
  }
  const cmd = direct ? subs : sub && Object.hasOwn(subs, sub) ? subs[sub] : undefined;
  if (!cmd) {
    console.error(
      `${
        sub ? `error: unknown ${group} subcommand '${sub}'` : `error: missing ${group} subcommand`
      }\n${await usage(group)}`,
    );
    return 2;
  }
  const path = direct ? group : `${group} ${sub}`;
  if (asksForHelp(rest, cmd.options)) {
    console.log(helpText(path, cmd));
    return 0;
  }
  try {
    return (await cmd.run(rest)) ?? 0;
  } catch (caught) {
    const e = caught instanceof StdoutFailure ? await stdoutError(caught.failure) : caught;
    if (e instanceof KitError) {
      console.error(`error: ${e.message}`);
      if (e instanceof UsageError) console.error(`${usageLine(path, cmd)} (-h for help)`);
      return 2;
    }
    if (e instanceof ReaderClosed) return 0;
    throw e;
  }
}

function realPath(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}

/**
 * The folder the user ran the command from: `initCwd` (`INIT_CWD`, set by `deno task` to
 * its caller's folder) when the process runs in the project root, as `deno task` runs it;
 * otherwise the working folder itself (a process started directly, e.g. `deno run
 * lib/cli/main.ts`, is already where its caller is, and an `INIT_CWD` it inherited from an
 * outer task is stale).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { callerDirectory } from "./main.ts";
 * import { PROJECT_ROOT } from "../data/root.ts";
 * assert.equal(callerDirectory("/tmp", PROJECT_ROOT), "/tmp");
 * assert.equal(callerDirectory("/tmp", "/somewhere/else"), "/somewhere/else");
 * assert.equal(callerDirectory(undefined, PROJECT_ROOT), PROJECT_ROOT);
 * ```
 */
export function callerDirectory(
  initCwd: string | undefined = Deno.env.get("INIT_CWD"),
  cwd: string = Deno.cwd(),
): string {
  if (!initCwd || realPath(cwd) !== realPath(PROJECT_ROOT)) return cwd;
  return initCwd;
}

/** Moves the process to {@link callerDirectory}; a caller's folder that is gone is a warning. */
function enterCallerDirectory(): void {
  const dir = callerDirectory();
  if (dir === Deno.cwd()) return;
  try {
    Deno.chdir(dir);
  } catch (e) {
    console.error(
      `warning: cannot work in the folder the command was run from, ${dir} ` +
        `(${(e as Error).message}); relative paths are taken from ${Deno.cwd()}`,
    );
  }
}

function isCommand(x: CommandEntry): x is Command {
  return typeof (x as Command).run === "function";
}

if (import.meta.main) {
  enterCallerDirectory();
  Deno.exitCode = await main(Deno.args);
  if (Deno.env.get("QA_KIT_PEAK_RSS") === "1") {
    // For `bench eval`: the peak resident memory of this process, read just before exit.
    const m = /VmHWM:\s*(\d+)/.exec(Deno.readTextFileSync("/proc/self/status"));
    if (m) console.error(`peak-rss-kb: ${m[1]}`);
  }
}
