/** Small path helpers (no JSR `@std/path` here). @module */

/**
 * Converts a `file:` URL to a path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fromFileUrl } from "./path.ts";
 * assert(fromFileUrl(new URL("file:///tmp/a%20b")) === "/tmp/a b");
 * ```
 */
export function fromFileUrl(url: URL | string): string {
  const u = typeof url === "string" ? new URL(url) : url;
  if (u.protocol !== "file:") throw new TypeError(`not a file URL: ${u.href}`);
  return decodeURIComponent(u.pathname);
}

/**
 * The folder part of a path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { dirname } from "./path.ts";
 * assert(dirname("/a/b/c.txt") === "/a/b" && dirname("c.txt") === ".");
 * ```
 */
export function dirname(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "." : i === 0 ? "/" : path.slice(0, i);
}
