/**
 * Parameters as trec_eval's `-m NAME.PARAMS` parses them: comma-separated, numbers read as
 * C's `atol` / `atof` read them (`23.4` is the cutoff 23), cutoffs sorted and checked, the
 * output names trec_eval gives (`P_5`, `iprec_at_recall_0.10`, `utility_2,-1,0,0`).
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import { formatFixedC } from "../c_printf.ts";
import type { AnyMeasure, GainPair, NamedPair } from "./measure.ts";

/**
 * C's `atol`: leading white space, a sign, decimal digits; whatever follows is ignored and
 * no digits read 0.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cAtol } from "./params.ts";
 * assert(cAtol("23.4") === 23 && cAtol(" -7x") === -7 && cAtol("x") === 0);
 * ```
 */
export function cAtol(s: string): number {
  const m = /^[ \t\n\v\f\r]*([+-]?\d+)/.exec(s);
  return m ? Number(m[1]) : 0;
}

/**
 * C's `atof` (`strtod`) for decimal input: leading white space, a sign, digits with an
 * optional point, an optional exponent, or `inf`/`infinity`/`nan`; the longest such prefix,
 * 0 when there is none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cAtof } from "./params.ts";
 * assert(cAtof(".25") === 0.25 && cAtof("1e-1x") === 0.1 && cAtof("") === 0);
 * ```
 */
export function cAtof(s: string): number {
  const t = s.replace(/^[ \t\n\v\f\r]*/, "");
  const special = /^([+-]?)(inf(inity)?|nan)/i.exec(t);
  if (special) {
    const v = /^nan/i.test(special[2]) ? NaN : Infinity;
    return special[1] === "-" ? -v : v;
  }
  const m = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(t);
  return m ? Number(m[0]) : 0;
}

/** One output line's parameter and name. */
export interface ParamLine {
  label: string;
  param: unknown;
}

/** `name_%3.2f`, trec_eval's name for a fraction cutoff. */
function fractionLabel(name: string, x: number): string {
  return `${name}_${formatFixedC(x, 2).padStart(3)}`;
}

/**
 * What the measure's own `checkParam` says of `param` (undefined: fine, or no check): the one
 * range check of both spellings, trec_eval-style (`paramLines`) and ir_measures-style.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { paramProblem } from "./params.ts";
 * import { findMeasure } from "./table.ts";
 * assert.equal(paramProblem(findMeasure("rbp_binary")!, [1.5]), "p must be between 0 and 1, got 1.5");
 * assert.equal(paramProblem(findMeasure("rbp_binary")!, [0.5]), undefined);
 * ```
 */
export function paramProblem(m: AnyMeasure, param: unknown): string | undefined {
  return (m.checkParam as ((p: unknown) => string | undefined) | undefined)?.(param);
}

function fail(spec: string, problem: string): never {
  throw new KitError(`measure '${spec}': ${problem}`);
}

function checkDuplicates(values: readonly number[], spec: string): void {
  for (let i = 1; i < values.length; i++) {
    if (values[i - 1] === values[i]) fail(spec, `cutoff ${values[i]} is given twice`);
  }
}

/**
 * Parses `/^level=gain(,level=gain)*$/` as trec_eval does: every comma-separated part holds
 * exactly one `=`; the level is read with atol, the gain with atof.
 */
function gainPairs(raw: string, spec: string): GainPair[] {
  return raw.split(",").map((part) => {
    const eq = part.split("=");
    if (eq.length !== 2) fail(spec, `expected level=gain pairs, got '${part}'`);
    return { level: cAtol(eq[0]), gain: cAtof(eq[1]) };
  });
}

/**
 * Parses `name=value` pairs as trec_eval 10.0's `get_param_pairs` does (the same rule as
 * {@link gainPairs}: one `=` in every comma-separated part), keeping the names as text.
 */
function namedPairs(raw: string, spec: string): NamedPair[] {
  return raw.split(",").map((part) => {
    const eq = part.split("=");
    if (eq.length !== 2) fail(spec, `expected name=value pairs, got '${part}'`);
    return { name: eq[0], value: cAtof(eq[1]) };
  });
}

/**
 * The output lines of measure `m` for `raw` parameters (undefined: the defaults), named as
 * trec_eval names them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { paramLines } from "./params.ts";
 * import { findMeasure } from "./table.ts";
 * assert(paramLines(findMeasure("P")!, "10,5").map((l) => l.label).join() === "P_5,P_10");
 * assert(paramLines(findMeasure("iprec_at_recall")!, ".1")[0].label === "iprec_at_recall_0.10");
 * ```
 */
export function paramLines(m: AnyMeasure, raw: string | undefined): ParamLine[] {
  const spec = raw === undefined ? m.name : `${m.name}.${raw}`;
  if (raw === "") fail(spec, "empty parameter list");
  switch (m.params) {
    case "none":
      if (raw !== undefined) fail(spec, `${m.name} takes no parameters`);
      return [{ label: m.name, param: undefined }];
    case "cutoffs": {
      const ks = raw === undefined ? [...m.defaults!] : raw.split(",").map(cAtol);
      ks.sort((a, b) => a - b);
      if (!(ks[0] > 0)) fail(spec, "cutoffs must be positive integers");
      // trec_eval reads a long and clamps past 2^63 - 1; above 2^53 a double cannot hold it.
      if (ks.at(-1)! > Number.MAX_SAFE_INTEGER && ks.at(-1) !== Infinity) {
        fail(spec, `cutoffs must be at most ${Number.MAX_SAFE_INTEGER} (2^53 - 1)`);
      }
      checkDuplicates(ks, spec);
      return ks.map((k) => ({ label: k === Infinity ? m.name : `${m.name}_${k}`, param: k }));
    }
    case "fractions": {
      const xs = raw === undefined ? [...m.defaults!] : raw.split(",").map(cAtof);
      if (xs.some((x) => Number.isNaN(x))) fail(spec, "a parameter is not a number");
      xs.sort((a, b) => a - b);
      checkDuplicates(xs, spec);
      return xs.map((x) => ({ label: fractionLabel(m.name, x), param: x }));
    }
    case "floats": {
      const xs = raw === undefined ? [...m.defaults!] : raw.split(",").map(cAtof);
      if (m.paramCount !== undefined && xs.length !== m.paramCount) {
        fail(spec, `${m.name} takes ${m.paramCount} numbers, got ${xs.length}`);
      }
      const problem = paramProblem(m, xs);
      if (problem) fail(spec, problem);
      return [{ label: raw === undefined ? m.name : `${m.name}_${raw}`, param: xs }];
    }
    case "gains": {
      const pairs = raw === undefined ? [] : gainPairs(raw, spec);
      return [{ label: raw === undefined ? m.name : `${m.name}_${raw}`, param: pairs }];
    }
    case "pairs": {
      const pairs = raw === undefined ? [] : namedPairs(raw, spec);
      const problem = paramProblem(m, pairs);
      if (problem) fail(spec, problem);
      return [{ label: raw === undefined ? m.name : `${m.name}_${raw}`, param: pairs }];
    }
  }
}
