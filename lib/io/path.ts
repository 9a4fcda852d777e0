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

/**
 * The last part of a path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { basename } from "./path.ts";
 * assert(basename("/a/b/c.txt") === "c.txt" && basename("c.txt") === "c.txt");
 * ```
 */
export function basename(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/**
 * `path` made absolute against `base` (default: the working folder), with `.` and `..`
 * parts resolved lexically.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolvePath } from "./path.ts";
 * assert(resolvePath("../c", "/a/b") === "/a/c" && resolvePath("/x/./y", "/a") === "/x/y");
 * ```
 */
export function resolvePath(path: string, base: string = Deno.cwd()): string {
  const parts: string[] = [];
  for (const p of (path.startsWith("/") ? path : `${base}/${path}`).split("/")) {
    if (p === "" || p === ".") continue;
    if (p === "..") parts.pop();
    else parts.push(p);
  }
  return "/" + parts.join("/");
}

/**
 * Whether `path` is a regular file (links followed); false when it is missing or anything else.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isFile } from "./path.ts";
 * const file = await Deno.makeTempFile();
 * assert.equal(isFile(file), true);
 * assert.equal(isFile(`${file}.none`), false);
 * ```
 */
export function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}
