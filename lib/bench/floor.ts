/**
 * The floor of `bench eval`: what reading the files and splitting them into lines costs, on
 * one core, with nothing else done. No evaluation can take less (it reads the same bytes and
 * finds the same line ends), so the benchmark prints each tool's time as a multiple of it.
 * Run as a script (`deno run -A lib/bench/floor.ts FILE...`), as the benchmark times it,
 * beside the tools and started the same way, it prints the lines and bytes it read.
 *
 * @module
 */

/** What {@link readAndSplitLines} read. */
export interface FloorCount {
  /** Newlines found (the lines of files that end with one). */
  lines: number;
  bytes: number;
}

/**
 * Reads files with synchronous 4 MiB reads (as the kit reads a path) and finds every newline
 * (`indexOf`, the engine's native byte search): the floor of any evaluation of them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readAndSplitLines } from "./floor.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "q1 0 d1 1\nq1 0 d2 0\n");
 * assert.deepEqual(readAndSplitLines([path, path]), { lines: 4, bytes: 40 });
 * ```
 */
export function readAndSplitLines(paths: readonly string[], bufferBytes = 1 << 22): FloorCount {
  const buf = new Uint8Array(bufferBytes);
  let lines = 0, bytes = 0;
  for (const path of paths) {
    const file = Deno.openSync(path);
    try {
      for (;;) {
        const n = file.readSync(buf);
        if (n === null || n === 0) break;
        bytes += n;
        const data = n === buf.length ? buf : buf.subarray(0, n);
        for (let i = data.indexOf(10); i >= 0; i = data.indexOf(10, i + 1)) lines++;
      }
    } finally {
      file.close();
    }
  }
  return { lines, bytes };
}

if (import.meta.main) {
  const { lines, bytes } = readAndSplitLines(Deno.args);
  console.log(`${lines} lines, ${bytes} bytes`);
  if (Deno.env.get("QA_KIT_PEAK_RSS") === "1") {
    const m = /VmHWM:\s*(\d+)/.exec(Deno.readTextFileSync("/proc/self/status"));
    if (m) console.error(`peak-rss-kb: ${m[1]}`);
  }
}
