/**
 * `deno task bench <eval|compare|scoring|report>`: throughput and memory (the report: its waits),
 * side by side with the alternatives present on the machine, measured in one run.
 *
 * @module
 */
import { benchScoringCommand } from "../bench/scoring.ts";
import { benchEvalCommand } from "../bench/eval.ts";
import { benchCompareCommand } from "../bench/compare.ts";
import { benchReportCommand } from "../bench/report.ts";
import type { Command } from "./command.ts";

/** The `bench` command group. */
export const benchCommands: Record<string, Command> = {
  eval: benchEvalCommand,
  compare: benchCompareCommand,
  scoring: benchScoringCommand,
  report: benchReportCommand,
};
