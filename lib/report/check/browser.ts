/**
 * Headless Chromium for the report: static figure images, PDF printing and the page
 * checks. Driven by npm `playwright-core` against the system's Chromium (Debian
 * `chromium`); the browser is never downloaded by a tool. Every page is offline: any
 * request that is not for a `file:`, `data:` or `blob:` URL is aborted and recorded, so
 * a report that needs the network shows up as a failure instead of a silent fetch.
 *
 * @module
 */
import type { Browser, BrowserContext, Page } from "npm:playwright-core@1.65.1";
import { KitError } from "../../errors.ts";
import { makeKitTempDir, systemTempDir } from "../../io/temp.ts";
import { onInterrupt } from "../../io/interrupt.ts";
import { type Descendant, descendants, killDescendants } from "./process_tree.ts";

/** Where Debian installs Chromium; `$KIT_CHROMIUM` overrides it. */
export function chromiumPath(): string {
  return Deno.env.get("KIT_CHROMIUM") ?? "/usr/bin/chromium";
}

/**
 * Flags for a headless, offline Chromium that works as root (see docs/notebooks.md); the
 * profile is a fresh temporary folder made by playwright.
 */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

/** The window pages are checked in: as wide as the printed page's layout. */
const PAGE_WINDOW = { width: 1000, height: 900 };

/** The capture under way in each browser ({@link captureInFront}): the next waits for it. */
const captures = new WeakMap<Browser, Promise<void>>();

/** A browser session (playwright gives it a fresh temporary profile). */
export interface BrowserSession {
  /** The running browser. */
  browser: Browser;
  /** One context (window 1000x900: the PDF's layout width) shared by the session's pages. */
  context: BrowserContext;
  /** Closes the browser. */
  close(): Promise<void>;
}

/**
 * Starts headless Chromium. Throws a `KitError` naming the Debian
 * package when the binary is missing.
 */
export async function launchBrowser(): Promise<BrowserSession> {
  const path = chromiumPath();
  try {
    await Deno.stat(path);
  } catch {
    throw new KitError(
      `Chromium not found at ${path}: install Debian 'chromium' (or set KIT_CHROMIUM)`,
    );
  }
  // playwright gives every launch a fresh temporary profile in the system's temporary folder
  // (it refuses --user-data-dir) and removes it on close. A report killed outright leaves it
  // behind, so profiles no running process names are swept first. (Pointing TMPDIR at a kit
  // folder instead would change it for the whole process while Chromium starts: another task
  // of the process making a temporary folder then would lose it when the browser closes.)
  sweepOrphanProfiles();
  // Chromium's own temporary folders (org.chromium.Chromium.*) and playwright's artifacts
  // folder go into a kit folder named with this process's id: removed on close and on
  // Ctrl-C, and swept by the next command that makes one when this process was killed.
  const scratch = await makeKitTempDir("kit-chromium-");
  // On an interrupt every Chromium process is killed first, so that none writes there after it
  // is removed: those with this folder as their TMPDIR, their process group (playwright starts
  // Chromium as a group leader), and those naming its profile (its zygotes, which outlived a
  // killed browser and wrote to the removed profile again). Then this folder and that profile go
  // (playwright removes it on close, which an interrupt skips). Nothing is said: the browser is
  // the kit's own business (a report says it stopped it).
  const ours = (d: Descendant) => {
    try {
      return Deno.readTextFileSync(`/proc/${d.pid}/environ`).split("\0")
        .includes(`TMPDIR=${scratch}`);
    } catch {
      return false; // gone, or not readable: not one of ours
    }
  };
  const profiles = new Set<string>();
  const profileOf = (a: string) => {
    const path = a.startsWith("--user-data-dir=") ? a.slice("--user-data-dir=".length) : "";
    return path.split("/").pop()!.startsWith(PROFILE_PREFIX) ? path : undefined;
  };
  const recordProfiles = (tree: Descendant[]) => {
    for (const path of tree.flatMap((d) => d.argv).map(profileOf)) if (path) profiles.add(path);
  };
  const removeScratch = onInterrupt(() => {
    // One read of /proc before anything is signalled (a killed leader's helpers are re-parented).
    const tree = descendants();
    recordProfiles(tree.filter(ours));
    const picked = (d: Descendant) =>
      ours(d) || d.argv.some((a) => profiles.has(profileOf(a) ?? ""));
    for (const d of tree.filter(picked)) {
      try {
        Deno.kill(-d.pid, "SIGKILL");
      } catch { /* not a group leader, or gone */ }
    }
    killDescendants(picked);
    for (const path of [scratch, ...profiles]) {
      try {
        Deno.removeSync(path, { recursive: true });
      } catch { /* gone */ }
    }
  });
  let browser: Browser;
  try {
    await Deno.mkdir(`${scratch}/artifacts`);
    // Loaded here, not at start-up: a command that stops before it needs a browser (a refused
    // flag, a report whose lessons are all reused) does not pay for playwright-core.
    const { chromium } = await import("npm:playwright-core@1.65.1");
    browser = await chromium.launch({
      executablePath: path,
      args: CHROMIUM_ARGS.filter((a) => a !== "--headless"),
      headless: true,
      env: { ...Deno.env.toObject(), TMPDIR: scratch },
      artifactsDir: `${scratch}/artifacts`,
    });
  } catch (e) {
    await Deno.remove(scratch, { recursive: true }).catch(() => {});
    removeScratch();
    throw e;
  }
  recordProfiles(descendants().filter(ours));
  // Pages are laid out at the printed width, so one load serves the checks and the PDF.
  const context = await browser.newContext({ viewport: PAGE_WINDOW });
  return {
    browser,
    context,
    async close() {
      try {
        await browser.close();
      } finally {
        await Deno.remove(scratch, { recursive: true }).catch(() => {});
        removeScratch();
      }
    },
  };
}

/** A local load that failed, with what Chromium said about it. */
export interface FailedLoad {
  /** The URL requested. */
  url: string;
  /** Chromium's resource type (`Document`, `Script`, `Image`, `Stylesheet`, `Other`, ...). */
  type: string;
  /** What issued it: the DevTools initiator type (`parser`, `script`, `preload`, `other`). */
  initiator: string;
  /**
   * Chromium's error text (`net::ERR_FILE_NOT_FOUND`) and, when it blocked the load, its
   * blocked or CORS reason.
   */
  reason: string;
}

/** What happened on a page besides its rendering. */
export interface PageLog {
  /** Uncaught exceptions in page scripts: the message and where it was thrown. */
  pageErrors: string[];
  /** `console.error` messages. */
  consoleErrors: string[];
  /** URLs the page tried to load from the network (all were aborted). */
  blockedRequests: string[];
  /** Local resources of the page (its document, frames, scripts, styles, images) that failed. */
  failedRequests: FailedLoad[];
  /**
   * Failed loads that the page did not ask for (e.g. the page's URL requested again by a
   * DevTools call of the checker): kept for the record, never a failure of the page.
   */
  ignoredRequests: FailedLoad[];
}

/**
 * What a page check reports of a page's log ({@link offlinePage}): its five lists as they
 * stand now (copies: events that arrive while the page closes do not change a result).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pageLogSnapshot, type PageLog } from "./browser.ts";
 * const log: PageLog = { pageErrors: ["x"], consoleErrors: [], blockedRequests: ["https://a/"],
 *   failedRequests: [], ignoredRequests: [] };
 * const seen = pageLogSnapshot(log);
 * log.pageErrors.push("later");
 * assert.deepEqual(seen, { pageErrors: ["x"], consoleErrors: [], blockedRequests: ["https://a/"],
 *   failedRequests: [], ignoredRequests: [] });
 * ```
 */
export function pageLogSnapshot(log: PageLog): PageLog {
  return {
    pageErrors: [...log.pageErrors],
    consoleErrors: [...log.consoleErrors],
    blockedRequests: [...log.blockedRequests],
    failedRequests: [...log.failedRequests],
    ignoredRequests: [...log.ignoredRequests],
  };
}

/** What the DevTools protocol said when a request was sent (`Network.requestWillBeSent`). */
export interface SentRequest {
  /** The URL requested. */
  url: string;
  /** Resource type (`Document`, `Image`, `Other`, ...). */
  type: string;
  /** Initiator type: `parser`, `script`, `preload`, `SignedExchange`, `preflight` or `other`. */
  initiator: string;
  /** Whether it is a frame's navigation (its request id is the loader id). */
  navigation: boolean;
}

/** Initiators that mean the page's own HTML or scripts asked for the resource. */
const PAGE_INITIATORS = new Set(["parser", "script", "preload", "SignedExchange", "preflight"]);

/**
 * Whether a request is the page's own: a frame's navigation (the page's document, an iframe)
 * or a resource its HTML or scripts asked for. Anything else (initiator `other` without a
 * navigation: a request made by the browser or by a DevTools call, such as the page's URL
 * requested again after `CSS.enable`, seen in Chromium 150) is not the page's, and a page
 * never loads its own document as a resource.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { requestOfPage } from "./browser.ts";
 * const page = "file:///r/html/06-qrcd.html";
 * assert(requestOfPage({ url: page, type: "Document", initiator: "other", navigation: true }, page));
 * assert(requestOfPage({ url: "file:///r/x.png", type: "Image", initiator: "parser", navigation: false }, page));
 * // Chromium 150 after CSS.enable: the page's URL again, resource type Other.
 * assert(!requestOfPage({ url: page, type: "Other", initiator: "other", navigation: false }, page));
 * assert(!requestOfPage({ url: page, type: "Other", initiator: "script", navigation: false }, page));
 * ```
 */
export function requestOfPage(r: SentRequest, pageUrl: string | undefined): boolean {
  if (r.navigation) return r.type === "Document";
  if (pageUrl !== undefined && r.url.split("#")[0] === pageUrl.split("#")[0]) return false;
  return PAGE_INITIATORS.has(r.initiator);
}

/** An uncaught page error as one line: its message and the first place in its stack. */
function errorLine(e: Error): string {
  const at = (e.stack ?? "").split("\n").map((l) => l.trim()).find((l) => l.startsWith("at "));
  return `${e.name && e.name !== "Error" ? `${e.name}: ` : ""}${e.message}${at ? ` (${at})` : ""}`;
}

/**
 * A new page in `session` that cannot reach the network, with a log of its errors and
 * attempted requests. Failed loads are read from the DevTools protocol's network events,
 * which say who asked for each request (its initiator) and why it failed (error text,
 * blocked reason), so only the page's own loads count ({@link requestOfPage}).
 */
export async function offlinePage(session: BrowserSession): Promise<{ page: Page; log: PageLog }> {
  const page = await session.context.newPage();
  try {
    return { page, log: await offline(page) };
  } catch (e) {
    await page.close().catch(() => {});
    throw e;
  }
}

/**
 * Runs `capture` (a screenshot of `page`) with `page` in front, one capture at a time in each
 * browser. The session's pages share one context, whose window shows one page. Three of the
 * report's lesson pages (`file:` URLs) open at once ran `requestAnimationFrame` 1-2 times a
 * second behind and 62 times in front (pages of `data:` URLs ran about 60 times each in an
 * outside probe: which pages Chromium holds back was not found out), and a full-page screenshot
 * of a page behind could come out with the part below the window filled with copies of its first
 * screen, a deck with rows missing (Playwright issue 30331). Two whole builds captured one at a
 * time without bringing the page to front had 2 and 1 of their 24 lesson and deck screenshots
 * wrong; with it, none, and each the same bytes as with every page in a context of its own.
 * `tests/report/screenshot_test.ts` catches it only sometimes (captures taken together: 1 of 1
 * runs here, 1 of 6 in an outside tester's; one at a time but behind: 1 of 3 or 4). Pages behind
 * still load, lay out, draw their figures and print; what Chromium paints for the screen waits,
 * which is also why checking them together is cheap: the twelve lessons' pages, decks and
 * solutions pages, four at once, took 70.8 and 59.5 CPU-s so, against 81.4 and 79.2 with each
 * page in a context (and window) of its own (docs/report.md, "A second build: the cache").
 * A capture stuck on a hung page holds the ones after it until its own timeout (playwright's
 * screenshot: 30 s).
 *
 * @example
 * ```ts ignore
 * await captureInFront(page, () => page.screenshot({ path: "page.png", fullPage: true }));
 * ```
 */
export async function captureInFront<T>(page: Page, capture: () => Promise<T>): Promise<T> {
  const browser = page.context().browser();
  const before = (browser && captures.get(browser)) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => done = resolve);
  if (browser) captures.set(browser, mine);
  try {
    await before;
    await page.bringToFront();
    return await capture();
  } finally {
    done();
    if (browser && captures.get(browser) === mine) captures.delete(browser);
  }
}

/** Refuses `page`'s network requests and logs its errors, its failed and refused loads. */
async function offline(page: Page): Promise<PageLog> {
  const log: PageLog = {
    pageErrors: [],
    consoleErrors: [],
    blockedRequests: [],
    failedRequests: [],
    ignoredRequests: [],
  };
  page.on("pageerror", (e) => log.pageErrors.push(errorLine(e)));
  page.on("console", (m) => {
    if (m.type() === "error") log.consoleErrors.push(m.text());
  });
  const network = await page.context().newCDPSession(page);
  const sent = new Map<string, SentRequest>();
  let pageUrl: string | undefined;
  network.on("Network.requestWillBeSent", (e) => {
    const r: SentRequest = {
      url: e.request.url,
      type: e.type ?? "Other",
      initiator: e.initiator.type,
      navigation: e.requestId === e.loaderId,
    };
    pageUrl ??= r.navigation ? r.url : undefined; // the first navigation: the page itself
    sent.set(e.requestId, r);
  });
  network.on("Network.loadingFailed", (e) => {
    const r = sent.get(e.requestId) ??
      { url: "(unknown)", type: e.type ?? "Other", initiator: "none", navigation: false };
    if (log.blockedRequests.includes(r.url)) return; // refused network access, listed there
    const reason = e.errorText + (e.blockedReason ? ` (blocked: ${e.blockedReason})` : "") +
      (e.corsErrorStatus ? ` (CORS: ${e.corsErrorStatus.corsError})` : "") +
      (e.canceled ? " (canceled)" : "");
    const failed = { url: r.url, type: r.type, initiator: r.initiator, reason };
    (requestOfPage(r, pageUrl) ? log.failedRequests : log.ignoredRequests).push(failed);
  });
  await network.send("Network.enable");
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (/^(file|data|blob|about):/.test(url)) return route.continue();
    log.blockedRequests.push(url);
    return route.abort("blockedbyclient");
  });
  return log;
}

/** The prefix of playwright's temporary Chromium profiles. */
const PROFILE_PREFIX = "playwright_chromiumdev_profile-";

/**
 * Removes playwright's Chromium profiles in the temporary folder that no running process
 * names on its command line (`--user-data-dir=...`) and that are over a minute old (a launch
 * under way has made its profile before Chromium runs); returns the paths removed. Where
 * /proc cannot tell which processes run, nothing is removed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sweepOrphanProfiles } from "./browser.ts";
 * const tmp = await Deno.makeTempDir();
 * await Deno.mkdir(`${tmp}/playwright_chromiumdev_profile-new`);
 * assert.deepEqual(sweepOrphanProfiles(tmp), []); // too young to be an orphan
 * await Deno.mkdir(`${tmp}/playwright_chromiumdev_profile-left`);
 * const hourAgo = new Date(Date.now() - 3_600_000);
 * Deno.utimeSync(`${tmp}/playwright_chromiumdev_profile-left`, hourAgo, hourAgo);
 * assert.deepEqual(sweepOrphanProfiles(tmp), [`${tmp}/playwright_chromiumdev_profile-left`]);
 * ```
 */
export function sweepOrphanProfiles(dir = systemTempDir()): string[] {
  let names: string[];
  try {
    Deno.statSync("/proc/self");
    names = [...Deno.readDirSync(dir)]
      .filter((e) => e.isDirectory && e.name.startsWith(PROFILE_PREFIX)).map((e) => e.name);
  } catch {
    return [];
  }
  if (names.length === 0) return [];
  const named = new Set<string>();
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const argv = Deno.readTextFileSync(`/proc/${e.name}/cmdline`);
      for (const m of argv.matchAll(new RegExp(`${PROFILE_PREFIX}[^\\0/]+`, "g"))) {
        named.add(m[0]);
      }
    } catch { /* gone meanwhile, or not ours to read */ }
  }
  const removed: string[] = [];
  for (const name of names) {
    const path = `${dir}/${name}`;
    try {
      const age = Date.now() - (Deno.statSync(path).mtime?.getTime() ?? Date.now());
      if (named.has(name) || age < 60_000) continue;
      Deno.removeSync(path, { recursive: true });
      removed.push(path);
    } catch { /* removed meanwhile */ }
  }
  return removed;
}
