/**
 * The install marker of a fetched corpus (`<dir>/<dataset>/.installed.json`) and the check
 * that the files are still the ones installed.
 *
 * `data fetch` writes the marker last, with each file's pinned sha256, size, modification
 * and change times. Before a corpus is read, {@link verifyInstalled} compares every file's
 * size and times with the marker (a few `stat` calls) and hashes only a file whose stamp
 * differs: a file whose content changed (an edited label, a truncated copy) or that is gone
 * is an error naming it and the command that restores it; a file only touched or copied
 * (`cp -a` of the checkout: new change times, same content) is read, its new stamp recorded
 * in the marker so the next command checks stamps alone again, and one note line says so.
 * Where the marker cannot be written (a read-only checkout), the verified stamps go to the
 * user's cache instead (`$XDG_CACHE_HOME/qa-eval-kit/verified-stamps.json`), keyed by the
 * file's absolute path and pinned sha256. The change time (ctime) cannot be set back by
 * `touch` or `cp -p`, so an edit that restores the modification time is still noticed.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { KitError } from "../errors.ts";
import { replaceFileSync } from "../io/atomic.ts";
import { notRegularFile } from "../io/source.ts";
import { readWholeFileSync } from "../io/whole_file.ts";
import type { DatasetName } from "./types.ts";

/**
 * The marker a complete installation of a corpus leaves in `<dir>/<dataset>/`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { installMarker } from "./installed.ts";
 * assert.equal(installMarker("/c", "qrcd"), "/c/qrcd/.installed.json");
 * ```
 */
export function installMarker(dir: string, dataset: DatasetName): string {
  return `${dir}/${dataset}/.installed.json`;
}

/** What the marker records about one installed file. */
export interface InstalledFile {
  /** The pinned sha256 the file was verified against. */
  sha256: string;
  /** Size in bytes when installed. */
  size: number;
  /** Modification time when installed, ms since the epoch. */
  mtimeMs: number;
  /** Change time when installed, ms since the epoch (null where the system has none). */
  ctimeMs: number | null;
}

/** The marker's content. */
export interface InstallMarkerData {
  dataset: DatasetName;
  /** `upstream` or `mirror:<folder>`. */
  source: string;
  /** By path inside the corpus folder; markers of older kits hold the sha256 alone. */
  files: Record<string, InstalledFile | string>;
}

/**
 * A file's size and times as the marker records them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileStamp } from "./installed.ts";
 * const f = await Deno.makeTempFile();
 * await Deno.writeTextFile(f, "abc");
 * assert.equal(fileStamp(f).size, 3);
 * ```
 */
export function fileStamp(path: string): Omit<InstalledFile, "sha256"> {
  const st = Deno.statSync(path);
  return {
    size: st.size,
    mtimeMs: st.mtime?.getTime() ?? 0,
    ctimeMs: (st as { ctime?: Date | null }).ctime?.getTime() ?? null,
  };
}

/**
 * sha256 (hex) of a file, read synchronously in blocks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fileSha256 } from "./installed.ts";
 * const f = await Deno.makeTempFile();
 * assert(fileSha256(f).startsWith("e3b0c442"));
 * ```
 */
export function fileSha256(path: string): string {
  const hash = createHash("sha256");
  const file = Deno.openSync(path, { read: true });
  try {
    const buf = new Uint8Array(1 << 20);
    for (;;) {
      const n = file.readSync(buf);
      if (n === null) break;
      hash.update(buf.subarray(0, n));
    }
  } finally {
    file.close();
  }
  return hash.digest("hex");
}

function sameStamp(a: Omit<InstalledFile, "sha256">, b: InstalledFile): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

function sizes(now: number, installed: number): string {
  if (installed < 0) return "";
  return now === installed ? "; same size" : `; ${now} bytes, installed ${installed}`;
}

/** Hashes already done in this process: path -> stamp and sha256 at that stamp. */
const verified = new Map<string, { stamp: Omit<InstalledFile, "sha256">; sha256: string }>();

function restoreAdvice(fetch: string): string {
  return `restore it with '${fetch}' (offline: add --mirror DIR); to work on an edited copy, ` +
    "put it in a folder of its own and pass --dir";
}

/**
 * Reads a corpus's install marker; undefined when `dir` has none for `dataset`. A damaged one
 * is an error naming `fetch`, the command that writes it again (default: `data fetch` into
 * `dir`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readInstallMarker } from "./installed.ts";
 * assert.equal(readInstallMarker("wikiqa", await Deno.makeTempDir()), undefined); // no marker
 * ```
 */
export function readInstallMarker(
  dataset: DatasetName,
  dir: string,
  fetch = `deno task data fetch ${dataset} --dir ${dir}`,
): InstallMarkerData | undefined {
  const path = installMarker(dir, dataset);
  let text: string;
  try {
    const bytes = readWholeFileSync(path, "marker", { missingOk: true });
    if (bytes === undefined) return undefined;
    text = new TextDecoder().decode(bytes);
  } catch (e) {
    const why = e instanceof KitError ? e.problem : (e as Error).message;
    throw new KitError(`cannot read the install marker (${why})`, { file: path });
  }
  try {
    const data = JSON.parse(text) as InstallMarkerData;
    if (typeof data?.files !== "object" || data.files === null) throw new Error("no files");
    return data;
  } catch {
    throw new KitError(
      `the install marker is damaged; run '${fetch}' to check the ` +
        "files and write it again",
      { file: path },
    );
  }
}

/**
 * Checks that every file of an installed corpus is the one installed (see the module doc);
 * returns notes about files touched without a change of content. Does nothing when `dir`
 * has no marker for `dataset` (the bundled samples, a folder of the user's). `fetch` is the
 * command that restores the corpus, named in the error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { verifyInstalled } from "./installed.ts";
 * assert.deepEqual(verifyInstalled("wikiqa", await Deno.makeTempDir()), []); // nothing installed
 * ```
 */
export function verifyInstalled(
  dataset: DatasetName,
  dir: string,
  fetch = `deno task data fetch ${dataset} --dir ${dir}`,
): string[] {
  const marker = readInstallMarker(dataset, dir, fetch);
  if (!marker) return [];
  // The user's stamp cache is read only when a stamp differs (most calls: none does).
  let cachedStamps: StampCache | undefined;
  const stampCache = () => cachedStamps ??= readStampCache();
  const touched: { rel: string; path: string; stamp: Omit<InstalledFile, "sha256"> }[] = [];
  for (const [rel, recorded] of Object.entries(marker.files)) {
    const path = `${dir}/${rel}`;
    const want: InstalledFile = typeof recorded === "string"
      ? { sha256: recorded, size: -1, mtimeMs: -1, ctimeMs: -1 }
      : recorded;
    let stamp: Omit<InstalledFile, "sha256">;
    try {
      stamp = fileStamp(path);
      // Hashing a FIFO would wait for a writer, a device such as /dev/zero never end.
      const type = notRegularFile(Deno.statSync(path));
      if (type) throw new KitError(`is ${type}, not a regular file`, { file: path });
    } catch (e) {
      const why = e instanceof Deno.errors.NotFound
        ? "is missing"
        : e instanceof KitError
        ? e.problem
        : `cannot be read (${e})`;
      throw new KitError(
        `${why}: it belongs to the installed ${dataset} corpus; ${restoreAdvice(fetch)}`,
        { file: path },
      );
    }
    if (sameStamp(stamp, want)) continue;
    const key = stampKey(path);
    const known = stampCache()[key];
    if (known && known.sha256 === want.sha256 && sameStamp(stamp, known)) continue;
    const memo = verified.get(path);
    let sha: string;
    if (
      memo && memo.stamp.size === stamp.size && memo.stamp.mtimeMs === stamp.mtimeMs &&
      memo.stamp.ctimeMs === stamp.ctimeMs
    ) {
      sha = memo.sha256;
    } else {
      sha = fileSha256(path);
      verified.set(path, { stamp, sha256: sha });
      if (sha === want.sha256 && typeof recorded !== "string") touched.push({ rel, path, stamp });
    }
    if (sha !== want.sha256) {
      throw new KitError(
        `changed after it was installed (sha256 ${sha.slice(0, 16)}..., installed ` +
          `${want.sha256.slice(0, 16)}...${sizes(stamp.size, want.size)}); the kit does not ` +
          `read a modified corpus: ${restoreAdvice(fetch)}`,
        { file: path },
      );
    }
  }
  if (touched.length === 0) return [];
  const where = recordStamps(dir, dataset, marker, touched, stampCache());
  const what = touched.length === 1
    ? touched[0].path
    : `${touched.length} files of ${dir}/${dataset}`;
  return [
    `note: ${what} ${touched.length === 1 ? "was" : "were"} touched or copied after ` +
    `installation; the content is the pinned one (sha256 checked) and the new times are ` +
    `recorded ${where}, so this is checked once`,
  ];
}

/** The user's cache of verified stamps (for corpora whose marker cannot be written). */
function stampCachePath(): string {
  const base = Deno.env.get("XDG_CACHE_HOME") || `${Deno.env.get("HOME") ?? "/tmp"}/.cache`;
  return `${base}/qa-eval-kit/verified-stamps.json`;
}

type StampCache = Record<string, InstalledFile>;

function stampKey(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}

function readStampCache(): StampCache {
  try {
    const bytes = readWholeFileSync(stampCachePath(), "marker", { missingOk: true });
    const data = bytes && JSON.parse(new TextDecoder().decode(bytes));
    return data && typeof data === "object" ? data as StampCache : {};
  } catch {
    return {};
  }
}

/**
 * Records the new stamps of files verified by hash: in the install marker, or where it cannot
 * be written (a read-only checkout), in the user's stamp cache; says where (for the note).
 */
function recordStamps(
  dir: string,
  dataset: DatasetName,
  marker: InstallMarkerData,
  touched: { rel: string; path: string; stamp: Omit<InstalledFile, "sha256"> }[],
  cached: StampCache,
): string {
  const files = { ...marker.files };
  for (const t of touched) {
    const sha256 = (files[t.rel] as InstalledFile).sha256;
    files[t.rel] = { sha256, ...t.stamp };
  }
  try {
    replaceFileSync(
      installMarker(dir, dataset),
      JSON.stringify({ ...marker, files }, null, 1) + "\n",
    );
    return "in its install marker";
  } catch { /* read-only checkout: the user's cache */ }
  for (const t of touched) {
    cached[stampKey(t.path)] = { sha256: (files[t.rel] as InstalledFile).sha256, ...t.stamp };
  }
  try {
    const path = stampCachePath();
    Deno.mkdirSync(path.replace(/\/[^/]*$/, ""), { recursive: true });
    replaceFileSync(path, JSON.stringify(cached, null, 1) + "\n");
    return `in ${path} (the corpus folder cannot be written)`;
  } catch {
    return "nowhere (neither the corpus folder nor the user's cache can be written)";
  }
}
