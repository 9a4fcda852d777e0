/**
 * The kit's tasks, one entry each, in the order lists, commands and docs show them. Adding a
 * task is one folder (its corpus entries, readers, checks, measures, commands: see
 * docs/CONVENTIONS.md) and one entry here; `addTask` (./mod.ts) adds one at run time, as the
 * tests do.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { AS2_TASK } from "./as2.ts";
import type { ReportPart, Task } from "./task.ts";
import { QRCD_TASK } from "../qrcd/task.ts";
import { QQA23_TASK } from "../qqa23/task.ts";

/** The tasks, in order: answer selection, QRCD reading comprehension, Qur'an QA 2023 Task A. */
export const TASKS: Task[] = [AS2_TASK, QRCD_TASK, QQA23_TASK];

/**
 * The task of a name; an unknown name is an error listing the known ones.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findTask } from "./registry.ts";
 * assert.equal(findTask("as2").measures[0].label, "MAP");
 * assert.throws(() => findTask("squad"), /unknown task 'squad' \(expected: as2, /);
 * ```
 */
export function findTask(name: string): Task {
  const task = TASKS.find((t) => t.name === name);
  if (!task) {
    throw new KitError(`unknown task '${name}' (expected: ${TASKS.map((t) => t.name).join(", ")})`);
  }
  return task;
}

/**
 * The report parts of the tasks, in registry order: each task's own section of page 00.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportParts } from "./registry.ts";
 * assert.ok(reportParts().every((p) => p.key !== "" && p.runFlag.startsWith("--")));
 * ```
 */
export function reportParts(): ReportPart[] {
  return TASKS.flatMap((t) => t.report ? [t.report] : []);
}
