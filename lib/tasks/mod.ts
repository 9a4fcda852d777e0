/**
 * The task interface and registry: what each task of the kit is (lib/tasks/task.ts), the
 * tasks (./registry.ts), and adding one at run time.
 *
 * @module
 */
import { addDataset, DATASETS } from "../data/datasets.ts";
import { KitError } from "../errors.ts";
import { findTask, TASKS } from "./registry.ts";
import type { Task } from "./task.ts";

export { findTask, TASKS };
export type { ScoreRequest, Task, TaskBaseline, TaskMeasure } from "./task.ts";

/**
 * Adds a task and its corpora (after checking its name is new and a plain word, that it has
 * one primary measure, and that each corpus names it as its task).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { addTask } from "./mod.ts";
 * import { AS2_TASK } from "./as2.ts";
 * assert.throws(() => addTask({ ...AS2_TASK }), /task 'as2' is already defined/);
 * ```
 */
export function addTask(task: Task): Task {
  if (TASKS.some((t) => t.name === task.name)) {
    throw new KitError(`task '${task.name}' is already defined`);
  }
  if (!/^[a-z][a-z0-9]*$/.test(task.name)) {
    throw new KitError(`task name '${task.name}' is not a plain lower-case word`);
  }
  if (task.measures.filter((m) => m.primary).length !== 1) {
    throw new KitError(`task ${task.name}: one measure must be the primary one`);
  }
  for (const corpus of task.corpora) {
    if (corpus.task !== task.name) {
      throw new KitError(`task ${task.name}: corpus ${corpus.name} names task '${corpus.task}'`);
    }
    if (DATASETS.some((d) => d.name === corpus.name)) {
      throw new KitError(`task ${task.name}: dataset '${corpus.name}' is already defined`);
    }
  }
  TASKS.push(task);
  for (const corpus of task.corpora) addDataset(corpus);
  return task;
}
