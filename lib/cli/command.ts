/** The shape of one CLI subcommand. @module */

/** One subcommand: a summary line, a usage line and its implementation. */
export interface Command {
  /** One line shown in the command list. */
  summary: string;
  /** Arguments and flags, shown by `--help`. */
  usage: string;
  /** Runs with the arguments after the subcommand; returns the exit status (default 0). */
  run(args: string[]): Promise<number | void>;
}
