/**
 * Where an output path leads, and whether it can be written, decided once for every writer
 * (`writeFileAtomic`) and every command's early check (`checkOutput`, before the work starts).
 *
 * What an output path may be (the rules of a shell's `>` under `set -o noclobber`, plus
 * atomic replacement):
 * - a new file: written to a temporary file, then moved into place;
 * - an existing regular file: replaced the same way, only with `force` (`--force`);
 * - a symbolic link: followed; the file it points to is what is written or replaced (the link
 *   stays a link), a dangling link creates its target;
 * - a character device (`/dev/null`, a terminal), a FIFO or an open descriptor (`/dev/stdout`,
 *   `/dev/fd/N`, process substitution): written through, as `>` does, without `--force`,
 *   since nothing is replaced; the special file itself is never replaced, not even with
 *   `force`;
 * - a folder, a block device (a disk) or a socket: refused.
 *
 * Every failure is a one-line `KitError` naming the path as given and what to do.
 *
 * @module
 */
import { kitDataFolders } from "../data/root.ts";
import { KitError } from "../errors.ts";
import { onInterrupt } from "./interrupt.ts";
import { basename, dirname } from "./path.ts";
import { tempPathFor } from "./temp.ts";

/**
 * The reader of a pipe the kit writes to went away (`| head -1`, a FIFO's reader that stopped
 * reading). Like other Unix tools the command then ends quietly with status 0: the reader
 * decided it had what it wanted. The CLI's `main` turns this error into that exit.
 */
export class ReaderClosed extends Error {
  constructor(path: string, options?: ErrorOptions) {
    super(`${path}: the reading end was closed`, options);
    this.name = "ReaderClosed";
  }
}

/** What an output path leads to. */
export type OutputTarget =
  /** A regular file at `path` (a link's target when the path given was a link). */
  | { kind: "file"; path: string; exists: boolean }
  /** Written through: a character device, a FIFO or an open descriptor. */
  | { kind: "stream"; path: string; what: string };

const MAX_LINKS = 40;

/** The first existing component of `path` (from the root) that is not a folder, if any. */
async function fileInPath(path: string): Promise<string | undefined> {
  const parts = path.split("/");
  for (let i = 1; i < parts.length; i++) {
    const prefix = parts.slice(0, i).join("/");
    if (prefix === "" || prefix === ".") continue;
    try {
      if (!(await Deno.stat(prefix)).isDirectory) return prefix;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The nearest existing folder at or above `dir`. */
async function existingAncestor(dir: string): Promise<string> {
  let d = dir;
  for (;;) {
    try {
      await Deno.stat(d);
      return d;
    } catch (e) {
      const up = dirname(d);
      if (!(e instanceof Deno.errors.NotFound) || up === d) return d;
      d = up;
    }
  }
}

/**
 * Turns an error of the file system while writing `path` into a `KitError` that says what
 * is wrong and what to do; `KitError`s pass through.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outputError } from "./output.ts";
 * const e = await outputError(Object.assign(new Error("x"), { code: "EROFS" }), "/ro/a.run");
 * assert.match(e.message, /^\/ro\/a\.run: cannot write: read-only file system/);
 * ```
 */
export async function outputError(e: unknown, path: string): Promise<KitError> {
  if (e instanceof KitError) return e;
  const code = (e as { code?: string })?.code;
  const msg = (e as Error)?.message ?? String(e);
  const where = async () => await existingAncestor(dirname(path));
  let why: string;
  switch (code) {
    case "ENOTDIR": {
      const file = await fileInPath(path);
      why = file === undefined
        ? "a part of the path is a file, not a folder"
        : `${file} is a file, not a folder`;
      why += "; choose another output path";
      break;
    }
    case "EROFS":
      why = `read-only file system (${await where()}); write to a folder on a writable one`;
      break;
    case "EACCES":
    case "EPERM":
      why = `permission denied (${await where()}); write to a folder you may write to`;
      break;
    case "ENOSPC":
    case "EDQUOT":
      why = `the disk is full (${msg}); free some space or write elsewhere`;
      break;
    case "ENAMETOOLONG":
      why = "the file name is too long; choose a shorter output path";
      break;
    case "ELOOP":
      why = "too many levels of symbolic links (a link loop?); choose another output path";
      break;
    case "EISDIR":
      why = "is a folder; give a file name (e.g. a name inside that folder)";
      break;
    default:
      why = `${msg}; choose another output path`;
  }
  return new KitError(`cannot write: ${why}`, { file: path }, { cause: e });
}

/**
 * Follows `path` to what writing it would change (see the module doc for the rules).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveOutput } from "./output.ts";
 * assert.equal((await resolveOutput("/dev/null")).kind, "stream");
 * const dir = await Deno.makeTempDir();
 * await Deno.symlink(`${dir}/real.run`, `${dir}/link.run`);
 * assert.deepEqual(await resolveOutput(`${dir}/link.run`), {
 *   kind: "file", path: `${dir}/real.run`, exists: false,
 * });
 * ```
 */
export async function resolveOutput(path: string): Promise<OutputTarget> {
  if (path === "") throw new KitError("an empty output path");
  if (path.endsWith("/") || /\/\.\.?$/.test(path)) {
    throw new KitError("names a folder, not a file; give a file name (e.g. a name inside it)", {
      file: path,
    });
  }
  let current = path;
  for (let hop = 0; hop < MAX_LINKS; hop++) {
    // Descriptors (/dev/stdout -> /proc/self/fd/1, /dev/fd/N): the open file behind them is
    // written through, never replaced (it may be the shell's `> file` or a pipe).
    if (/^\/(proc\/[^/]+\/fd|dev\/fd)\/\d+$/.test(current)) {
      return { kind: "stream", path, what: "an open file descriptor" };
    }
    let st: Deno.FileInfo;
    try {
      st = await Deno.lstat(current);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return { kind: "file", path: current, exists: false };
      throw await outputError(e, path);
    }
    if (st.isSymlink) {
      const to = await Deno.readLink(current);
      const dir = dirname(current);
      current = to.startsWith("/") || dir === "." ? to : `${dir}/${to}`;
      continue;
    }
    if (st.isFile) return { kind: "file", path: current, exists: true };
    if (st.isDirectory) {
      throw new KitError("is a folder; give a file name (e.g. a name inside that folder)", {
        file: path,
      });
    }
    if (st.isCharDevice) return { kind: "stream", path, what: "a character device" };
    if (st.isFifo) return { kind: "stream", path, what: "a FIFO" };
    const what = st.isBlockDevice ? "a block device (a disk)" : "a socket";
    throw new KitError(`is ${what}, which the kit never writes to; give a file name`, {
      file: path,
    });
  }
  throw new KitError(
    "too many levels of symbolic links (a link loop?); choose another output path",
    { file: path },
  );
}

/** The refusal to replace an existing file without `force`. */
export function refuseExisting(path: string, target: string): KitError {
  const via = target === path ? "" : `, ${target}, where the link leads`;
  return new KitError(
    `refusing to overwrite an existing file${via} (pass --force to replace it)`,
    { file: path },
  );
}

/** A regular file's identity (device and inode), or undefined for anything else. */
function fileId(path: string): string | undefined {
  try {
    const st = Deno.statSync(path);
    return st.isFile ? `${st.dev}:${st.ino}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Refuses an output `path` that is one of the command's `inputs` (the same regular file, by
 * device and inode: another spelling, a link, a hard link), even with `--force`: writing it
 * would destroy what the command reads. `named` is how the command names its output (`--out`,
 * `OUT`); `-` and empty inputs are not files.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { refuseInputAsOutput } from "./output.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.run`, "q Q0 d 1 1 r\n");
 * refuseInputAsOutput(`${dir}/b.run`, [`${dir}/a.run`, "-"], "--out");
 * assert.throws(
 *   () => refuseInputAsOutput(`${dir}/./a.run`, [`${dir}/a.run`], "OUT"),
 *   /OUT .*a\.run is one of this command's inputs \(.*a\.run\): writing it would destroy what the command reads, even with --force; choose another OUT/,
 * );
 * ```
 */
export function refuseInputAsOutput(
  path: string,
  inputs: readonly string[],
  named: string,
): void {
  const out = fileId(path);
  if (!out) return;
  for (const input of inputs) {
    if (input === "-" || input === "") continue;
    if (fileId(input) === out) {
      throw new KitError(
        `${named} ${path} is one of this command's inputs (${input}): writing it would destroy ` +
          `what the command reads, even with --force; choose another ${named}`,
      );
    }
  }
}

/**
 * The folders no output of a command replaces: the folders it reads (`readFolders`: a model's
 * folder, the corpus folder given) and the kit's data folders ({@link kitDataFolders}: the
 * corpus cache with the score cache and models inside, the samples).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { protectedFolders } from "./output.ts";
 * assert.equal(protectedFolders(["mymodel"])[0], "mymodel");
 * assert(protectedFolders([]).some((f) => f.endsWith("/data/samples")));
 * ```
 */
export function protectedFolders(readFolders: readonly string[]): string[] {
  return [...readFolders, ...kitDataFolders()];
}

/**
 * `path` with links resolved as far as it exists (the rest appended as given), absolute,
 * without a trailing `/`.
 */
function resolvedPath(path: string): string {
  const abs = path.startsWith("/") ? path : `${Deno.cwd()}/${path}`;
  const rest: string[] = [];
  let head = abs.replace(/\/+$/, "") || "/";
  for (;;) {
    try {
      const real = Deno.realPathSync(head).replace(/\/+$/, "");
      return [real, ...rest.reverse()].join("/").replace(/\/\.(?=\/|$)/g, "");
    } catch {
      const up = dirname(head);
      if (up === head) return abs;
      rest.push(basename(head));
      head = up;
    }
  }
}

/**
 * Refuses an output `path` that would replace what a command reads or the kit keeps, even with
 * `--force` (`folders`: {@link protectedFolders}; links followed on both sides). A file output
 * (`kind` "file") is refused where it would replace an existing file inside one of them (the
 * file may be what the command reads: a model's weights, a split's file); a new file beside
 * them is not. A folder output (`kind` "folder": a report, which replaces its whole folder) is
 * refused where it is one of them, holds one, or lies inside one, whether or not it exists
 * yet. The kit's data folders count whether or not they exist; other folders only when they
 * do. A model's folder (a `config.json` beside `model.onnx` or `onnx/model.onnx`) is protected so
 * too, whether or not the command reads it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { refuseReplacingInFolders } from "./output.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/model/onnx`, { recursive: true });
 * await Deno.writeTextFile(`${dir}/model/onnx/model.onnx`, "weights");
 * refuseReplacingInFolders(`${dir}/model/scores.run`, [`${dir}/model`], "--out");
 * assert.throws(
 *   () => refuseReplacingInFolders(`${dir}/model/onnx/model.onnx`, [`${dir}/model/`], "--out"),
 *   /--out .*model\.onnx would replace a file inside .*model\/, a folder this command reads/,
 * );
 * assert.throws(
 *   () => refuseReplacingInFolders(dir, [`${dir}/model`], "--out", "folder"),
 *   /--out .* holds .*model, a folder this command reads/,
 * );
 * ```
 */
export function refuseReplacingInFolders(
  path: string,
  folders: readonly string[],
  named: string,
  kind: "file" | "folder" = "file",
): void {
  if (path === "-") return;
  const real = resolvedPath(path);
  let exists = false;
  try {
    const st = Deno.statSync(real);
    if (!st.isFile && !st.isDirectory) return; // a device or FIFO: written through
    exists = true;
  } catch { /* nothing there yet */ }
  if (kind === "file" && !exists) return; // a new file replaces nothing
  const kitData = new Set(kitDataFolders());
  const under = (a: string, b: string) => a.startsWith(b === "/" ? "/" : `${b}/`);
  for (const folder of folders) {
    let isDir = false;
    try {
      isDir = Deno.statSync(folder).isDirectory;
    } catch { /* not there */ }
    if (!isDir && !(kitData.has(folder) && !existsAt(folder))) continue;
    const base = resolvedPath(folder);
    const what = `a folder this command reads or the kit keeps (a model's weights, a corpus, ` +
      "the score cache or the samples may be there): refused even with --force; choose " +
      `another ${named}`;
    if (kind === "file" && under(real, base)) {
      throw new KitError(`${named} ${path} would replace a file inside ${folder}, ${what}`);
    }
    if (kind === "folder" && (real === base || under(real, base) || under(base, real))) {
      const relation = real === base ? "is" : under(real, base) ? "is inside" : "holds";
      throw new KitError(`${named} ${path} ${relation} ${folder}, ${what}`);
    }
  }
  // A model's folder, whether or not this command reads it.
  const model = modelFolderAbove(kind === "file" ? dirname(real) : real);
  if (model !== undefined) {
    throw new KitError(
      `${named} ${path} ${
        kind === "file" ? "would replace a file inside" : model === real ? "is" : "is inside"
      } ${model}, a model's folder (config.json and its ONNX weights): refused even with ` +
        `--force; choose another ${named}`,
    );
  }
}

/**
 * The nearest folder at or above `dir` (four levels at most) that holds a model: a
 * `config.json` beside `model.onnx` or `onnx/model.onnx`; undefined when none does.
 */
function modelFolderAbove(dir: string): string | undefined {
  let d = dir;
  for (let i = 0; i < 5; i++) {
    const has = (f: string) => {
      try {
        return Deno.statSync(`${d}/${f}`).isFile;
      } catch {
        return false;
      }
    };
    if (has("config.json") && (has("model.onnx") || has("onnx/model.onnx"))) return d;
    const up = dirname(d);
    if (up === d) return undefined;
    d = up;
  }
  return undefined;
}

/** Whether anything is at `path` (a link counts, dangling or not). */
function existsAt(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks, before any work, that `path` can be written: not one of the command's `inputs`
 * (refused even with `force`: {@link refuseInputAsOutput}, which names the output as `named`,
 * default `--out`), nor anything in a folder the command reads or the kit keeps (refused even
 * with `force`: {@link refuseReplacingInFolders} over {@link protectedFolders}); it resolves like `writeFileAtomic` resolves it, refuses an existing file
 * without `force`, and proves the folder (or its nearest existing ancestor, as missing
 * folders are created when writing) writable by creating and removing a temporary file
 * there. Nothing is created.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkOutput } from "./output.ts";
 * const dir = await Deno.makeTempDir();
 * const t = await checkOutput(`${dir}/new/sub/out.run`);
 * assert.equal(t.kind, "file");
 * await Deno.writeTextFile(`${dir}/f`, "mine");
 * await assert.rejects(() => checkOutput(`${dir}/f`), /refusing to overwrite/);
 * await assert.rejects(() => checkOutput(`${dir}/f/x`), /f is a file, not a folder/);
 * await assert.rejects(
 *   () => checkOutput(`${dir}/f`, { force: true, inputs: [`${dir}/f`] }),
 *   /--out .*f is one of this command's inputs/,
 * );
 * assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["f"]);
 * ```
 */
export async function checkOutput(
  path: string,
  options: {
    force?: boolean;
    inputs?: readonly string[];
    readFolders?: readonly string[];
    named?: string;
    /** The kit writing its own data folder (`data fetch`'s install marker): not refused. */
    intoKitData?: boolean;
  } = {},
): Promise<OutputTarget> {
  const readFolders = options.readFolders ?? [];
  refuseInputAsOutput(path, options.inputs ?? [], options.named ?? "--out");
  refuseReplacingInFolders(
    path,
    options.intoKitData ? readFolders : protectedFolders(readFolders),
    options.named ?? "--out",
  );
  const target = await resolveOutput(path);
  if (target.kind === "stream") return target;
  if (target.exists && !options.force) throw refuseExisting(path, target.path);
  const folder = await existingAncestor(dirname(target.path));
  let isDir = false;
  try {
    isDir = (await Deno.stat(folder)).isDirectory;
  } catch (e) {
    throw await outputError(e, path);
  }
  if (!isDir) {
    throw new KitError(
      `cannot write: ${folder} is a file, not a folder; choose another output path`,
      {
        file: path,
      },
    );
  }
  const probe = tempPathFor(`${folder}/${basename(target.path)}`);
  const done = onInterrupt(() => Deno.removeSync(probe), `removed ${probe}`);
  try {
    (await Deno.open(probe, { write: true, createNew: true })).close();
    await Deno.remove(probe);
  } catch (e) {
    await Deno.remove(probe).catch(() => {});
    throw await outputError(e, path);
  } finally {
    done();
  }
  return target;
}

/**
 * What a failed write to standard output means: a reader gone (`ReaderClosed`, a quiet exit)
 * or a failure of what stdout leads to (`> /dev/full`, a full disk behind `> file`): a
 * `KitError` naming `<stdout>`. Anything else is returned as it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stdoutError } from "./output.ts";
 * const full = Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" });
 * assert.match(((await stdoutError(full)) as Error).message, /^<stdout>: cannot write: the disk is full/);
 * ```
 */
export async function stdoutError(e: unknown): Promise<unknown> {
  if (e instanceof Deno.errors.BrokenPipe) return new ReaderClosed("<stdout>", { cause: e });
  if (typeof (e as { code?: unknown })?.code === "string" && !(e instanceof KitError)) {
    return await outputError(e, "<stdout>");
  }
  return e;
}

/**
 * Writes all of `text` to standard output; throws `ReaderClosed` when the reader has gone.
 *
 * @example
 * ```ts
 * import { writeStdout } from "./output.ts";
 * await writeStdout("");
 * ```
 */
export async function writeStdout(text: string | Uint8Array): Promise<void> {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  let off = 0;
  try {
    while (off < bytes.length) off += await Deno.stdout.write(bytes.subarray(off));
  } catch (e) {
    throw await stdoutError(e);
  }
}

/**
 * Whether the folder `dir` has no room for a small file: a write of 64 KiB there fails for lack
 * of space (a tool that says nothing when the disk fills, such as pdfunite, is checked so). The
 * probe file is removed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { noRoom } from "./output.ts";
 * assert.equal(await noRoom(await Deno.makeTempDir()), false);
 * ```
 */
export async function noRoom(dir: string): Promise<boolean> {
  const probe = tempPathFor(`${dir}/.kit-space-probe`);
  try {
    await Deno.writeFile(probe, new Uint8Array(65536), { createNew: true });
    return false;
  } catch (e) {
    const code = (e as { code?: string })?.code;
    return code === "ENOSPC" || code === "EDQUOT" ||
      /os error (28|122)\b|no space left/i.test((e as Error).message);
  } finally {
    await Deno.remove(probe).catch(() => {});
  }
}
