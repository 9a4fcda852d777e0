/**
 * Starting the classic Jupyter Notebook server on the kit's notebooks, safely: bound to
 * 127.0.0.1 only, a random token required on every request, `--allow-root` added when
 * running as root (Notebook refuses to start as root otherwise), no browser opened (the
 * URL with its token is printed instead). `./kit notebook` runs this; the live-Notebook
 * test starts the same server on a free port.
 *
 * Running notebooks live must not dirty the checkout (autosave writes every output into the
 * file): `./kit notebook` serves a working copy, `notebooks-live/` (git-ignored, beside
 * `notebooks/` so `../lib/mod.ts` still resolves), made from the tracked notebooks. A copy the
 * user already has is never overwritten; when its tracked notebook changed since it was made,
 * a line says so (delete the copy to start again from the new one).
 *
 * ```sh
 * ./kit notebook [--port N] [--data sample|real] [--dir DIR]
 * ```
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import { PROJECT_ROOT } from "../../data/paths.ts";
import { writeFileAtomic } from "../../io/atomic.ts";
import { resolvePath } from "../../io/path.ts";
import { callerDirectory } from "../../cli/main.ts";
import { sha256Hex } from "../../data/fetch.ts";

/** Options of {@link notebookServerArgs} and {@link startNotebookServer}. */
export interface NotebookServerOptions {
  /** The folder the server shows (default: the project's `notebooks/`). */
  dir?: string;
  /** TCP port (default 8888; 0 picks a free one). */
  port?: number;
  /** The access token (default: 24 random bytes, hex). */
  token?: string;
  /** Add `--allow-root` (default: when this process runs as root). */
  allowRoot?: boolean;
  /**
   * Keep notebook signatures (trust) in memory instead of the user's signature database
   * (for tests; default false).
   */
  memoryTrust?: boolean;
}

/**
 * A random token: 24 bytes as hex.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { randomToken } from "./server.ts";
 * assert.match(randomToken(), /^[0-9a-f]{48}$/);
 * ```
 */
export function randomToken(): string {
  return [...crypto.getRandomValues(new Uint8Array(24))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Whether this process runs as root (POSIX; false elsewhere).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isRoot } from "./server.ts";
 * assert.equal(typeof isRoot(), "boolean");
 * ```
 */
export function isRoot(): boolean {
  try {
    return Deno.uid() === 0;
  } catch {
    return false;
  }
}

/**
 * A free TCP port on 127.0.0.1 (bound and released at once).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { freePort } from "./server.ts";
 * const port = freePort();
 * assert(port > 0 && port < 65536);
 * ```
 */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/**
 * The `jupyter notebook` arguments for a server on 127.0.0.1 with a token.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notebookServerArgs } from "./server.ts";
 * const args = notebookServerArgs({ dir: "/nb", port: 9000, token: "t", allowRoot: true });
 * assert(args.includes("--ip=127.0.0.1") && args.includes("--port=9000"));
 * assert(args.includes("--NotebookApp.token=t") && args.includes("--allow-root"));
 * ```
 */
export function notebookServerArgs(options: NotebookServerOptions & { token: string }): string[] {
  const port = options.port ?? 8888;
  return [
    "notebook",
    "--no-browser",
    "--ip=127.0.0.1",
    `--port=${port}`,
    // With a fixed port, fail instead of silently moving to another one.
    ...(port === 0 ? [] : ["--NotebookApp.port_retries=0"]),
    `--NotebookApp.token=${options.token}`,
    `--notebook-dir=${options.dir ?? `${PROJECT_ROOT}/notebooks`}`,
    ...(options.memoryTrust ? ["--NotebookNotary.db_file=:memory:"] : []),
    ...((options.allowRoot ?? isRoot()) ? ["--allow-root"] : []),
  ];
}

/** A running Notebook server. */
export interface NotebookServer {
  /** Base URL, e.g. `http://127.0.0.1:8888/`. */
  url: string;
  token: string;
  /** Everything the server wrote to stderr so far (its log). */
  log(): string;
  /** Stops the server and waits for it to exit. */
  close(): Promise<void>;
}

/**
 * Starts `jupyter notebook` (Debian's `jupyter-notebook`) and resolves once it answers
 * HTTP requests. The kernels it starts inherit `env` (e.g. `KIT_DATA`).
 * tests/report/live_notebook_test.ts uses it.
 *
 * @example
 * ```ts ignore
 * import { startNotebookServer } from "./server.ts";
 * const server = await startNotebookServer({ port: 0, env: { KIT_DATA: "sample" } });
 * console.log(`${server.url}?token=${server.token}`);
 * await server.close();
 * ```
 */
export async function startNotebookServer(
  options: NotebookServerOptions & { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<NotebookServer> {
  const token = options.token ?? randomToken();
  const port = options.port === undefined || options.port === 0 ? freePort() : options.port;
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("jupyter", {
      args: notebookServerArgs({ ...options, port, token }),
      env: { NO_COLOR: "1", PYDEVD_DISABLE_FILE_VALIDATION: "1", ...options.env },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (e) {
    throw new KitError(
      `cannot start 'jupyter notebook' (Debian package jupyter-notebook): ${(e as Error).message}`,
    );
  }
  let log = "";
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) log += chunk;
  };
  const drained = Promise.all([drain(child.stdout), drain(child.stderr)]);
  const url = `http://127.0.0.1:${port}/`;
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    await child.status;
    await drained;
  };
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let exited = false;
  child.status.then(() => exited = true);
  while (true) {
    if (exited) {
      await drained;
      throw new KitError(`jupyter notebook exited while starting:\n${log}`);
    }
    try {
      const r = await fetch(`${url}api/status?token=${token}`);
      await r.body?.cancel();
      if (r.ok) break;
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) {
      await stop();
      throw new KitError(`jupyter notebook did not answer on ${url}:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, token, log: () => log, close: stop };
}

/** The working copy `./kit notebook` serves (git-ignored). */
export const LIVE_DIR = `${PROJECT_ROOT}/notebooks-live`;

/**
 * Makes `dest` a working copy of the notebooks (`NN-name.ipynb`) of `src`: each notebook
 * missing from `dest` is copied (recording the source's sha256 in its metadata,
 * `kit.copied_from_sha256`); one already there is left as it is (it holds the user's work),
 * with a note when the tracked notebook changed since the copy was made. Returns the notes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { workingCopy } from "./server.ts";
 * const src = await Deno.makeTempDir();
 * const dest = `${await Deno.makeTempDir()}/live`;
 * await Deno.writeTextFile(`${src}/01-a.ipynb`, JSON.stringify({ cells: [], metadata: {} }));
 * assert.deepEqual(await workingCopy(src, dest), []);
 * const copy = JSON.parse(await Deno.readTextFile(`${dest}/01-a.ipynb`));
 * assert.match(copy.metadata.kit.copied_from_sha256, /^[0-9a-f]{64}$/);
 * await Deno.writeTextFile(`${src}/01-a.ipynb`, JSON.stringify({ cells: [1], metadata: {} }));
 * const notes = await workingCopy(src, dest);
 * assert.match(notes[0], /01-a\.ipynb: notebooks\/01-a\.ipynb changed since this copy was made/);
 * ```
 */
export async function workingCopy(src: string, dest: string): Promise<string[]> {
  await Deno.mkdir(dest, { recursive: true });
  const notes: string[] = [];
  const names = [...Deno.readDirSync(src)].filter((e) =>
    e.isFile && /^\d\d-.+\.ipynb$/.test(e.name)
  )
    .map((e) => e.name).sort();
  for (const name of names) {
    const bytes = await Deno.readFile(`${src}/${name}`);
    const sha = await sha256Hex(bytes);
    const target = `${dest}/${name}`;
    let existing: string | undefined;
    try {
      existing = await Deno.readTextFile(target);
    } catch { /* not copied yet */ }
    if (existing === undefined) {
      const nb = JSON.parse(new TextDecoder().decode(bytes));
      nb.metadata = { ...nb.metadata, kit: { ...nb.metadata?.kit, copied_from_sha256: sha } };
      await writeFileAtomic(target, JSON.stringify(nb, null, 1) + "\n");
      continue;
    }
    let from: unknown;
    try {
      from = JSON.parse(existing)?.metadata?.kit?.copied_from_sha256;
    } catch { /* the user's file, whatever it holds */ }
    if (from !== sha) {
      notes.push(
        `note: ${target}: notebooks/${name} changed since this copy was made; the copy is kept ` +
          "(delete it to start from the new one)",
      );
    }
  }
  return notes;
}

/** `./kit notebook`: parses its flags and runs the server in the foreground. */
async function main(args: string[]): Promise<number> {
  const options: NotebookServerOptions = {};
  const env: Record<string, string> = {};
  let port: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].split(/=(.*)/s, 2);
    const value = () => inline ?? args[++i];
    if (flag === "--port") port = value();
    // Relative to the caller's folder, as every path of the kit (`./kit` sets INIT_CWD).
    else if (flag === "--dir") options.dir = resolvePath(value(), callerDirectory());
    else if (flag === "--data") env.KIT_DATA = value();
    else if (flag === "-h" || flag === "--help") {
      console.log("usage: ./kit notebook [--port N] [--data sample|real] [--dir DIR]");
      return 0;
    } else throw new KitError(`unknown option '${args[i]}' (see ./kit notebook --help)`);
  }
  if (port !== undefined) {
    if (!/^\d+$/.test(port) || Number(port) > 65535) {
      throw new KitError(`--port must be a port number (0-65535), got '${port}'`);
    }
    options.port = Number(port);
  }
  if (env.KIT_DATA && env.KIT_DATA !== "sample" && env.KIT_DATA !== "real") {
    throw new KitError(`--data must be 'sample' or 'real', not '${env.KIT_DATA}'`);
  }
  if (options.port === 0) options.port = freePort();
  if (options.dir === undefined) {
    // A working copy: the tracked notebooks stay clean (outputs, autosave, checkpoints).
    for (const note of await workingCopy(`${PROJECT_ROOT}/notebooks`, LIVE_DIR)) {
      console.error(note);
    }
    options.dir = LIVE_DIR;
    console.error(`serving ${LIVE_DIR}/ (a working copy; notebooks/ is not changed)`);
  }
  const token = randomToken();
  const child = new Deno.Command("jupyter", {
    args: notebookServerArgs({ ...options, token }),
    env: { NO_COLOR: "1", PYDEVD_DISABLE_FILE_VALIDATION: "1", ...env },
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  console.error(
    `Notebook on http://127.0.0.1:${options.port ?? 8888}/?token=${token} ` +
      `(KIT_DATA=${env.KIT_DATA ?? Deno.env.get("KIT_DATA") ?? "sample"}; Ctrl-C stops it)`,
  );
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => {
      try {
        child.kill(signal);
      } catch { /* gone */ }
    });
  }
  return (await child.status).code;
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (e) {
    console.error(e instanceof KitError ? `error: ${e.message}` : e);
    Deno.exit(2);
  }
}
