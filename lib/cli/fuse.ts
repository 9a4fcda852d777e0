/**
 * `deno task fuse RUN... --method M [--norm N] [--weights W,...] [--k 60] --out FUSED`: rank
 * fusion of TREC runs (ranx's methods, `lib/fusion`) into a TREC run.
 *
 * @module
 */
import { KitError } from "../errors.ts";
import { fuse, FUSION_METHODS, NORMALIZATIONS } from "../fusion/mod.ts";
import { readRun, writeRun } from "../metrics/mod.ts";
import { checkStdinOnce } from "../io/source.ts";
import type { Command } from "./command.ts";
import {
  FORCE_OPTION,
  oneOf,
  OUT_OPTION,
  outputFlag,
  parseFlags,
  RELEASE_OPTION,
  RUN_ID_OPTION,
  str,
  trecRelease,
} from "./args.ts";

function number(raw: string, flag: string): number {
  const x = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(x)) {
    throw new KitError(`${flag} takes numbers, got '${raw}'`);
  }
  return x;
}

/** The largest rrf constant: past it, 1/(k + rank) of ranks 1 and 1000 differ by under 1e-9. */
const MAX_RRF_K = 1_000_000;

function rrfK(raw: string): number {
  const k = number(raw, "--k");
  if (k > MAX_RRF_K) {
    throw new KitError(
      `--k takes at most ${MAX_RRF_K} (past it rrf's 1/(k + rank) no longer tells ranks apart), ` +
        `got '${raw}'`,
    );
  }
  return k;
}

/** The `fuse` command. */
export const fuseCommand: Command = {
  summary: "fuse runs into one (rrf, combsum, combmnz, wsum, max, min, anz, med; as ranx)",
  positionals: [{ name: "RUN", help: "a TREC run", repeat: { min: 2 } }],
  options: [
    { ...OUT_OPTION, required: true },
    {
      name: "method",
      value: FUSION_METHODS.join("|"),
      default: "rrf",
      help: "the fusion method (definitions in docs/fusion.md)",
    },
    {
      name: "norm",
      value: NORMALIZATIONS.join("|"),
      default: "min-max",
      help: "score normalization before fusing (ranx's default)",
    },
    { name: "weights", value: "W1,W2,...", help: "wsum's weights, one per run" },
    { name: "k", value: "K", help: "rrf's constant (default 60)" },
    RUN_ID_OPTION,
    FORCE_OPTION,
    RELEASE_OPTION,
  ],
  async run(args) {
    const p = parseFlags(args, fuseCommand);
    const paths = p.positionals;
    const method = oneOf(str(p, "method")!, FUSION_METHODS, "method");
    const norm = oneOf(str(p, "norm")!, NORMALIZATIONS, "norm");
    const weightsRaw = str(p, "weights");
    const weights = weightsRaw?.split(",").map((w) => number(w, "--weights"));
    const kRaw = str(p, "k");
    if (kRaw !== undefined && method !== "rrf") throw new KitError("--k is rrf's parameter");
    // Relative paths are the caller's: main moved to INIT_CWD (lib/cli/main.ts). The output is
    // checked before the runs are read.
    const { path: out, force } = (await outputFlag(p))!;
    // Standard input can be read once (a second '-' would find it empty).
    checkStdinOnce(paths.map((path, i) => [`run ${i + 1}`, path] as const));
    const runs = [];
    const release = trecRelease(p); // read as `eval trec` reads them ('#' lines in 10.0)
    for (const path of paths) runs.push(await readRun(path, { release }));
    const fused = fuse(runs, {
      method,
      norm,
      weights,
      k: kRaw === undefined ? undefined : rrfK(kRaw),
      names: paths,
    });
    // Ranks written in full precision (ranx's order); `eval trec` ranks by its release.
    await writeRun(out, fused, {
      runId: str(p, "run-id") ?? method,
      force,
      release: "10.0",
    });
    let docs = 0;
    for (const d of fused.values()) docs += d.size;
    console.error(
      `fused ${paths.length} runs (${method}, ${norm === "none" ? "no normalization" : norm}): ` +
        `${fused.size} queries, ${docs} documents -> ${out}`,
    );
  },
};
