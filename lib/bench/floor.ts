/**
 * The floor of `bench eval`: what no evaluation of a pair of files can avoid, reading their
 * bytes and looking at each of them once, on one core. A plain loop counts the newlines of
 * each read, one byte at a time: any parser visits every byte at least that way (it has to
 * find where each field ends), so the benchmark prints each tool's time as a multiple of this
 * one. (A floor that finds each newline with its own `indexOf` call pays a call per line, which
 * no parser must: at 100,000 queries it took 1.6-1.7x this loop's CPU time, and made every tool
 * look closer to the floor than it is.) Run as a script (`deno run -A lib/bench/floor.ts FILE...`), as the benchmark
 * times it, beside the tools and started the same way, it prints the lines and bytes it read.
 *
 * @module
 */

/** What {@link readEveryByte} read. */
export interface FloorCount {
  /** Newlines found (the lines of files that end with one). */
  lines: number;
  bytes: number;
}

/**
 * Reads files with synchronous reads of 256 KiB (the kit's read size, `READ_CHUNK`) and counts
 * the newlines of each read with a plain loop over its bytes: the floor of any evaluation of
 * them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readEveryByte } from "./floor.ts";
 * const path = await Deno.makeTempFile();
 * await Deno.writeTextFile(path, "q1 0 d1 1\nq1 0 d2 0\n");
 * assert.deepEqual(readEveryByte([path, path]), { lines: 4, bytes: 40 });
 * assert.deepEqual(readEveryByte([path], 3), { lines: 2, bytes: 20 }); // reads of 3 bytes
 * ```
 */
export function readEveryByte(paths: readonly string[], bufferBytes = 1 << 18): FloorCount {
  const buf = new Uint8Array(bufferBytes);
  let lines = 0, bytes = 0;
  for (const path of paths) {
    const file = Deno.openSync(path);
    try {
      for (;;) {
        const n = file.readSync(buf);
        if (n === null || n === 0) break;
        bytes += n;
        lines += newlinesIn(buf, n);
      }
    } finally {
      file.close();
    }
  }
  return { lines, bytes };
}

/**
 * The newlines of `data[0, n)`, each byte looked at once. A function of its own, called per
 * read: V8 optimizes it as called, not on the stack.
 */
function newlinesIn(data: Uint8Array, n: number): number {
  let lines = 0;
  for (let i = 0; i < n; i++) if (data[i] === 10) lines++;
  return lines;
}

if (import.meta.main) {
  const { lines, bytes } = readEveryByte(Deno.args);
  console.log(`${lines} lines, ${bytes} bytes`);
  if (Deno.env.get("QA_KIT_PEAK_RSS") === "1") {
    const m = /VmHWM:\s*(\d+)/.exec(Deno.readTextFileSync("/proc/self/status"));
    if (m) console.error(`peak-rss-kb: ${m[1]}`);
  }
}
