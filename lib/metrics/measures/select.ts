/**
 * `-m` as trec_eval reads it, plus ir_measures' names: which table entries to compute, with
 * which parameters, under which output names, in which order.
 *
 * trec_eval's rules: `-m NAME` or `-m NAME.PARAMS` (the name is everything before the first
 * `.`), repeatable; a nickname (`official`, `set`, `all_trec`) marks its group; output in table
 * order whatever the order of `-m`. One deliberate difference: trec_eval 9.0.8 keeps only the
 * first parameter list given for a measure (`-m P.5 -m P.10` prints P_5 alone); the kit takes
 * the union of the cutoffs (P_5 and P_10) rather than drop a requested line silently. For
 * measures with one line (`utility`, `ndcg`, ...) the first list is used and the kit warns. The kit also reads the output
 * form `P_5` (a cutoff measure with one cutoff) and ir_measures names (`AP@100`,
 * `P(rel=2)@5`) and ranx names (`ndcg@10`, `mrr`, `hit_rate@5`), which print under the name
 * as written, after the trec_eval names, in the order given.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import type { AnyMeasure, NamedPair } from "./measure.ts";
import { paramLines } from "./params.ts";
import { findMeasure, MEASURES, nicknames, NOT_IMPLEMENTED } from "./table.ts";
import { rbpLeftovers } from "./release10.ts";
import { DEFAULT_RELEASE, type TrecRelease } from "../release.ts";
import { parseIrMeasure, type QueryView } from "./ir_measures.ts";
import { parseRanxMeasure } from "./ranx_names.ts";

/** One output line of a selection: a table entry with its parameter and output name. */
export interface MeasureInstance {
  /** Output name (`map`, `P_5`, `ndcg_1=3,2=9`, `P(rel=2)@5`). */
  label: string;
  measure: AnyMeasure;
  /** This line's parameter (a cutoff, a fraction, a list of numbers, gain pairs). */
  param: unknown;
  /** The query view of an ir_measures name (its own `rel`, `judged_only`, `gains`). */
  view?: QueryView;
}

/** What `-m` selected: every output line in output order. */
export interface MeasureSelection {
  /** Output lines in order: summary-only (runid, num_q), per-query values and texts. */
  instances: MeasureInstance[];
  /** Whether the runid line is printed. */
  runid: boolean;
  /** Whether a num_q line is printed. */
  numQ: boolean;
}

/** What a selection depends on besides the names. */
export interface SelectOptions {
  /**
   * The trec_eval release (default 9.0.8): its `all_trec`, and its own measures (10.0's
   * `rbp`, `rbp_resid`, `unj`, an error under 9.0.8).
   */
  release?: TrecRelease;
  /** `-l` (default 1): whether gm_map's value can exceed 1 (see `rbpLeftovers`). */
  level?: number;
}

/**
 * Parses measure names as trec_eval's `-m` takes them (`map`, `P.5,10`, `P` with its
 * default cutoffs, `official`, `all_trec`, `ndcg.1=3,2=9`, `iprec_at_recall..1,.5`), the
 * output form `P_5`, and ir_measures names (`AP@100`, `nDCG@10`, `P(rel=2)@5`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { selectMeasures } from "./select.ts";
 * const s = selectMeasures(["P.5,10", "map", "AP@100"]);
 * assert(s.instances.map((i) => i.label).join() === "map,P_5,P_10,AP@100");
 * assert.throws(() => selectMeasures([""]), /illegal measure ''/); // as trec_eval
 * ```
 */
export function selectMeasures(
  names: readonly string[],
  warn: (message: string) => void = (m) => console.warn(m),
  options: SelectOptions = {},
): MeasureSelection {
  const release = options.release ?? DEFAULT_RELEASE;
  const groups = nicknames(release);
  const marked = new Set<string>();
  const params = new Map<string, string[]>();
  const ir: MeasureInstance[] = [];
  for (const raw of names) {
    const spec = raw.trim();
    if (spec === "") {
      throw new KitError(
        `illegal measure '${raw}': -m takes a measure name (trec_eval stops on it too)`,
      );
    }
    const dot = spec.indexOf(".");
    let name = dot < 0 ? spec : spec.slice(0, dot);
    let given = dot < 0 ? undefined : spec.slice(dot + 1);
    const outputForm = dot < 0 ? /^(.+)_(\d+)$/.exec(spec) : null;
    if (outputForm && findMeasure(outputForm[1])?.params === "cutoffs") {
      name = outputForm[1];
      given = outputForm[2];
    }
    const only = findMeasure(name)?.release;
    if (only && only !== release) {
      throw new KitError(
        `measure '${spec}' is trec_eval ${only}'s (--trec-eval ${only}); ` +
          `trec_eval ${release} has no such measure`,
      );
    }
    if (groups[name]) {
      if (given !== undefined) throw new KitError(`measure group '${name}' takes no parameters`);
      for (const n of groups[name]) marked.add(n);
    } else if (findMeasure(name)) {
      marked.add(name);
      if (given === undefined) continue;
      const lists = params.get(name) ?? [];
      params.set(name, [...lists, given]);
      const kind = findMeasure(name)!.params;
      if (lists.length && kind !== "cutoffs" && kind !== "fractions" && lists[0] !== given) {
        warn(
          `warning: ${name} already has parameters '${lists[0]}'; '${given}' is ignored, as ` +
            "trec_eval does",
        );
      }
    } else if (NOT_IMPLEMENTED[name]) {
      throw new KitError(`measure '${spec}' ${NOT_IMPLEMENTED[name]}`);
    } else {
      const m = parseIrMeasure(spec) ?? parseRanxMeasure(spec);
      if (!m) {
        throw new KitError(
          `unknown measure '${spec}' (trec_eval names, all_trec, official, ir_measures ` +
            "names such as AP@100 or ranx names such as ndcg@10; deno task eval trec -h " +
            "lists them)",
        );
      }
      if (!ir.some((x) => x.label === spec)) ir.push({ label: spec, ...m });
    }
  }
  const instances: MeasureInstance[] = [];
  for (const m of MEASURES) {
    if (!marked.has(m.name)) continue;
    const lists = params.get(m.name);
    const lines = !lists || lists.length === 1
      ? paramLines(m, lists?.[0])
      : m.params === "cutoffs" || m.params === "fractions"
      ? lists.flatMap((raw) => paramLines(m, raw))
        .filter((l, i, all) => all.findIndex((x) => x.label === l.label) === i)
        .sort((a, b) => (a.param as number) - (b.param as number))
      : paramLines(m, lists[0]);
    for (const line of lines) instances.push({ label: line.label, measure: m, param: line.param });
  }
  const rbp = instances.find((i) => i.measure.name === "rbp");
  if (rbp && release === "10.0") {
    const gains = (rbp.param as NamedPair[]).some((x) => /^[+-]?[0-9]+$/.test(x.name));
    const spoiler = rbpLeftovers([...marked], options.level ?? 1, gains);
    if (spoiler) {
      throw new KitError(
        `measure '${rbp.label}' after '${spoiler}': trec_eval 10.0's rbp reads two variables ` +
          `it never sets (min and max in m_rbp.c), which hold what ${spoiler} left there and ` +
          "change its value: not reproducible. Evaluate rbp in another -m list, or add -m " +
          "num_nonrel_judged_ret, which clears them (docs/measures.md)",
      );
    }
  }
  instances.push(...ir);
  return {
    instances,
    runid: instances.some((i) => i.measure.name === "runid"),
    numQ: instances.some((i) => i.measure.name === "num_q"),
  };
}
