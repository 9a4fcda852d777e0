/**
 * `deno task data fetch`: download the corpora from their upstream locations (or take them
 * from a mirror folder), verify every file against its pinned sha256, and install them
 * atomically into the cache.
 *
 * Guarantees:
 * - Nothing is installed until every file of the corpus has been obtained and verified; then
 *   each file is written to a temporary name and renamed into place, and a marker
 *   (`.installed.json`) is written last. An interrupted run leaves the previous good files.
 * - A file whose checksum does not match is kept aside under `<cache>/rejected/` for
 *   inspection and never installed.
 * - Running it again is cheap: files already installed and still matching are not fetched.
 * - The install folder is checked before anything is downloaded (a read-only or forbidden
 *   folder, a path through a file is an error at once), and temporary files left by a killed
 *   earlier run are swept (lib/io/temp.ts); Ctrl-C removes the current run's own.
 * - The marker records each file's size and times, so readers can notice a file changed
 *   after installation cheaply (lib/data/installed.ts); a changed file is fetched again.
 *
 * @module
 */
import { unzipSync } from "npm:fflate@0.8.2";
import { KitError } from "../errors.ts";
import { type AtomicWriteOptions, exists, writeFileAtomic } from "../io/atomic.ts";
import { checkOutput } from "../io/output.ts";
import { dirname } from "../io/path.ts";
import { sweepStaleTemps } from "../io/temp.ts";
import { readWholeFile } from "../io/whole_file.ts";
import { fileStamp, installMarker, type InstallMarkerData } from "./installed.ts";
import { datasetNames, type FileSpec, findDataset } from "./datasets.ts";
import { defaultCacheDir } from "./paths.ts";
import type { DatasetName } from "./types.ts";

/** Options of {@link fetchDataset}. */
export interface FetchOptions {
  /** Take the files from this folder (laid out like `../shared/datasets`) instead of the network. */
  mirror?: string;
  /** Install into this folder (default: the cache, `data/cache/`). */
  dir?: string;
  /** Progress and status lines (default: stderr). */
  log?: (line: string) => void;
  /** Rewrites upstream URLs (tests point them at a local server). */
  mapUrl?: (url: string) => string;
  /** Per-request timeout in milliseconds (default 10 minutes). */
  timeoutMs?: number;
  /**
   * The write function every installed file goes through (see `writeFileAtomic`'s `write`);
   * tests substitute it to simulate a full disk.
   */
  write?: AtomicWriteOptions["write"];
}

/** What a fetch did. */
export interface FetchReport {
  dataset: DatasetName;
  dir: string;
  /** Files obtained and installed now. */
  installed: string[];
  /** Files that were already installed and verified. */
  unchanged: string[];
}

/**
 * sha256 of bytes, hex.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sha256Hex } from "./fetch.ts";
 * assert((await sha256Hex(new Uint8Array())).startsWith("e3b0c442"));
 * ```
 */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Replaces CRLF by LF (the form text files are pinned and installed in).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { normalizeLineEnds } from "./fetch.ts";
 * const out = normalizeLineEnds(new TextEncoder().encode("a\r\nb\r\n"));
 * assert(new TextDecoder().decode(out) === "a\nb\n");
 * ```
 */
export function normalizeLineEnds(bytes: Uint8Array): Uint8Array {
  let crlf = 0;
  for (let i = 0; i + 1 < bytes.length; i++) if (bytes[i] === 13 && bytes[i + 1] === 10) crlf++;
  if (crlf === 0) return bytes;
  const out = new Uint8Array(bytes.length - crlf);
  let j = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 13 && bytes[i + 1] === 10) continue;
    out[j++] = bytes[i];
  }
  return out;
}

function readIfExists(path: string): Promise<Uint8Array | undefined> {
  return readWholeFile(path, "corpus", { missingOk: true });
}

function mb(n: number): string {
  return (n / 1e6).toFixed(1);
}

/** Downloads a URL with progress on `log`; every failure becomes a `KitError` saying what to do. */
async function download(
  url: string,
  label: string,
  log: (s: string) => void,
  timeoutMs: number,
): Promise<Uint8Array> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (e) {
    throw new KitError(
      `cannot download ${url} (${(e as Error).message}). If this machine is offline, ` +
        "fetch from a local copy laid out like ../shared/datasets: --mirror DIR",
      {},
      { cause: e },
    );
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new KitError(
      `HTTP ${res.status} ${res.statusText} for ${url}; the upstream copy may have moved: ` +
        "retry later or use --mirror DIR",
    );
  }
  const total = Number(res.headers.get("content-length") ?? NaN);
  const parts: Uint8Array[] = [];
  let got = 0;
  let lastLog = 0;
  try {
    for await (const chunk of res.body!) {
      parts.push(chunk);
      got += chunk.length;
      const now = Date.now();
      if (now - lastLog > 1000) {
        lastLog = now;
        log(`  ${label}: ${mb(got)}${Number.isFinite(total) ? ` / ${mb(total)}` : ""} MB`);
      }
    }
  } catch (e) {
    throw new KitError(
      `download of ${url} broke off after ${got} bytes (${(e as Error).message}); run the ` +
        "command again (nothing was installed)",
      {},
      { cause: e },
    );
  }
  if (Number.isFinite(total) && got !== total) {
    throw new KitError(
      `truncated download of ${url}: got ${got} of ${total} bytes; run the command again ` +
        "(nothing was installed)",
    );
  }
  const out = new Uint8Array(got);
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  log(`  ${label}: ${mb(got)} MB done`);
  return out;
}

/** Fails before any download when the corpus cannot be installed into `dir`. */
async function checkInstallFolder(dir: string, dataset: DatasetName): Promise<void> {
  try {
    await checkOutput(installMarker(dir, dataset), { force: true, intoKitData: true });
  } catch (e) {
    if (!(e instanceof KitError)) throw e;
    const why = e.problem.replace(/^cannot write: /, "")
      .replace(/; nothing was written and any earlier file there is unchanged$/, "")
      .replace(/choose another output path|write to a folder .*$/, "choose another --dir");
    throw new KitError(`cannot install ${dataset} into this folder: ${why}`, { file: dir }, {
      cause: e,
    });
  }
}

/** Lists the members of a zip file. */
function unzipMembers(bytes: Uint8Array, url: string): Record<string, Uint8Array> {
  try {
    return unzipSync(bytes);
  } catch (e) {
    throw new KitError(
      `${url} is not a readable zip archive (${(e as Error).message}); download it again`,
      {},
      { cause: e },
    );
  }
}

/**
 * Fetches one corpus into the cache (or `dir`), verifying every file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fetchDataset } from "./fetch.ts";
 * const dir = await Deno.makeTempDir();
 * await assert.rejects(
 *   () => fetchDataset("qrcd", { mirror: `${dir}/no-mirror`, dir, log: () => {} }),
 *   /mirror folder .*\/no-mirror does not exist/,
 * );
 * ```
 */
export async function fetchDataset(
  dataset: DatasetName,
  options: FetchOptions = {},
): Promise<FetchReport> {
  const specs = findDataset(dataset).files;
  const dir = options.dir ?? defaultCacheDir();
  const log = options.log ?? ((s: string) => console.error(s));
  const mapUrl = options.mapUrl ?? ((u: string) => u);
  const timeoutMs = options.timeoutMs ?? 600_000;
  await checkInstallFolder(dir, dataset);
  if (options.mirror !== undefined && !(await exists(options.mirror))) {
    throw new KitError(
      `mirror folder ${options.mirror} does not exist (expected a folder laid out like ` +
        `../shared/datasets, with ${datasetNames().map((n) => `${n}/`).join(", ")} in it)`,
    );
  }
  log(
    `${dataset}: ${options.mirror ? `from mirror ${options.mirror}` : "from upstream"} into ${dir}`,
  );
  const folders = new Set([...specs.map((s) => dirname(`${dir}/${s.path}`)), `${dir}/rejected`]);
  for (const folder of folders) {
    for (const name of await sweepStaleTemps(folder)) {
      log(`  removed ${folder}/${name}, left by an interrupted earlier run`);
    }
  }

  const zips = new Map<string, Record<string, Uint8Array>>();
  const verified: { spec: FileSpec; bytes: Uint8Array }[] = [];
  const unchanged: string[] = [];
  for (const spec of specs) {
    const dest = `${dir}/${spec.path}`;
    const current = await readIfExists(dest);
    if (current && (await sha256Hex(current)) === spec.sha256) {
      unchanged.push(spec.path);
      continue;
    }
    let bytes: Uint8Array;
    let from: string;
    if (options.mirror !== undefined) {
      from = `${options.mirror}/${spec.path}`;
      const b = await readIfExists(from);
      if (!b) {
        throw new KitError(
          `mirror ${options.mirror} lacks ${spec.path}; copy that file there (same layout as ` +
            "../shared/datasets) or fetch without --mirror",
        );
      }
      bytes = b;
    } else if (spec.upstream.kind === "url") {
      from = mapUrl(spec.upstream.url);
      bytes = await download(from, spec.path, log, timeoutMs);
    } else {
      from = mapUrl(spec.upstream.url);
      let members = zips.get(from);
      if (!members) {
        members = unzipMembers(await download(from, from.split("/").pop()!, log, timeoutMs), from);
        zips.set(from, members);
      }
      const want = spec.upstream.member;
      const name = typeof want === "string" ? want : Object.keys(members).find((m) => want.test(m));
      if (name === undefined || !members[name]) {
        throw new KitError(`${from} has no member ${String(want)}; the archive may have changed`);
      }
      bytes = members[name];
      from = `${from}!${name}`;
    }
    if (spec.text) bytes = normalizeLineEnds(bytes);
    const got = await sha256Hex(bytes);
    if (got !== spec.sha256) {
      const aside = `${dir}/rejected/${spec.path}.${got.slice(0, 12)}`;
      // Keeping the bad copy is a courtesy: failing to (a full disk) must not hide the mismatch.
      const kept = await writeFileAtomic(aside, bytes, { force: true, write: options.write })
        .then(() => `The file was kept aside at ${aside} and NOT installed`)
        .catch((e) => `The file was NOT installed (nor kept aside: ${(e as Error).message})`);
      throw new KitError(
        `checksum mismatch for ${spec.path} from ${from}: expected sha256 ${spec.sha256}, got ` +
          `${got}. ${kept}; the source may be corrupt or a different version`,
      );
    }
    verified.push({ spec, bytes });
  }
  for (const { spec, bytes } of verified) {
    await writeFileAtomic(`${dir}/${spec.path}`, bytes, { force: true, write: options.write });
    log(`  installed ${spec.path} (${mb(bytes.length)} MB, sha256 ok)`);
  }
  const marker: InstallMarkerData = {
    dataset,
    source: options.mirror ? `mirror:${options.mirror}` : "upstream",
    files: Object.fromEntries(
      specs.map((s) => [s.path, { sha256: s.sha256, ...fileStamp(`${dir}/${s.path}`) }]),
    ),
  };
  await writeFileAtomic(installMarker(dir, dataset), JSON.stringify(marker, null, 2) + "\n", {
    force: true,
    write: options.write,
  });
  log(
    `${dataset}: ${verified.length} file(s) installed, ${unchanged.length} already up to date`,
  );
  return {
    dataset,
    dir,
    installed: verified.map((v) => v.spec.path),
    unchanged,
  };
}
