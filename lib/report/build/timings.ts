/**
 * Where a report's time goes: each stage of a build records the spans it ran, and the build
 * prints one line at its end (`timings: kernel start 4.1 s, browser start 7.9 s, ... total
 * 98.0 s`), so a slow report says which stage to look at without a profiler; the browser's
 * start is one, so the line of a build whose lessons are all reused adds up. Stages run
 * concurrently (a page is checked while the next notebook executes), so a stage's time is the
 * sum of its spans, and the line says when the stages' sum exceeds the build's wall time, or a
 * stage's own spans overlap one another (its wall time then follows).
 *
 * @module
 */

/** The stages of a report build, in the order the line names them. */
export const STAGES = [
  /** The runner's and its kernel's start, until the first cell can run. */
  "kernel start",
  /**
   * Chromium's launch, and the figure renderer's start (plotly.js loaded in a tab) when a
   * notebook is executed: a build whose lessons are all reused starts the browser alone.
   */
  "browser start",
  /** The unchanged lessons' files copied from the previous report (cache.ts). */
  "reuse",
  /** The notebooks' cells. */
  "execute",
  /** `evaluateSystems`: the runs read, scored and evaluated (page 00). */
  "systems",
  /** The figures' static images (PNG fallbacks drawn in Chromium). */
  "images",
  /** nbconvert and KaTeX: the pages. */
  "export",
  /** The pages opened offline in Chromium and checked (figures, requests, fonts, TeX). */
  "checks",
  /** The pages' full-page screenshots. */
  "screenshots",
  /** The slides: exported and checked. */
  "slides",
  /** A lesson's solutions page and student edition, and the syllabus. */
  "course",
  /** The pages printed, the PDF united and checked. */
  "pdf",
  /** The executed notebooks, the index and `summary.json` written. */
  "write",
] as const;

/** One stage of {@link STAGES}. */
export type Stage = typeof STAGES[number];

/** Runs `fn` as a span of `stage` (a {@link StageTimes}'s `time`). */
export type TimeStage = <T>(stage: Stage, fn: () => Promise<T>) => Promise<T>;

/**
 * The spans of each stage of one build, and the line that sums them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { StageTimes } from "./timings.ts";
 * const t = new StageTimes(0);
 * t.add("execute", 0, 2000);
 * t.add("checks", 1000, 2500);
 * t.add("checks", 1500, 2000);
 * const line = t.line(3000);
 * assert.match(line, /^timings: kernel start 0\.0 s, browser start 0\.0 s, reuse 0\.0 s, execute 2\.0 s, /);
 * assert.match(line, /checks 2\.0 s \(1\.5 s wall\)/);
 * assert.match(line, /total 3\.0 s \(stages summed 4\.0 s: they overlap\)$/);
 * ```
 */
export class StageTimes {
  readonly #spans = new Map<Stage, [number, number][]>();
  readonly #started: number;

  /** `started`: the build's start (`performance.now()`, the default). */
  constructor(started = performance.now()) {
    this.#started = started;
  }

  /** Records a span of `stage` from `start` to `end` (milliseconds, `performance.now()`). */
  add(stage: Stage, start: number, end: number): void {
    const spans = this.#spans.get(stage) ?? [];
    spans.push([start, Math.max(start, end)]);
    this.#spans.set(stage, spans);
  }

  /** Runs `fn` and records its span as `stage` (also when it throws). */
  time: TimeStage = async (stage, fn) => {
    const start = performance.now();
    try {
      return await fn();
    } finally {
      this.add(stage, start, performance.now());
    }
  };

  /** Seconds of `stage`: its spans summed, and their union (its wall time). */
  seconds(stage: Stage): { summed: number; wall: number } {
    const spans = [...(this.#spans.get(stage) ?? [])].sort((a, b) => a[0] - b[0]);
    let summed = 0, wall = 0, reach = -Infinity;
    for (const [s, e] of spans) {
      summed += e - s;
      if (e > reach) wall += e - Math.max(s, reach), reach = e;
    }
    return { summed: summed / 1000, wall: wall / 1000 };
  }

  /** The line: every stage in order, then the build's wall time until `end` (default: now). */
  line(end = performance.now()): string {
    let summed = 0;
    const parts = STAGES.map((stage) => {
      const s = this.seconds(stage);
      summed += s.summed;
      const wall = s.wall < s.summed - 0.05 ? ` (${s.wall.toFixed(1)} s wall)` : "";
      return `${stage} ${s.summed.toFixed(1)} s${wall}`;
    });
    const total = (end - this.#started) / 1000;
    const overlap = summed > total + 0.05
      ? ` (stages summed ${summed.toFixed(1)} s: they overlap)`
      : "";
    return `timings: ${parts.join(", ")}; total ${total.toFixed(1)} s${overlap}`;
  }
}
