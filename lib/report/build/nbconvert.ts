/**
 * nbconvert, served. `python3 -m nbconvert` spends about 0.7 s of its 1.2 s importing itself,
 * and a report runs it three times a lesson (the page, the slides, the solutions page), so the
 * report keeps one or two `nbconvert_server.py` processes for the whole build
 * ({@link withNbconvert}) and sends them the command lines it would have run
 * ({@link nbconvert}): each request is a new `NbConvertApp` initialized from the same
 * arguments and config files, so the pages are the command line's, byte for byte
 * (tests/report/nbconvert_server_test.ts). Called outside `withNbconvert`, `nbconvert` starts a
 * process for the one request and ends it, as the command line would.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import { jupyterPython } from "./execute.ts";

/** The server script next to this module. */
export const NBCONVERT_SERVER = new URL("./nbconvert_server.py", import.meta.url).pathname;

/**
 * At most this many servers at once: a lesson's slides and solutions page are exported at the
 * same time, and two cores are what the kit is measured on.
 */
export const MAX_SERVERS = 2;

/** What one nbconvert command line did: whether it succeeded, and what it printed on stderr. */
export interface NbconvertResult {
  ok: boolean;
  stderr: string;
}

interface Server {
  child: Deno.ChildProcess;
  writer: WritableStreamDefaultWriter<Uint8Array>;
  answers: ReadableStreamDefaultReader<string>;
  /** The process's own stderr (not a request's: those come with the answers). */
  stderr: Promise<string>;
}

let holders = 0;
const idle: Server[] = [];
let running = 0;
/** Every server of this module's pool, idle or busy, until it ends. */
const servers = new Set<Server>();
const waiting: ((server: Server | undefined) => void)[] = [];

function startServer(): Server {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(jupyterPython(), {
      args: ["-Xfrozen_modules=off", NBCONVERT_SERVER],
      env: { PYDEVD_DISABLE_FILE_VALIDATION: "1" },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (e) {
    throw new KitError(`cannot start ${jupyterPython()}: ${(e as Error).message}`);
  }
  running++;
  const server = {
    child,
    writer: child.stdin.getWriter(),
    answers: child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(lines()).getReader(),
    stderr: new Response(child.stderr).text().catch(() => ""),
  };
  servers.add(server);
  child.status.finally(() => servers.delete(server));
  return server;
}

/**
 * The process ids of the servers this module runs (in this isolate: `deno test --parallel`
 * runs test files as isolates of one process, so a process's children are not all one pool's).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nbconvert, serverPids, withNbconvert } from "./nbconvert.ts";
 * await withNbconvert(async () => {
 *   await nbconvert(["--version"]);
 *   assert.equal(serverPids().length, 1);
 * });
 * assert.deepEqual(serverPids(), []);
 * ```
 */
export function serverPids(): number[] {
  return [...servers].map((s) => s.child.pid);
}

async function stopServer(server: Server): Promise<void> {
  running--;
  await server.writer.close().catch(() => {});
  // The rest of its answers (none: it is idle) read, so that the stream is released.
  while (!(await server.answers.read().catch(() => ({ done: true }))).done) { /* drained */ }
  await server.child.status;
  await server.stderr;
}

/**
 * `path` as nbconvert's notebook argument: nbconvert reads that argument as a glob pattern
 * (`glob.glob`), so `*`, `?` and `[` in a folder's name are escaped as Python's `glob.escape`
 * escapes them, and the path means itself.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notebookArgument } from "./nbconvert.ts";
 * assert.equal(notebookArgument("/tmp/br[a]*?/x.ipynb"), "/tmp/br[[]a][*][?]/x.ipynb");
 * assert.equal(notebookArgument("/tmp/plain/x.ipynb"), "/tmp/plain/x.ipynb");
 * ```
 */
export function notebookArgument(path: string): string {
  return path.replace(/[*?[]/g, (c) => `[${c}]`);
}

/** The current folder; none when it was deleted (the server then stays in its own). */
function currentFolder(): string | undefined {
  try {
    return Deno.cwd();
  } catch {
    return undefined;
  }
}

/** Splits a text stream into its lines (an answer is one line of JSON). */
function lines(): TransformStream<string, string> {
  let rest = "";
  return new TransformStream({
    transform(chunk, out) {
      const parts = (rest + chunk).split("\n");
      rest = parts.pop()!;
      for (const line of parts) out.enqueue(line);
    },
    flush(out) {
      if (rest) out.enqueue(rest);
    },
  });
}

/** A server for one request: an idle one, a new one, or the next to be released. */
function take(): Promise<Server> {
  const server = idle.pop();
  if (server) return Promise.resolve(server);
  if (running < MAX_SERVERS) return Promise.resolve(startServer());
  return new Promise<Server | undefined>((resolve) => waiting.push(resolve))
    .then((s) => s ?? take());
}

/** Hands `server` to the next request, keeps it for later ones, or stops it (no holder left). */
function release(server: Server | undefined): Promise<void> {
  const next = waiting.shift();
  if (next) return Promise.resolve(next(server));
  if (!server) return Promise.resolve();
  if (holders > 0) return Promise.resolve(void idle.push(server));
  return stopServer(server);
}

/**
 * Runs `fn` with nbconvert's servers kept between its calls of {@link nbconvert} (they start
 * on the first call, or at once with `warm`, and end when the last `withNbconvert` ends).
 * Nested and concurrent calls share them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nbconvert, withNbconvert } from "./nbconvert.ts";
 * const [a, b] = await withNbconvert(() =>
 *   Promise.all([nbconvert(["--version"]), nbconvert(["--no-such-flag"])])
 * );
 * assert.equal(a.ok, true);
 * assert.equal(b.ok, false);
 * assert.match(b.stderr, /no-such-flag/);
 * ```
 */
export async function withNbconvert<T>(
  fn: () => Promise<T>,
  options: { warm?: boolean } = {},
): Promise<T> {
  holders++;
  try {
    // A server started now imports nbconvert while `fn` does other work.
    if (options.warm && running === 0) idle.push(startServer());
    return await fn();
  } finally {
    if (--holders === 0) await Promise.all(idle.splice(0).map(stopServer));
  }
}

/**
 * Runs nbconvert's command line `args` (what follows `python3 -m nbconvert`) in the current
 * folder: whether it succeeded, and its stderr. Throws a `KitError` when Python cannot start
 * or its process ends mid-request (killed).
 */
export function nbconvert(args: readonly string[]): Promise<NbconvertResult> {
  return withNbconvert(async () => {
    const server = await take();
    let answer: NbconvertResult;
    try {
      const request = JSON.stringify({ args, cwd: currentFolder() }) + "\n";
      await server.writer.write(new TextEncoder().encode(request));
      const line = await server.answers.read();
      if (line.done) throw new Error("no answer");
      answer = JSON.parse(line.value) as NbconvertResult;
    } catch {
      // Its process ended (or garbled its answer): report why, and start another next time.
      running--;
      try {
        server.child.kill("SIGKILL");
      } catch { /* it has ended */ }
      await server.answers.cancel().catch(() => {});
      await server.writer.abort().catch(() => {});
      const status = await server.child.status;
      const why = (await server.stderr).trim();
      await release(undefined);
      const how = status.signal ? `killed by ${status.signal}` : `exit ${status.code}`;
      throw new KitError(`nbconvert's process ended (${how})${why ? `: ${why}` : ""}`);
    }
    await release(server);
    return answer;
  });
}
