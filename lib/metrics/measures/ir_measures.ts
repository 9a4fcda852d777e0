/**
 * ir_measures' measure names (https://ir-measur.es): `AP`, `AP@100`, `P(rel=2)@5`,
 * `nDCG(dcg='exp-log2')@10`, `Judged@10`, ... read into a table entry, its parameter and
 * the query view the measure needs (its own relevance level, judged documents only, a gain
 * mapping). Each name computes what ir_measures' default pipeline computes for it
 * (pytrec_eval, i.e. trec_eval 9.0.x, where it can; the judged, msmarco and gdeval providers
 * otherwise); `docs/measures.md` lists the mapping and where the results can differ.
 *
 * @module
 */
import { KitError } from "../../errors.ts";
import type { AnyMeasure } from "./measure.ts";
import { findMeasure } from "./table.ts";
import { paramProblem } from "./params.ts";

/** How a measure looks at a query besides the evaluation-wide settings. */
export interface QueryView {
  /** Its own relevance level (ir_measures' `rel`). */
  level?: number;
  /** Unjudged documents removed first (ir_measures' `judged_only`, trec_eval's -J). */
  judgedOnly?: boolean;
  /** Judgment values replaced before measuring (ir_measures' nDCG `gains`). */
  gains?: ReadonlyMap<number, number>;
}

/** An ir_measures name resolved to a table entry. */
export interface IrMeasure {
  measure: AnyMeasure;
  param: unknown;
  view: QueryView;
}

type Value = number | string | boolean | Map<number, number>;
type Args = Map<string, Value>;

/** One ir_measures measure: its parameters and how it maps onto the table. */
interface IrSpec {
  /** The parameter `@` sets. */
  at?: "cutoff" | "recall";
  /** Accepted parameter names (besides the `@` one). */
  params: readonly string[];
  resolve(args: Args): { name: string; param?: unknown; view?: QueryView };
}

function need<T extends Value>(args: Args, key: string, type: string): T | undefined {
  const v = args.get(key);
  if (v === undefined) return undefined;
  if (type === "int" && !(typeof v === "number" && Number.isInteger(v))) {
    throw new KitError(`parameter ${key} must be an integer, got ${String(v)}`);
  }
  if (type === "number" && typeof v !== "number") {
    throw new KitError(`parameter ${key} must be a number, got ${String(v)}`);
  }
  if (type === "bool" && typeof v !== "boolean") {
    throw new KitError(`parameter ${key} must be True or False, got ${String(v)}`);
  }
  return v as T;
}

function cutoff(args: Args, required: boolean): number | undefined {
  const k = need<number>(args, "cutoff", "int");
  if (k === undefined && required) throw new KitError("needs a cutoff (as in P@10)");
  if (k !== undefined && k < 1) throw new KitError(`cutoff must be positive, got ${k}`);
  if (k !== undefined && k > Number.MAX_SAFE_INTEGER) {
    throw new KitError(`cutoff must be at most ${Number.MAX_SAFE_INTEGER} (2^53 - 1), got ${k}`);
  }
  return k;
}

/** A name and parameters ir_measures reads but none of its default providers computes. */
function noProvider(what: string): KitError {
  return new KitError(`no provider of ir_measures computes ${what}; the kit refuses it too`);
}

/** `rel` and `judged_only` as a view. */
function view(args: Args): QueryView {
  const v: QueryView = {};
  const rel = need<number>(args, "rel", "int");
  if (rel !== undefined) v.level = rel;
  if (need<boolean>(args, "judged_only", "bool")) v.judgedOnly = true;
  return v;
}

const RELEVANCE = ["rel", "judged_only"];

/** A measure whose cutoff is optional: `bare` without one, `cut` with it. */
function optionalCutoff(a: Args, bare: string, cut: string) {
  const k = cutoff(a, false);
  return k === undefined ? { name: bare, view: view(a) } : { name: cut, param: k, view: view(a) };
}

const SPECS: Record<string, IrSpec> = {
  AP: { at: "cutoff", params: RELEVANCE, resolve: (a) => optionalCutoff(a, "map", "map_cut") },
  RR: {
    at: "cutoff",
    params: RELEVANCE,
    resolve: (a) => {
      if (a.has("cutoff") && a.get("judged_only") === true) {
        throw noProvider(
          "RR with both a cutoff and judged_only=True (pytrec_eval has no " +
            "cutoff, msmarco no judged_only)",
        );
      }
      return optionalCutoff(a, "recip_rank", "recip_rank_cut");
    },
  },
  P: {
    at: "cutoff",
    params: RELEVANCE,
    resolve: (a) => ({ name: "P", param: cutoff(a, true), view: view(a) }),
  },
  R: {
    at: "cutoff",
    params: RELEVANCE,
    resolve: (a) => ({ name: "recall", param: cutoff(a, true), view: view(a) }),
  },
  Success: {
    at: "cutoff",
    params: RELEVANCE,
    resolve: (a) => ({ name: "success", param: cutoff(a, true), view: view(a) }),
  },
  nDCG: {
    at: "cutoff",
    params: ["dcg", "gains", "judged_only"],
    resolve: (a) => {
      const k = cutoff(a, false);
      const dcg = a.get("dcg") ?? "log2";
      const gains = a.get("gains");
      if (gains !== undefined && !(gains instanceof Map)) {
        throw new KitError("gains must be a mapping such as {0:0,1:1,2:3}");
      }
      const v = view(a);
      if (dcg === "exp-log2") {
        if (gains) throw noProvider("exp-log2 with gains");
        if (v.judgedOnly) throw noProvider("exp-log2 with judged_only=True");
        return { name: "ndcg_exp", param: k ?? Infinity, view: v };
      }
      if (dcg !== "log2") {
        throw new KitError(`dcg must be 'log2' or 'exp-log2', got ${String(dcg)}`);
      }
      if (gains) v.gains = gains;
      return k === undefined ? { name: "ndcg", param: [], view: v } : {
        name: "ndcg_cut",
        param: k,
        view: v,
      };
    },
  },
  Rprec: { params: RELEVANCE, resolve: (a) => ({ name: "Rprec", view: view(a) }) },
  Bpref: { params: ["rel"], resolve: (a) => ({ name: "bpref", view: view(a) }) },
  infAP: { params: ["rel"], resolve: (a) => ({ name: "infAP", view: view(a) }) },
  // ir_measures' NumQ and NumRel count the queries pytrec_eval evaluates (in both files):
  // not trec_eval's num_q and num_rel, which -c extends to every qrels query.
  NumQ: { params: [], resolve: () => ({ name: "num_q_both" }) },
  NumRet: {
    params: ["rel"],
    resolve: (a) => ({ name: a.has("rel") ? "num_rel_ret" : "num_ret", view: view(a) }),
  },
  NumRelRet: { params: ["rel"], resolve: (a) => ({ name: "num_rel_ret", view: view(a) }) },
  NumRel: {
    params: ["rel"],
    resolve: (a) => {
      const rel = need<number>(a, "rel", "int") ?? 1;
      if (rel !== 1) {
        throw noProvider(
          `NumRel(rel=${rel}): only rel=1 (pytrec_eval's num_rel ignores the level)`,
        );
      }
      return { name: "num_rel_both", view: { level: 1 } };
    },
  },
  ERR: {
    at: "cutoff",
    params: [],
    resolve: (a) => ({ name: "err", param: cutoff(a, true) }),
  },
  RBP: {
    params: ["rel", "p"],
    resolve: (a) => {
      if (!a.has("rel")) {
        throw noProvider("RBP without rel= (cwl_eval, its provider, needs a relevance level)");
      }
      const p = need<number>(a, "p", "number") ?? 0.8; // its range: the table's checkParam
      return { name: "rbp_binary", param: [p], view: view(a) };
    },
  },
  Judged: {
    at: "cutoff",
    params: [],
    resolve: (a) => ({ name: "judged", param: cutoff(a, false) ?? Infinity }),
  },
  SetP: {
    params: ["rel", "relative", "judged_only"],
    resolve: (a) => ({
      name: need<boolean>(a, "relative", "bool") ? "set_relative_P" : "set_P",
      view: view(a),
    }),
  },
  SetR: { params: ["rel"], resolve: (a) => ({ name: "set_recall", view: view(a) }) },
  SetF: {
    params: ["rel", "beta", "judged_only"],
    resolve: (a) => ({
      name: "set_F",
      param: [need<number>(a, "beta", "number") ?? 1],
      view: view(a),
    }),
  },
  SetAP: { params: RELEVANCE, resolve: (a) => ({ name: "set_map", view: view(a) }) },
  IPrec: {
    at: "recall",
    params: RELEVANCE,
    resolve: (a) => {
      const r = need<number>(a, "recall", "number");
      if (r === undefined) throw new KitError("needs a recall point (as in IPrec@0.5)");
      return { name: "iprec_at_recall", param: r, view: view(a) };
    },
  },
};

/** ir_measures' aliases. */
const ALIASES: Record<string, string> = {
  MAP: "AP",
  MRR: "RR",
  NDCG: "nDCG",
  Precision: "P",
  Recall: "R",
  RPrec: "Rprec",
  BPref: "Bpref",
};

/** The ir_measures names the kit reads, aliases included. */
export const IR_MEASURES_NAMES: readonly string[] = [
  ...Object.keys(SPECS),
  "SetRelP",
  ...Object.keys(ALIASES),
];

/** Splits `s` at top-level commas (not inside `{}`). */
function splitTop(s: string): string[] {
  const parts: string[] = [];
  let depth = 0, start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "{") depth++;
    else if (s[i] === "}") depth--;
    else if (s[i] === "," && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== "");
}

/** A Python-style literal: number, True/False, quoted or bare string, {int: number} dict. */
function literal(raw: string): Value {
  const s = raw.trim();
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return Number(s);
  if (s === "True") return true;
  if (s === "False") return false;
  const quoted = /^(['"])(.*)\1$/.exec(s);
  if (quoted) return quoted[2];
  if (s.startsWith("{") && s.endsWith("}")) {
    const m = new Map<number, number>();
    for (const item of splitTop(s.slice(1, -1))) {
      const kv = item.split(":");
      const k = Number(kv[0]), v = Number(kv[1]);
      if (kv.length !== 2 || !Number.isInteger(k) || !Number.isFinite(v)) {
        throw new KitError(`bad mapping entry '${item}' (expected level: gain)`);
      }
      m.set(k, v);
    }
    return m;
  }
  if (/^[A-Za-z][\w.-]*$/.test(s)) return s; // bare words such as exp-log2
  throw new KitError(`cannot read the value '${s}'`);
}

/**
 * Reads an ir_measures name; undefined when `text` is not one (not ir_measures syntax or
 * not a measure the kit knows by that name); a KitError for a known measure with bad
 * parameters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseIrMeasure } from "./ir_measures.ts";
 * const m = parseIrMeasure("P(rel=2)@5")!;
 * assert(m.measure.name === "P" && m.param === 5 && m.view.level === 2);
 * assert(parseIrMeasure("AP@100")!.measure.name === "map_cut");
 * assert(parseIrMeasure("map") === undefined);
 * ```
 */
export function parseIrMeasure(text: string): IrMeasure | undefined {
  const m = /^\s*([A-Za-z_]\w*)\s*(?:\((.*)\))?\s*(?:@\s*([^@()]+?))?\s*$/s.exec(text);
  if (!m) return undefined;
  let name = m[1];
  const args: Args = new Map();
  if (name === "SetRelP") {
    name = "SetP";
    args.set("relative", true);
  }
  name = ALIASES[name] ?? name;
  const spec = SPECS[name];
  if (!spec) return undefined;
  try {
    for (const part of splitTop(m[2] ?? "")) {
      const eq = part.indexOf("=");
      if (eq < 0) throw new KitError(`parameters are named (key=value), got '${part}'`);
      const key = part.slice(0, eq).trim();
      if (!spec.params.includes(key) && key !== spec.at) {
        throw new KitError(
          `unknown parameter '${key}' (${m[1]} takes ${
            [...(spec.at ? [spec.at] : []), ...spec.params].join(", ") || "none"
          })`,
        );
      }
      args.set(key, literal(part.slice(eq + 1)));
    }
    if (m[3] !== undefined) {
      if (!spec.at) throw new KitError(`${m[1]} takes no @ parameter`);
      args.set(spec.at, literal(m[3]));
    }
    const r = spec.resolve(args);
    const measure = findMeasure(r.name)!;
    const problem = paramProblem(measure, r.param);
    if (problem) throw new KitError(problem);
    return { measure, param: r.param, view: r.view ?? {} };
  } catch (e) {
    if (e instanceof KitError) throw new KitError(`measure '${text.trim()}': ${e.message}`);
    throw e;
  }
}
