/**
 * Where the kit itself is: its root folder, or the URL it was imported from. Apart from the
 * corpora's paths (`paths.ts`), so that what needs only the root (the command line's entry
 * point) does not load the corpus verification and its `node:crypto`.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { fromFileUrl } from "../io/path.ts";

/** The kit's root: a folder when imported by path or `file:` URL, else the URL it came from. */
const ROOT_URL = new URL("../../", import.meta.url);

/**
 * Whether the kit's own files are on this machine's disk: false when the kit was imported by
 * URL (`https://...`), where only its code came over, not its folders (samples, cache, tools).
 */
export const KIT_ON_DISK: boolean = ROOT_URL.protocol === "file:";

/**
 * The project's root folder (two levels above this file). When the kit is imported by URL it
 * is that URL, which no file API opens: what needs the folder says so ({@link kitFolder}).
 */
export const PROJECT_ROOT: string = (KIT_ON_DISK ? fromFileUrl(ROOT_URL) : ROOT_URL.href)
  .replace(/\/$/, "");

/**
 * A folder of the kit's own (`data/samples`, `data/cache`), or a clear error when the kit was
 * imported by URL and has no folders here (`what` says what was wanted, `instead` what to do).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { kitFolder, PROJECT_ROOT } from "./root.ts";
 * assert.equal(kitFolder("data/samples", "the samples", "-"), `${PROJECT_ROOT}/data/samples`);
 * ```
 */
export function kitFolder(relative: string, what: string, instead: string): string {
  if (KIT_ON_DISK) return `${PROJECT_ROOT}/${relative}`;
  throw new KitError(
    `no ${what} here: ${relative} is a folder of the kit, which was imported from ` +
      `${ROOT_URL.href} (a URL import brings the code, not the folders); ${instead}`,
  );
}

/**
 * The kit's data folders, which no command's output replaces (`checkOutput`, the report): the
 * corpus cache (`$QA_KIT_DATA_DIR` and the project's `data/cache`, with the score cache and the
 * downloaded models inside) and the bundled samples. Empty when the kit was imported by URL
 * and no `QA_KIT_DATA_DIR` is set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { kitDataFolders, PROJECT_ROOT } from "./root.ts";
 * assert(kitDataFolders().includes(`${PROJECT_ROOT}/data/samples`));
 * ```
 */
export function kitDataFolders(): string[] {
  const env = Deno.env.get("QA_KIT_DATA_DIR");
  const folders = env ? [env] : [];
  if (KIT_ON_DISK) folders.push(`${PROJECT_ROOT}/data/cache`, `${PROJECT_ROOT}/data/samples`);
  return folders;
}
