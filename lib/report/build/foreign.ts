/**
 * What in a report folder the report did not write (a note the user added, a run copied in, a
 * folder of theirs), and carrying it over into the new report: a report replaces only what it
 * can show it wrote and never deletes anything else. The marker `.kit-report` of a finished
 * report is its manifest: every file the report wrote, with its size and SHA-256 when written.
 * A file is the report's only while it is listed there with the same size and hash (a regular
 * file, not a link); anything else is foreign: not listed, or changed since (edited, replaced,
 * a stale or hand-edited manifest), except in the cache's folder `.kit-cache/`, the kit's own
 * record (cache.ts): a file there that the manifest lists is the kit's even when it changed
 * since (a damaged record is rewritten, not kept as the user's), and so are the folder and its
 * `parts/` left empty. A marker that is not such a manifest (an older kit's list
 * without hashes, plain text, names outside the folder) proves nothing: every file is foreign,
 * and `checkReplaceable` (workspace.ts) refuses the folder without `--force`, saying why.
 * Foreign files are hard-linked (or, where that fails, copied with their mode and times) into
 * the new report before the swap, so the previous report stays whole until the swap and a
 * failure or an interrupt loses nothing.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { KitError } from "../../errors.ts";
import { readWholeFileSync } from "../../io/whole_file.ts";
import { CACHE_DIR } from "./cache_files.ts";

/** The file that marks a folder as a report the kit made (and may replace). */
export const REPORT_MARKER = ".kit-report";

/** The marker's first line while a report is being built (the folder is the kit's own). */
export const UNFINISHED_MARKER = "made by deno task report (unfinished)\n";

/** A file the report wrote: its path inside the report folder, size and SHA-256 when written. */
export interface ManifestEntry {
  /** `/`-separated, relative to the report folder. */
  path: string;
  bytes: number;
  /** Lowercase hex. */
  sha256: string;
}

/** What the marker of a finished report (or a kept failed attempt) holds. */
export interface ReportMarker {
  made_by: string;
  /** Every file the report wrote, sorted by path (the marker itself left out). */
  files: ManifestEntry[];
}

/** What a folder's marker says: none, a build under way, a manifest, or nothing checkable (why). */
export type MarkerState =
  | { kind: "none" }
  | { kind: "unfinished" }
  | { kind: "manifest"; files: Map<string, ManifestEntry> }
  | { kind: "invalid"; why: string };

/** The SHA-256 of a file, hex. */
function sha256Of(path: string): string {
  return createHash("sha256").update(Deno.readFileSync(path)).digest("hex");
}

/**
 * The manifest of `paths` (default: every file below `dir` but the marker) as they are now.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { manifestOf } from "./foreign.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/index.html`, "abc");
 * const m = manifestOf(dir, "deno task report");
 * assert.deepEqual(m.files, [{
 *   path: "index.html",
 *   bytes: 3,
 *   sha256: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
 * }]);
 * ```
 */
export function manifestOf(dir: string, madeBy: string, paths?: readonly string[]): ReportMarker {
  const files = (paths ?? filesBelow(dir).filter((f) => f !== REPORT_MARKER)).map((path) => ({
    path,
    bytes: Deno.lstatSync(`${dir}/${path}`).size,
    sha256: sha256Of(`${dir}/${path}`),
  }));
  return { made_by: madeBy, files: files.sort((a, b) => a.path < b.path ? -1 : 1) };
}

/** Whether a manifest path names a file inside the folder: relative, no `.`, `..` or empty part. */
function insidePath(path: string): boolean {
  return path.length > 0 && !path.startsWith("/") && !path.includes("\0") &&
    path.split("/").every((p) => p !== "" && p !== "." && p !== "..");
}

/**
 * Reads and checks the marker of `dir`: a manifest only when it is JSON of the form
 * {@link ReportMarker} whose every path lies inside the folder, each once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readMarker, REPORT_MARKER } from "./foreign.ts";
 * const dir = await Deno.makeTempDir();
 * assert.equal(readMarker(dir).kind, "none");
 * await Deno.writeTextFile(`${dir}/${REPORT_MARKER}`, JSON.stringify({ made_by: "x", files: ["index.html"] }));
 * const old = readMarker(dir);
 * assert(old.kind === "invalid" && /no sizes and hashes/.test(old.why));
 * const entry = { path: "../notes.txt", bytes: 1, sha256: "0".repeat(64) };
 * await Deno.writeTextFile(`${dir}/${REPORT_MARKER}`, JSON.stringify({ made_by: "x", files: [entry] }));
 * const outside = readMarker(dir);
 * assert(outside.kind === "invalid" && /outside the folder: \.\.\/notes\.txt/.test(outside.why));
 * ```
 */
export function readMarker(dir: string): MarkerState {
  let text: string;
  try {
    const bytes = readWholeFileSync(`${dir}/${REPORT_MARKER}`, "manifest", { missingOk: true });
    if (bytes === undefined) return { kind: "none" };
    text = new TextDecoder().decode(bytes);
  } catch (e) {
    const why = e instanceof KitError ? e.problem : (e as Error).message;
    return { kind: "invalid", why: `cannot be read (${why})` };
  }
  if (text === UNFINISHED_MARKER) return { kind: "unfinished" };
  let marker: unknown;
  try {
    marker = JSON.parse(text);
  } catch {
    return { kind: "invalid", why: "is not the JSON manifest the kit writes" };
  }
  const files = (marker as { files?: unknown })?.files;
  if (!Array.isArray(files)) {
    return { kind: "invalid", why: "lists no files (not the manifest the kit writes)" };
  }
  const listed = new Map<string, ManifestEntry>();
  for (const f of files) {
    if (typeof f === "string") {
      return {
        kind: "invalid",
        why: "lists names with no sizes and hashes (written by an earlier version of the kit)",
      };
    }
    const e = f as Partial<ManifestEntry>;
    if (
      typeof e?.path !== "string" || typeof e.bytes !== "number" ||
      typeof e.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(e.sha256)
    ) {
      return {
        kind: "invalid",
        why: `holds an entry that is not {path, bytes, sha256}: ${JSON.stringify(f)}`,
      };
    }
    if (!insidePath(e.path)) {
      return { kind: "invalid", why: `names a file outside the folder: ${e.path}` };
    }
    if (listed.has(e.path)) return { kind: "invalid", why: `lists ${e.path} twice` };
    listed.set(e.path, e as ManifestEntry);
  }
  return { kind: "manifest", files: listed };
}

/**
 * Every file below `dir` (links not followed, listed as files), as paths relative to it; with
 * `folders`, every empty folder too, as `name/`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { filesBelow } from "./foreign.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/html`);
 * await Deno.mkdir(`${dir}/empty`);
 * await Deno.writeTextFile(`${dir}/html/a.html`, "");
 * await Deno.writeTextFile(`${dir}/index.html`, "");
 * assert.deepEqual(filesBelow(dir), ["html/a.html", "index.html"]);
 * assert.deepEqual(filesBelow(dir, { folders: true }), ["empty/", "html/a.html", "index.html"]);
 * ```
 */
export function filesBelow(dir: string, options: { folders?: boolean } = {}): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    const entries = [...Deno.readDirSync(rel ? `${dir}/${rel}` : dir)];
    if (rel && entries.length === 0 && options.folders) out.push(`${rel}/`);
    for (const e of entries) {
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) walk(path);
      else out.push(path);
    }
  };
  walk("");
  return out.sort();
}

/**
 * Removes the empty folders below `dir` (the deepest first, so that a folder of empty folders
 * goes too); files are left as they are.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { filesBelow, removeEmptyFolders } from "./foreign.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.mkdir(`${dir}/html/deep`, { recursive: true });
 * await Deno.mkdir(`${dir}/notebooks`);
 * await Deno.writeTextFile(`${dir}/notebooks/01.ipynb`, "{}");
 * removeEmptyFolders(dir);
 * assert.deepEqual(filesBelow(dir, { folders: true }), ["notebooks/01.ipynb"]);
 * ```
 */
export function removeEmptyFolders(dir: string): void {
  for (const folder of filesBelow(dir, { folders: true }).filter((f) => f.endsWith("/"))) {
    let path = folder.slice(0, -1);
    // An empty folder, then each parent it leaves empty, up to `dir`.
    while (path && [...Deno.readDirSync(`${dir}/${path}`)].length === 0) {
      Deno.removeSync(`${dir}/${path}`);
      path = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    }
  }
}

/** Whether the file at `dir/path` is the one the manifest entry describes (size, then hash). */
function matches(dir: string, entry: ManifestEntry | undefined): boolean {
  if (!entry) return false;
  try {
    const st = Deno.lstatSync(`${dir}/${entry.path}`);
    return st.isFile && st.size === entry.bytes &&
      sha256Of(`${dir}/${entry.path}`) === entry.sha256;
  } catch {
    return false;
  }
}

/**
 * The files in a kit report folder that the report cannot show it wrote: every file the
 * manifest does not list with its current size and hash (no marker, or one that is not a
 * manifest: every file); with `folders`, its empty folders too (`name/`). `changed` collects
 * those the manifest lists but that changed since.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { foreignFiles, manifestOf, REPORT_MARKER } from "./foreign.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/index.html`, "the report's");
 * await Deno.writeTextFile(`${dir}/notes.html`, "the report's too");
 * await Deno.writeTextFile(`${dir}/${REPORT_MARKER}`, JSON.stringify(manifestOf(dir, "x")));
 * await Deno.writeTextFile(`${dir}/NOTES.txt`, "mine");
 * await Deno.writeTextFile(`${dir}/notes.html`, "edited by me");
 * const changed: string[] = [];
 * assert.deepEqual(foreignFiles(dir, { changed }), ["NOTES.txt", "notes.html"]);
 * assert.deepEqual(changed, ["notes.html"]);
 * ```
 */
export function foreignFiles(
  dir: string,
  options: { folders?: boolean; changed?: string[] } = {},
): string[] {
  const marker = readMarker(dir);
  const all = filesBelow(dir, options).filter((f) => f !== REPORT_MARKER);
  if (marker.kind !== "manifest") return all;
  return all.filter((f) => {
    const entry = marker.files.get(f);
    if (matches(dir, entry) || cachesOwn(f, entry !== undefined)) return false;
    if (entry) options.changed?.push(f);
    return true;
  });
}

/**
 * Whether an entry of a kit report that does not match its manifest is the cache's all the
 * same: a file of `.kit-cache/` the manifest lists (`listed`), or the cache's folders empty.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cachesOwn } from "./foreign.ts";
 * assert(cachesOwn(".kit-cache/keys.json", true) && cachesOwn(".kit-cache/", false));
 * assert(!cachesOwn(".kit-cache/notes.txt", false) && !cachesOwn("index.html", true));
 * ```
 */
export function cachesOwn(entry: string, listed: boolean): boolean {
  return (listed && entry.startsWith(`${CACHE_DIR}/`)) ||
    entry === `${CACHE_DIR}/` || entry === `${CACHE_DIR}/parts/`;
}

/** What is at a path of a report: a file (anything but a folder), a folder, or nothing. */
export type PathKind = "file" | "folder" | undefined;

/** The ancestors of a `/`-separated relative path, outermost first (`a/b/c` → `a`, `a/b`). */
function ancestors(path: string): string[] {
  const parts = path.split("/");
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join("/"));
}

/**
 * The foreign entries (files, empty folders as `name/`) that sit where a new report writes: at
 * a path it writes a file to, a file where it makes a folder, or inside what it writes as a
 * file. `kindAt` says what the new report has at a relative path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { collisions, plannedKinds } from "./foreign.ts";
 * const kindAt = plannedKinds(["index.html", "html/01-datasets.html"]);
 * assert.deepEqual(
 *   collisions(["NOTES.txt", "html/mine.html", "html/01-datasets.html", "index.html/x", "html", "html/"], kindAt),
 *   ["html/01-datasets.html", "index.html/x", "html"],
 * );
 * ```
 */
export function collisions(
  foreign: readonly string[],
  kindAt: (path: string) => PathKind,
): string[] {
  return foreign.filter((entry) => {
    const folder = entry.endsWith("/");
    const path = folder ? entry.slice(0, -1) : entry;
    const kind = kindAt(path);
    return kind === "file" || (kind === "folder" && !folder) ||
      ancestors(path).some((a) => kindAt(a) === "file");
  });
}

/**
 * What a report of these files (relative paths) has at a path: the files, and their folders.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plannedKinds } from "./foreign.ts";
 * const kindAt = plannedKinds(["html/a.html"]);
 * assert.deepEqual([kindAt("html/a.html"), kindAt("html"), kindAt("NOTES.txt")], ["file", "folder", undefined]);
 * ```
 */
export function plannedKinds(files: readonly string[]): (path: string) => PathKind {
  const set = new Set(files);
  const folders = new Set(files.flatMap(ancestors));
  return (path) => set.has(path) ? "file" : folders.has(path) ? "folder" : undefined;
}

/** What is at `path` on disk (links not followed). */
function kindOnDisk(path: string): PathKind {
  try {
    return Deno.lstatSync(path).isDirectory ? "folder" : "file";
  } catch {
    return undefined;
  }
}

/**
 * The refusal for foreign entries sitting where the new report writes; `changed`: those listed
 * in the marker but changed since the report wrote them (a hand-edited page), named as such.
 */
export function collisionError(
  dir: string,
  clash: readonly string[],
  changed: readonly string[] = [],
): KitError {
  const shown = shortList(clash);
  return new KitError(
    `refusing to build: ${clash.length} file(s) the report did not write sit where the new ` +
      `report writes (${shown})${editedNote(changed.filter((f) => clash.includes(f)))}; the ` +
      "report never deletes a file it did not write, so move or rename them, or choose another " +
      "--out",
    { file: dir },
  );
}

/**
 * How a refusal of a folder ends: `hint` (pass `--force`) where `--force` would build, else the
 * files `--force` would not write over either (`clash`, from {@link collisions}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { forceAdvice } from "./foreign.ts";
 * assert.equal(forceAdvice([], ", or pass --force"), ", or pass --force");
 * assert.equal(
 *   forceAdvice(["index.html"], ", or pass --force"),
 *   " (not with --force either: 1 file(s) of yours sit where the report writes: index.html)",
 * );
 * ```
 */
export function forceAdvice(clash: readonly string[], hint: string): string {
  if (clash.length === 0) return hint;
  const shown = shortList(clash);
  return ` (not with --force either: ${clash.length} file(s) of yours sit where the report ` +
    `writes: ${shown})`;
}

/**
 * The first `n` paths of a refusal, then ", ..." when there are more.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { shortList } from "./foreign.ts";
 * assert.equal(shortList(["a", "b", "c"], 2), "a, b, ...");
 * assert.equal(shortList(["a"]), "a");
 * ```
 */
export function shortList(paths: readonly string[], n = 5): string {
  return paths.slice(0, n).join(", ") + (paths.length > n ? ", ..." : "");
}

/** How a refusal names the files the marker lists but that changed since (none: nothing). */
export function editedNote(changed: readonly string[]): string {
  if (changed.length === 0) return "";
  const shown = shortList(changed, 3);
  return ` (${changed.length} of them listed in ${REPORT_MARKER} but changed since the report ` +
    `wrote them: ${shown})`;
}

/** Whether `b` is `a` carried over: the same file (a hard link) or a copy with its size, mode and time. */
function sameEntry(a: string, b: string): boolean {
  try {
    const [x, y] = [Deno.lstatSync(a), Deno.lstatSync(b)];
    if (x.isDirectory || y.isDirectory) return x.isDirectory && y.isDirectory;
    if (x.dev === y.dev && x.ino === y.ino) return true;
    return x.isSymlink === y.isSymlink && x.size === y.size && x.mode === y.mode &&
      (x.isSymlink || x.mtime?.getTime() === y.mtime?.getTime());
  } catch {
    return false;
  }
}

/**
 * The foreign entries of the report folder `oldDir` that `newDir` does not hold carried over
 * (a hard link of the same file, or a copy with its size, mode and time). Empty when
 * `oldDir` is a report being built (its marker says unfinished): everything in it is the kit's.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { REPORT_MARKER, uncarried } from "./foreign.ts";
 * const [old, now] = [await Deno.makeTempDir(), await Deno.makeTempDir()];
 * await Deno.writeTextFile(`${old}/${REPORT_MARKER}`, JSON.stringify({ made_by: "x", files: [] }));
 * await Deno.writeTextFile(`${old}/NOTES.txt`, "mine");
 * assert.deepEqual(uncarried(old, now), ["NOTES.txt"]);
 * await Deno.link(`${old}/NOTES.txt`, `${now}/NOTES.txt`);
 * assert.deepEqual(uncarried(old, now), []);
 * ```
 */
export function uncarried(oldDir: string, newDir: string): string[] {
  if (readMarker(oldDir).kind === "unfinished") return [];
  return foreignFiles(oldDir, { folders: true }).filter((e) =>
    !sameEntry(`${oldDir}/${e}`, `${newDir}/${e.replace(/\/$/, "")}`)
  );
}

/**
 * Moves into `newDir` (rename: same bytes, mode and times) the entries of `oldDir` that
 * {@link uncarried} names (files added while the report was built), where nothing is at their
 * path; returns those left in `oldDir`. Synchronous: it runs within the swap.
 */
export function moveUncarried(oldDir: string, newDir: string): string[] {
  const left: string[] = [];
  for (const entry of uncarried(oldDir, newDir)) {
    const path = entry.replace(/\/$/, "");
    try {
      if (kindOnDisk(`${newDir}/${path}`) !== undefined) throw new Error("taken");
      for (const a of ancestors(path)) {
        if (kindOnDisk(`${newDir}/${a}`) === undefined) Deno.mkdirSync(`${newDir}/${a}`);
      }
      Deno.renameSync(`${oldDir}/${path}`, `${newDir}/${path}`);
    } catch {
      left.push(entry);
    }
  }
  return left;
}

/** Puts `from` (a file, link or special file) at `to`: a hard link, else a copy with its mode and times. */
async function linkOrCopy(from: string, to: string, info: Deno.FileInfo): Promise<void> {
  try {
    await Deno.link(from, to);
    return;
  } catch { /* another file system below, or hard links forbidden: copy */ }
  if (info.isSymlink) {
    await Deno.symlink(await Deno.readLink(from), to);
  } else if (info.isFile) {
    await Deno.copyFile(from, to);
    await Deno.chmod(to, info.mode! & 0o7777);
    await Deno.utime(to, info.atime ?? new Date(), info.mtime ?? new Date());
  } else {
    throw new KitError(
      "cannot carry this special file over into the new report (it could not be hard-linked); " +
        "move it out of the report folder",
      { file: from },
    );
  }
}

/**
 * Carries every foreign entry of the report folder `oldDir` (files, links, empty folders, and
 * the folders holding them) over into the new report `newDir`, at the same relative path, with
 * the same bytes, mode and modification time: hard links where the file system allows, copies
 * otherwise. Refuses (before carrying anything) when one sits where the new report wrote.
 * Returns the entries carried. `oldDir` is only read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { carryForeign, manifestOf, REPORT_MARKER } from "./foreign.ts";
 * const [old, now] = [await Deno.makeTempDir(), await Deno.makeTempDir()];
 * await Deno.writeTextFile(`${old}/index.html`, "old");
 * await Deno.writeTextFile(`${old}/${REPORT_MARKER}`, JSON.stringify(manifestOf(old, "x")));
 * await Deno.mkdir(`${old}/mine`);
 * await Deno.writeTextFile(`${old}/mine/NOTES.txt`, "notes");
 * await Deno.writeTextFile(`${now}/index.html`, "new");
 * assert.deepEqual(await carryForeign(old, now), ["mine/NOTES.txt"]);
 * assert.equal(await Deno.readTextFile(`${now}/mine/NOTES.txt`), "notes");
 * assert.equal(await Deno.readTextFile(`${now}/index.html`), "new");
 * await Deno.writeTextFile(`${old}/index.html`, "a user's page");
 * await Deno.writeTextFile(`${old}/${REPORT_MARKER}`, JSON.stringify({ made_by: "x", files: [] }));
 * await assert.rejects(() => carryForeign(old, now), /2 file\(s\) the report did not write sit where the new report writes \(index\.html, mine\/NOTES\.txt\)/);
 * ```
 */
export async function carryForeign(oldDir: string, newDir: string): Promise<string[]> {
  let entries: string[];
  try {
    if (!(await Deno.lstat(oldDir)).isDirectory) return [];
    entries = foreignFiles(oldDir, { folders: true });
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return [];
    throw e;
  }
  const clash = collisions(entries, (p) => kindOnDisk(`${newDir}/${p}`));
  if (clash.length) throw collisionError(oldDir, clash);
  const made: string[] = []; // folders made here: their mode and times are set last
  for (const entry of entries) {
    const path = entry.replace(/\/$/, "");
    for (const folder of [...ancestors(path), ...(entry.endsWith("/") ? [path] : [])]) {
      if (kindOnDisk(`${newDir}/${folder}`) !== undefined) continue;
      await Deno.mkdir(`${newDir}/${folder}`);
      made.push(folder);
    }
    if (!entry.endsWith("/")) {
      await linkOrCopy(
        `${oldDir}/${path}`,
        `${newDir}/${path}`,
        await Deno.lstat(`${oldDir}/${path}`),
      );
    }
  }
  // Innermost first, after they are filled: a read-only folder could not be filled otherwise.
  for (const folder of made.reverse()) {
    const info = await Deno.stat(`${oldDir}/${folder}`);
    await Deno.chmod(`${newDir}/${folder}`, info.mode! & 0o7777);
    await Deno.utime(`${newDir}/${folder}`, info.atime ?? new Date(), info.mtime ?? new Date());
  }
  return entries;
}
