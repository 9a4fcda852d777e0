/**
 * `await display(x)`: the one way a notebook cell shows something (a figure, a table, a
 * headline, Markdown). It returns once the output has left the kernel, so every Jupyter
 * client keeps it: plain `jupyter nbconvert --execute`, nbclient, papermill, Notebook,
 * JupyterLab and VS Code. (Deno 2.9's kernel can report a cell finished before its outputs
 * are written; `iopub.ts` explains why and how the wait works.)
 *
 * It also decides which figure carries plotly.js (4.8 MB), so that every page that shows
 * figures has the library once, without one copy per figure. A figure embeds it when
 *
 * - it is the first figure since the kernel started (a fresh run, a kernel restart);
 * - a frontend connected since the last copy was sent (a reloaded or reopened page: the
 *   page may show only outputs saved before, and a figure drawn now must not depend on
 *   them);
 * - its cell is the one that carried the last copy, run again (its old output, with the
 *   library, is being replaced).
 *
 * So a notebook run from the top, in any frontend or by nbconvert, carries plotly.js in its
 * first figure; a saved notebook keeps a copy as long as that cell's output is kept. Figures
 * shown before the library on a page wait for it; a page with no copy at all (a carrier
 * cleared by hand) says so in each figure instead of leaving an empty box.
 *
 * Outside a kernel (a script, `deno test`), `display` prints the plain-text form.
 *
 * @module
 */
import { DISPLAY, type Displayable, figureBundle, isFigure, type MimeBundle } from "./display.ts";
import type { Figure } from "./figures.ts";
import { IopubWatcher, kernelConnectionFile, readConnectionInfo } from "./iopub.ts";
import { type Row, tableBundle } from "./table.ts";

/**
 * What `display` shows: a figure, anything with a Jupyter display bundle (a table, a headline,
 * Markdown), or a plain value: a number, string or boolean as text, an array of records or one
 * record (an object of numbers and strings) as a table, anything else as `Deno.inspect` shows it.
 */
export type Showable = Figure | Displayable | unknown;

/** Options of {@link display}. */
export interface DisplayOptions {
  /** Embed plotly.js in this figure whatever the rules say (`false`: never). */
  library?: boolean;
}

interface KernelSession {
  /** The iopub subscription; absent when it could not be made (then a pause stands in). */
  watcher?: IopubWatcher;
}

/** Undefined outside a kernel; the session once connected. */
let session: Promise<KernelSession | undefined> | undefined;
/**
 * Subscriptions that failed in a row. On a loaded machine the kernel can take seconds to add a
 * subscriber; without one, `display` falls back to a pause, which the kernel's race can beat
 * (an output lost, or shown under the next cell). So a failed subscription is tried again at
 * the next `display`, a few times, rather than given up for the whole session.
 */
let failedConnects = 0;
const CONNECT_TRIES = 4;
const CONNECT_TIMEOUT_MS = 15_000;

async function connect(): Promise<KernelSession | undefined> {
  const file = kernelConnectionFile();
  if (!file || typeof Deno.jupyter?.display !== "function") return undefined;
  const info = readConnectionInfo(file);
  if (!info) return {};
  try {
    const watcher = await IopubWatcher.connect(info, CONNECT_TIMEOUT_MS);
    failedConnects = 0;
    return { watcher };
  } catch {
    failedConnects++;
    return {};
  }
}

// In a kernel, subscribe as soon as the module is loaded (usually the notebook's first
// cell), so the watcher sees the code of every later cell run.
if (kernelConnectionFile()) session = connect();

/** The kernel session, reconnecting when the subscription was lost. */
async function kernelSession(): Promise<KernelSession | undefined> {
  session ??= connect();
  const s = await session;
  const retry = s?.watcher
    ? s.watcher.closed
    : failedConnects > 0 && failedConnects < CONNECT_TRIES;
  if (retry) {
    session = connect();
    return await session;
  }
  return s;
}

// Where plotly.js was embedded last (see the module documentation).
const library = {
  sent: false,
  /** `frontendConnects` when the last copy was sent. */
  connectsAtSend: 0,
  /** Code of the cells whose runs carried a copy. */
  carrierCodes: new Set<string>(),
  /** The request (cell run) that carried the last copy. */
  lastCarrier: undefined as string | undefined,
};

/**
 * Makes the next figure embed plotly.js again, whatever the rules say (for a page that lost
 * its copy in a way the kernel cannot see, e.g. an output cleared by hand).
 *
 * @example
 * ```ts
 * import { embedLibraryAgain } from "./show.ts";
 * embedLibraryAgain();
 * ```
 */
export function embedLibraryAgain(): void {
  library.sent = false;
}

async function carriesLibrary(s: KernelSession): Promise<boolean> {
  if (!library.sent) return true;
  const w = s.watcher;
  if (!w) return false;
  // Sync first: the running cell's execute_input and any kernel_info are then read.
  const parent = await w.sync().catch(() => undefined);
  if (w.frontendConnects > library.connectsAtSend) return true;
  const running = parent?.msg_id;
  const code = running ? w.codes.get(running) : undefined;
  return running !== library.lastCarrier && code !== undefined && library.carrierCodes.has(code);
}

function noteCarrier(s: KernelSession, parent: { msg_id?: string } | undefined): void {
  library.sent = true;
  const w = s.watcher;
  if (!w) return;
  library.connectsAtSend = w.frontendConnects;
  library.lastCarrier = parent?.msg_id;
  const code = parent?.msg_id ? w.codes.get(parent.msg_id) : undefined;
  if (code !== undefined) library.carrierCodes.add(code);
}

/**
 * Waits until what the cell queued has been written to the frontends; returns the header of
 * the request being run (undefined without a subscription).
 */
async function flush(s: KernelSession, bytes: number): Promise<{ msg_id?: string } | undefined> {
  if (s.watcher && !s.watcher.closed) {
    try {
      return await s.watcher.sync();
    } catch {
      s.watcher.close();
    }
  }
  // No subscription: a pause long enough for the kernel to sign and write the message
  // (measured: 20 ms kept every output of 160 small ones; large ones need longer).
  await new Promise((r) => setTimeout(r, 20 + Math.ceil(bytes / 100_000)));
  return undefined;
}

function bundleOf(value: Showable, withLibrary: boolean): MimeBundle {
  if (isFigure(value)) return figureBundle(value, { includeLibrary: withLibrary });
  const make = (value as Partial<Displayable> | null | undefined)?.[DISPLAY];
  if (typeof make === "function") return make.call(value);
  return plainBundle(value);
}

/**
 * A record whose values a table cell holds: numbers, strings, booleans, null, undefined, and
 * arrays (a family test's `same` pairs), which a cell shows as JSON.
 */
function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(value).every((v) =>
    v == null || Array.isArray(v) || ["string", "number", "boolean"].includes(typeof v)
  );
}

/** A record as a table row: an array as its JSON text (empty: nothing). */
function asRow(record: Record<string, unknown>): Row {
  return Object.fromEntries(
    Object.entries(record).map((
      [k, v],
    ) => [k, Array.isArray(v) ? (v.length ? JSON.stringify(v) : "") : v as Row[string]]),
  );
}

/**
 * The bundle of a plain value: text for a number, string or boolean; a table for an array of
 * records or one record; `Deno.inspect`'s text for anything else.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plainBundle } from "./show.ts";
 * assert.equal(plainBundle(237)["text/plain"], "237");
 * assert.equal(plainBundle("MAP 0.59")["text/plain"], "MAP 0.59");
 * assert.match(String(plainBundle([{ system: "bm25", MAP: 0.5931 }])["text/html"]), /<table/);
 * assert.match(String(plainBundle({ MAP: 0.5931, MRR: 0.6024 })["text/html"]), /0\.6024/);
 * assert.equal(plainBundle([1, 2])["text/plain"], "[ 1, 2 ]");
 * // A family test's records (an array field: its `same` pairs) are a table too.
 * assert.match(String(plainBundle([{ a: "x", p: 0.5, same: [["y", "z"]] }])["text/plain"]), /\[\["y","z"\]\]/);
 * ```
 */
export function plainBundle(value: unknown): MimeBundle {
  if (typeof value === "string") return { "text/plain": value };
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") {
    return { "text/plain": String(value) };
  }
  if (Array.isArray(value) && value.length > 0 && value.every(isRecord)) {
    return tableBundle(value.map(asRow));
  }
  if (isRecord(value) && Object.keys(value).length > 0) return tableBundle([asRow(value)]);
  return { "text/plain": Deno.inspect(value, { colors: false, depth: 4 }) };
}

function sizeOf(bundle: MimeBundle): number {
  let n = 0;
  for (const v of Object.values(bundle)) n += typeof v === "string" ? v.length : 1000;
  return n;
}

/**
 * Shows a figure, table, headline, Markdown or a plain value (a number, a string, records as a
 * table) in the notebook and waits until the output has left the kernel. Every output of a
 * notebook cell goes through it: `await display(x)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bar, display, table } from "./mod.ts";
 * // Outside a kernel the plain-text form is printed.
 * const printed: string[] = [];
 * const log = console.log;
 * console.log = (text: string) => printed.push(text);
 * try {
 *   await display(table([{ system: "BM25", MAP: 0.61 }]));
 *   await display(bar(["MAP"], [{ name: "BM25", values: [0.61] }]));
 *   await display(237);
 * } finally {
 *   console.log = log;
 * }
 * assert(printed.length === 3 && /BM25/.test(printed[0]) && /MAP/.test(printed[0]));
 * assert.equal(printed[2], "237");
 * ```
 */
export async function display(value: Showable, options: DisplayOptions = {}): Promise<void> {
  const s = await kernelSession();
  if (!s) {
    console.log(String(bundleOf(value, false)["text/plain"] ?? ""));
    return;
  }
  const figure = isFigure(value);
  const withLibrary = figure && (options.library ?? await carriesLibrary(s));
  const bundle = bundleOf(value, withLibrary);
  await Deno.jupyter.display(bundle, { raw: true });
  const parent = await flush(s, sizeOf(bundle));
  if (withLibrary) noteCarrier(s, parent);
}

/**
 * Markdown text as a displayable value (rendered in notebooks, shown as is in text views).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { markdown } from "./show.ts";
 * const m = markdown("**3** of 10 correct");
 * assert.equal(m[Symbol.for("Jupyter.display")]()["text/markdown"], "**3** of 10 correct");
 * ```
 */
export function markdown(text: string): Displayable {
  return { [DISPLAY]: () => ({ "text/markdown": text, "text/plain": text }) };
}
