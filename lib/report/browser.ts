/**
 * Headless Chromium for the report: static figure images, PDF printing and the page
 * checks. Driven by npm `playwright-core` against the system's Chromium (Debian
 * `chromium`); the browser is never downloaded by a tool. Every page is offline: any
 * request that is not for a `file:`, `data:` or `blob:` URL is aborted and recorded, so
 * a report that needs the network shows up as a failure instead of a silent fetch.
 *
 * @module
 */
import { chromium } from "npm:playwright-core@1.65.1";
import type { Browser, BrowserContext, Page } from "npm:playwright-core@1.65.1";
import { KitError } from "../errors.ts";

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

/** A browser session (playwright gives it a fresh temporary profile). */
export interface BrowserSession {
  /** The running browser. */
  browser: Browser;
  /** One context (viewport 1000x900: the PDF's layout width) shared by the session's pages. */
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
  // playwright gives every launch a fresh temporary profile (it refuses --user-data-dir)
  // and adds --headless itself.
  const browser = await chromium.launch({
    executablePath: path,
    args: CHROMIUM_ARGS.filter((a) => a !== "--headless"),
    headless: true,
  });
  // Pages are laid out at the printed width, so one load serves the checks and the PDF.
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
  return {
    browser,
    context,
    async close() {
      await browser.close();
    },
  };
}

/** What happened on a page besides its rendering. */
export interface PageLog {
  /** Uncaught exceptions in page scripts. */
  pageErrors: string[];
  /** `console.error` messages. */
  consoleErrors: string[];
  /** URLs the page tried to load from the network (all were aborted). */
  blockedRequests: string[];
  /** Local files or data the page loaded that failed. */
  failedRequests: string[];
}

/**
 * A new page in `session` that cannot reach the network, with a log of its errors and
 * attempted requests.
 */
export async function offlinePage(session: BrowserSession): Promise<{ page: Page; log: PageLog }> {
  const page = await session.context.newPage();
  const log: PageLog = {
    pageErrors: [],
    consoleErrors: [],
    blockedRequests: [],
    failedRequests: [],
  };
  page.on("pageerror", (e) => log.pageErrors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error") log.consoleErrors.push(m.text());
  });
  page.on("requestfailed", (r) => {
    const url = r.url();
    if (!log.blockedRequests.includes(url)) log.failedRequests.push(url);
  });
  await page.route("**/*", (route) => {
    const url = route.request().url();
    if (/^(file|data|blob|about):/.test(url)) return route.continue();
    log.blockedRequests.push(url);
    return route.abort("blockedbyclient");
  });
  return { page, log };
}
