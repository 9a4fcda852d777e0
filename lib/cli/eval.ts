/**
 * `deno task eval <trec|as2|...>`: `trec`, the statistics commands, and each task's own
 * commands (lib/tasks/registry.ts), in registry order.
 *
 * @module
 */
import { TASKS } from "../tasks/registry.ts";
import type { Command } from "./command.ts";
import { trecCommand } from "./eval_trec.ts";
import { compareCommand, stabilityCommand, tiesCommand } from "./stats.ts";

/**
 * The `eval` command group: `trec`, each task's commands, then `compare`, `ties`, `stability`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evalCommands } from "./eval.ts";
 * const names = Object.keys(await evalCommands());
 * assert.deepEqual(names.slice(0, 2), ["trec", "as2"]);
 * assert.equal(names.at(-1), "stability");
 * ```
 */
export async function evalCommands(): Promise<Record<string, Command>> {
  const out: Record<string, Command> = { trec: trecCommand };
  for (const task of TASKS) {
    for (const [name, command] of Object.entries(await task.evalCommands())) {
      if (Object.hasOwn(out, name)) {
        throw new Error(`task ${task.name}: eval ${name} is already a command`);
      }
      out[name] = command;
    }
  }
  return { ...out, compare: compareCommand, ties: tiesCommand, stability: stabilityCommand };
}
