/**
 * The report's cache: a second `./kit report` with nothing changed takes seconds, not minutes,
 * and a changed lesson is the only one built again.
 *
 * **The key.** A lesson's key is the SHA-256 of: its notebook's bytes; every file of `lib/`
 * (all of it, not the modules it imports: every lesson imports `lib/mod.ts`, which reaches
 * nearly all of it, and the build's own code is there too), `deno.json` and `deno.lock`; the
 * data it reads (`--data sample`: every file of `data/samples/`; `real`: each corpus's install
 * marker, which records every installed file's hash, size and times); `--model` (and, when it
 * is a folder or file, each file's path, size and modification time) and `--backend`; the
 * environment the kernels read (`KIT_MODEL`, `KIT_BACKEND`, `KIT_PLOTLY_JS`, `HF_ENDPOINT`;
 * `QA_KIT_DATA_DIR` with real data) and the files of the model lesson 03 scores with; the
 * options that change its files (`--no-slides`, `--slides-code`); and the tools' versions:
 * Deno, Chromium (`chromium --version`), the Python that runs the notebooks and its Jupyter
 * packages (`jupyterVersions`). The report's key adds the lessons' keys in order, `--no-pdf`
 * and `--show-code`. Not in the key: fonts and other system packages (after an upgrade of
 * those, `--rebuild`). Page `00-your-systems` is not cached: its numbers are computed anew on
 * each build (`evaluateSystems`), and a report with systems is never reused whole.
 *
 * **Where it lives.** In the report folder itself: `.kit-cache/keys.json` (each lesson's key
 * and its summary entry, the report's key and result) and `.kit-cache/parts/` (each lesson's
 * part of the PDF). The lesson's other files are the report's own (its page, slides,
 * solutions, student edition, executed notebook, screenshot). The cache is written with the
 * report: a new report is built in a folder beside the old one and takes its place only when
 * complete and checked (workspace.ts), so an interrupted or failed build never leaves a
 * half-written entry, and the cache is cleaned with the report (a lesson no longer built
 * leaves it; deleting the folder deletes it). Another `--out` starts empty.
 *
 * **A hit.** A lesson whose key is the one recorded, and whose every file is still the one the
 * report's manifest (`.kit-report`, foreign.ts) lists with its size and SHA-256, is copied
 * from the previous report instead of executed, exported, printed and checked: the copy is
 * byte-identical to what the last build wrote and checked, with the same tools, so the hit
 * trusts that check (its results are in the recorded entry, and the report still fails on
 * them). The index, syllabus and PDF are made and checked again unless every lesson hit,
 * the report's key is the one recorded and no file the report wrote has changed since: then
 * the previous report is left as it is, not one byte written. Each hit is said on stderr
 * (`02-filters: unchanged, reused`); `--rebuild` reads nothing from the cache (and records a
 * new one). The record is the kit's own: one deleted, changed since, unreadable or another
 * version's means nothing reused, said in one line, and the build goes on and records a fresh
 * one (the folder's checks take the cache's files the report wrote as the kit's: foreign.ts).
 *
 * @module
 */
import { createHash } from "node:crypto";
import { defaultCacheDir, PROJECT_ROOT, SAMPLES_DIR } from "../../data/paths.ts";
import { writeFileAtomic } from "../../io/atomic.ts";
import { chromiumPath } from "../check/browser.ts";
import { jupyterPython, jupyterVersions } from "./execute.ts";
import { filesBelow, readMarker } from "./foreign.ts";
import { relocate } from "./workspace.ts";
import { notebookFiles, type PlannedOptions } from "./planned.ts";
import { SYSTEMS_NOTEBOOK } from "./notebooks.ts";
import { CACHE_KEYS, cachedPart } from "./cache_files.ts";
import { type KitParams, scoringModel } from "../notebook/params.ts";

export { CACHE_KEYS, cachedPart };

/** Bumped when what a key covers or what an entry holds changes: older records then miss. */
const SCHEMA = 1;

/** Stands for the report folder in recorded paths. */
const HERE = "<report>/";

/** What of a report's options the cache reads. */
export interface CacheOptions extends PlannedOptions {
  params: { data: string; model?: string; backend?: string };
  slidesCode?: boolean;
  showCode?: boolean;
  /** Reuse nothing (`--rebuild`). */
  rebuild?: boolean;
}

/** What `.kit-cache/keys.json` holds. */
interface Recorded {
  schema: number;
  notebooks: Record<string, { key: string; entry: unknown }>;
  report?: { key: string; result: unknown };
}

/** The SHA-256 of a file's bytes, hex; undefined when it cannot be read. */
function sha256Of(path: string): string | undefined {
  try {
    return createHash("sha256").update(Deno.readFileSync(path)).digest("hex");
  } catch {
    return undefined;
  }
}

/** A tool's first line of `--version` output ("" when it does not run). */
async function versionOf(cmd: string): Promise<string> {
  try {
    const out = await new Deno.Command(cmd, {
      args: ["--version"],
      stdout: "piped",
      stderr: "null",
    })
      .output();
    return new TextDecoder().decode(out.stdout).split("\n")[0].trim();
  } catch {
    return "";
  }
}

/** Each file below `dir` (or `dir` itself, a file) with its size and modification time. */
function stamps(dir: string): string {
  try {
    const st = Deno.statSync(dir);
    if (st.isFile) return `${dir} ${st.size} ${st.mtime?.getTime()}`;
    return filesBelow(dir).map((f) => stamps(`${dir}/${f}`)).join("\n");
  } catch {
    return "";
  }
}

/**
 * The key every lesson's key starts from: the kit's sources, the data, the parameters, the
 * options that change a lesson's files and the tools' versions (see the module's doc).
 */
export async function baseKey(options: CacheOptions): Promise<string> {
  const [chromium, jupyter] = await Promise.all([versionOf(chromiumPath()), jupyterVersions()]);
  const h = createHash("sha256");
  const add = (label: string, value: string | Uint8Array) =>
    h.update(`${label}\0`).update(value).update("\0");
  add("schema", String(SCHEMA));
  const sources = [...filesBelow(`${PROJECT_ROOT}/lib`).map((f) => `lib/${f}`), "deno.json"];
  for (const f of [...sources, "deno.lock"]) add(f, sha256Of(`${PROJECT_ROOT}/${f}`) ?? "-");
  if (options.params.data === "sample") {
    for (const f of filesBelow(SAMPLES_DIR)) {
      add(`samples/${f}`, Deno.readFileSync(`${SAMPLES_DIR}/${f}`));
    }
  } else {
    const cache = defaultCacheDir();
    const corpora = [...Deno.readDirSync(cache)].map((e) => e.name).sort();
    for (const c of corpora) add(`corpus ${c}`, sha256Of(`${cache}/${c}/.installed.json`) ?? "-");
  }
  const { data, model, backend } = options.params;
  // What a kernel reads from the environment it inherits (a shell's KIT_MODEL reaches lesson 03
  // when --model is not given; QA_KIT_DATA_DIR moves the real corpora); the model it scores
  // with is the one whose files are stamped (the default fixture included). Named, not every
  // KIT_ variable: a variable no notebook reads must not turn every lesson into a miss.
  const read = ["KIT_MODEL", "KIT_BACKEND", "KIT_PLOTLY_JS", "HF_ENDPOINT"];
  if (data !== "sample") read.push("QA_KIT_DATA_DIR");
  add("environment", JSON.stringify(read.map((name) => [name, Deno.env.get(name) ?? null])));
  const used = scoringModel({
    data: data as KitParams["data"],
    model: model ?? Deno.env.get("KIT_MODEL"),
    backend: (backend ?? "auto") as KitParams["backend"],
  });
  add("model files", stamps(used));
  const plotly = Deno.env.get("KIT_PLOTLY_JS");
  if (plotly) add("plotly.js", stamps(plotly));
  add("params", JSON.stringify({ data, model, backend }));
  add("options", JSON.stringify({ slides: options.slides !== false, code: !!options.slidesCode }));
  const python = jupyterPython();
  add("versions", JSON.stringify({ deno: Deno.version, chromium, python, jupyter }));
  return h.digest("hex");
}

/** The cache of one build: which notebooks hit, reusing them, recording the new report. */
export interface ReportCache {
  /** Whether this notebook's files are reused from the previous report. */
  hit(file: string): boolean;
  /**
   * The previous report's result, when the report is unchanged as a whole (nothing is to
   * be written), with `outDir` and `seconds` of this call.
   */
  unchanged<R>(): R | undefined;
  /**
   * Copies a hit's files from the previous report into the new one `dir` (its PDF part to
   * `part`, when given) and returns its recorded entry, its paths in `dir`.
   */
  reuse<E>(name: string, dir: string, part?: string): Promise<E>;
  /**
   * Records the finished report in `dir`: its lessons' PDF parts (`partOf(i)`: entry i's)
   * and `.kit-cache/keys.json`.
   */
  save(
    dir: string,
    result: { notebooks: { name: string }[]; outDir?: string },
    partOf: (i: number) => string | undefined,
  ): Promise<void>;
}

/**
 * Opens the cache of a build of `names` into `outDir`: reads the previous report's record and
 * manifest, and decides which notebooks hit (none with `rebuild`).
 */
export async function openCache(
  outDir: string,
  srcDir: string,
  names: readonly string[],
  options: CacheOptions,
  log: (line: string) => void,
): Promise<ReportCache> {
  const started = performance.now();
  // Without a key (the kit's sources or the corpus folder cannot be listed), nothing is cached.
  // Page 00 alone has none to compute (about 0.6 s: lib/ hashed, Chromium and Python asked).
  const lessons = names.some((file) => file !== SYSTEMS_NOTEBOOK);
  const base = lessons ? await baseKey(options).catch(() => undefined) : undefined;
  const keys = new Map<string, string>();
  for (const file of names) {
    if (file === SYSTEMS_NOTEBOOK || base === undefined) continue;
    const bytes = Deno.readFileSync(`${srcDir}/${file}`);
    keys.set(file, createHash("sha256").update(base).update(bytes).digest("hex"));
  }
  const reportKey = createHash("sha256").update(JSON.stringify({
    names,
    keys: [...keys.values()],
    pdf: options.pdf !== false,
    showCode: !!options.showCode,
    systems: options.systems !== undefined,
  })).digest("hex");
  const read = options.rebuild ? undefined : readRecord(outDir);
  if (read?.why) log(`${CACHE_KEYS} ${read.why}: nothing is reused, the build records it anew`);
  const previous = read && read.why === undefined ? read : undefined;
  const hits = new Set<string>();
  for (const [file, key] of keys) {
    const name = file.replace(/\.ipynb$/, "");
    if (previous?.record.notebooks[name]?.key !== key) continue;
    const files = notebookFiles(file, options);
    if (files.every((f) => previous.intact(f))) hits.add(file);
  }
  const whole = previous !== undefined && options.systems === undefined &&
    hits.size === names.length && previous.record.report?.key === reportKey &&
    previous.unchangedSince();
  const recorded = (name: string) => previous!.record.notebooks[name].entry;
  return {
    hit: (file) => hits.has(file),
    unchanged<R>() {
      if (!whole) return undefined;
      for (const file of names) log(`${file.replace(/\.ipynb$/, "")}: unchanged, reused`);
      log(`report unchanged: ${outDir}/ is left as it is (--rebuild builds it anew)`);
      const result = relocate(previous.record.report!.result, HERE, `${outDir}/`);
      const seconds = (performance.now() - started) / 1000;
      return { ...(result as object), outDir, seconds } as R;
    },
    async reuse<E>(name: string, dir: string, part?: string) {
      for (const f of notebookFiles(`${name}.ipynb`, options)) {
        await Deno.mkdir(`${dir}/${f.slice(0, f.lastIndexOf("/"))}`, { recursive: true });
        await Deno.copyFile(`${outDir}/${f}`, `${dir}/${f}`);
      }
      if (part) await Deno.copyFile(`${outDir}/${cachedPart(name)}`, part);
      log(`${name}: unchanged, reused`);
      return relocate(recorded(name), HERE, `${dir}/`) as E;
    },
    async save(dir, result, partOf) {
      const record: Recorded = { schema: SCHEMA, notebooks: {} };
      for (const [i, entry] of result.notebooks.entries()) {
        const key = keys.get(`${entry.name}.ipynb`);
        if (key === undefined) continue;
        const part = partOf(i + 1);
        if (part) {
          await Deno.mkdir(`${dir}/.kit-cache/parts`, { recursive: true });
          await Deno.copyFile(part, `${dir}/${cachedPart(entry.name)}`);
        }
        record.notebooks[entry.name] = { key, entry: relocate(entry, `${dir}/`, HERE) };
      }
      // The result as it will read in the report folder, less the PDF's text (summary.json's).
      const r = result as { pdfCheck?: object; outDir?: string };
      const stored = {
        ...r,
        outDir: undefined,
        pdfCheck: r.pdfCheck && { ...r.pdfCheck, text: "" },
      };
      record.report = { key: reportKey, result: relocate(stored, `${dir}/`, HERE) };
      await Deno.mkdir(`${dir}/.kit-cache`, { recursive: true });
      await writeFileAtomic(`${dir}/${CACHE_KEYS}`, JSON.stringify(record) + "\n", { force: true });
    },
  };
}

/**
 * The previous report's record, when it is a finished kit report whose record is still the
 * one it wrote: with `intact(path)` (the file is the one its manifest lists, same size and
 * hash) and `unchangedSince()` (no file the report wrote changed or went since). A kit report
 * whose record cannot be used (missing, changed since, unreadable, another version's) gives
 * `why` instead, said in one line: the record is the kit's own, and the build goes on without
 * it. No kit report (no manifest), nothing: the folder's checks (workspace.ts) speak for it.
 */
function readRecord(outDir: string) {
  let marker;
  try {
    marker = readMarker(outDir);
  } catch {
    return undefined;
  }
  if (marker.kind !== "manifest") return undefined;
  const files = marker.files;
  const seen = new Map<string, boolean>(); // each file hashed once per build
  const intact = (path: string) => {
    const entry = files.get(path);
    if (!entry) return false;
    if (!seen.has(path)) {
      try {
        const st = Deno.lstatSync(`${outDir}/${path}`);
        const ok = st.isFile && st.size === entry.bytes;
        seen.set(path, ok && sha256Of(`${outDir}/${path}`) === entry.sha256);
      } catch {
        seen.set(path, false);
      }
    }
    return seen.get(path)!;
  };
  const failed = (why: string) => ({ why });
  if (!intact(CACHE_KEYS)) {
    try {
      Deno.lstatSync(`${outDir}/${CACHE_KEYS}`);
    } catch {
      return failed("is missing");
    }
    return failed("changed since the report wrote it");
  }
  let record: Recorded;
  try {
    record = JSON.parse(Deno.readTextFileSync(`${outDir}/${CACHE_KEYS}`));
  } catch {
    return failed("cannot be read");
  }
  if (record?.schema !== SCHEMA || typeof record.notebooks !== "object") {
    return failed("was written by another version of the kit");
  }
  // Every file the report wrote is still there, the same (files added beside them are the user's).
  const unchangedSince = () => [...files.keys()].every(intact);
  return { why: undefined, record, intact, unchangedSince };
}
