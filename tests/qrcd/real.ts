/**
 * Where the real QRCD corpus is, for the tests that need it: the fetched cache when
 * `data fetch qrcd` installed it there, else undefined (the test is then ignored, with a reason).
 */
import { defaultCacheDir, isInstalled } from "../../lib/data/paths.ts";

/** The corpus folder holding `qrcd/`, or undefined when the corpus is not fetched. */
export function qrcdRealDir(): string | undefined {
  if (isInstalled("qrcd")) return defaultCacheDir();
  console.log("QRCD corpus not fetched (deno task data fetch qrcd): real-data tests ignored");
  return undefined;
}
