/**
 * `deno task report [--data sample|real] [--run NAME=PATH[,PATH...]]... [--model NAME=SPEC]...
 * [--qrcd-run NAME=PATH]... [--qrcd-gold FILE] [--dataset wikiqa|trecqa] [--split S]
 * [--filter F] [--backend B] [--only NN] [--out DIR [--force]] [--no-pdf]`: executes the
 * notebooks headless and writes the executed notebooks, one offline HTML page per notebook,
 * an index page and a PDF (see lib/report/build.ts). With systems (`--run`, `--model`,
 * `--qrcd-run`) the report opens with `00-your-systems`, their evaluation.
 *
 * @module
 */
import type { Command } from "./command.ts";
import { list, oneOf, parseFlags, str } from "./args.ts";
import { KitError } from "../errors.ts";
import { FILTERS } from "../data/filters.ts";
import { resolvePath } from "../io/path.ts";
import { buildReport } from "../report/build.ts";
import {
  checkSpec,
  checkSystemName,
  parseSystemArg,
  type UserSystemsSpec,
} from "../report/user_systems.ts";

function mb(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/** The folder the user ran the command from: the CLI has moved there (main.ts). */
function callerDir(): string {
  return Deno.cwd();
}

function fromCaller(path: string): string {
  return resolvePath(path, callerDir());
}

/** The systems the flags name, or undefined when there is none. */
function systemsFromFlags(p: ReturnType<typeof parseFlags>): UserSystemsSpec | undefined {
  const cwd = callerDir();
  const runs = list(p, "run").map((v) => parseSystemArg(v, cwd, "--run"));
  const models = list(p, "model").map((v) => {
    const eq = v.indexOf("=");
    if (eq < 0) {
      throw new KitError(
        `--model takes NAME=SPEC (e.g. --model mine=models/cross-encoder), got '${v}'`,
      );
    }
    const spec = v.slice(eq + 1);
    if (spec === "") throw new KitError(`--model ${v}: no model spec given`);
    // A local model folder is relative to the caller, like every path.
    const local = !/^(lexical:|ltr$)/.test(spec) && existsDir(fromCaller(spec));
    return { name: checkSystemName(v.slice(0, eq)), model: local ? fromCaller(spec) : spec };
  });
  const qrcdRuns = list(p, "qrcd-run").map((v) => {
    const { name, paths } = parseSystemArg(v, cwd, "--qrcd-run");
    if (paths.length !== 1) throw new KitError(`--qrcd-run ${name}: give one run file`);
    return { name, path: paths[0] };
  });
  const gold = str(p, "qrcd-gold");
  if (gold !== undefined && qrcdRuns.length === 0) {
    throw new KitError("--qrcd-gold is for --qrcd-run; give a QRCD run");
  }
  if (runs.length + models.length + qrcdRuns.length === 0) {
    for (const flag of ["dataset", "split", "filter"]) {
      if (str(p, flag) !== undefined) {
        throw new KitError(`--${flag} is for the user's systems; give --run or --model`);
      }
    }
    return undefined;
  }
  const dataset = oneOf(str(p, "dataset", "wikiqa")!, ["wikiqa", "trecqa"] as const, "dataset");
  const spec: UserSystemsSpec = {
    dataset,
    split: str(p, "split", "test")!,
    filter: oneOf(str(p, "filter", "clean")!, FILTERS, "filter"),
    systems: [
      ...runs.map((r) => ({ name: r.name, runs: r.paths })),
      // Scored by the build, which fills in the runs.
      ...models.map((m) => ({ name: m.name, runs: [], model: m.model })),
    ],
    ...(qrcdRuns.length ? { qrcd: { gold: qrcdGold(gold ?? "dev"), runs: qrcdRuns } } : {}),
  };
  return checkSpec(spec);
}

/** A QRCD split name (`dev`, `train`), unless a file by that name exists; else a file path. */
function qrcdGold(gold: string): string {
  const path = fromCaller(gold);
  if (/^(dev|train)$/.test(gold) && !existsFile(path)) return gold;
  if (!existsFile(path)) throw new KitError("--qrcd-gold: file not found", { file: gold });
  return path;
}

function existsFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function existsDir(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** The `report` command. */
export const reportCommand: Command = {
  summary: "execute the notebooks and export HTML pages, an index and a PDF; with --run, " +
    "--model or --qrcd-run, a report on your systems first",
  usage: "[--data sample|real] [--run NAME=PATH[,PATH...]]... [--model NAME=SPEC]...\n" +
    "  [--qrcd-run NAME=RUN.json]... [--qrcd-gold dev|FILE] [--dataset wikiqa|trecqa]\n" +
    "  [--split test] [--filter clean] [--backend webgpu|cpu] [--only NN]... [--out DIR [--force]]\n" +
    "  [--no-pdf]\n" +
    "  --run: a TREC run of your system; several files (comma-separated or a glob, e.g.\n" +
    "  'runs/seed*.run') are runs of one system (seeds). --model: a spec of 'score --model',\n" +
    "  scored on the split first ('--model M' without '=' is notebook 03's model). Paths are\n" +
    "  relative to the current directory.",
  async run(args) {
    const p = parseFlags(args, {
      data: { type: "string" },
      model: { type: "string", multiple: true },
      backend: { type: "string" },
      run: { type: "string", multiple: true },
      "qrcd-run": { type: "string", multiple: true },
      "qrcd-gold": { type: "string" },
      dataset: { type: "string" },
      split: { type: "string" },
      filter: { type: "string" },
      only: { type: "string", multiple: true },
      out: { type: "string" },
      force: { type: "boolean" },
      "no-pdf": { type: "boolean" },
    });
    if (p.positionals.length) throw new KitError(`unexpected argument '${p.positionals[0]}'`);
    const data = oneOf(str(p, "data", "sample")!, ["sample", "real"] as const, "--data");
    const backend = str(p, "backend");
    if (backend !== undefined) oneOf(backend, ["webgpu", "cpu"] as const, "--backend");
    // `--model M` (no '=') keeps its old meaning: the model of notebook 03.
    const plain = list(p, "model").filter((m) => !m.includes("="));
    if (plain.length > 1) throw new KitError("give one --model for notebook 03");
    p.values.model = list(p, "model").filter((m) => m.includes("="));
    const systems = systemsFromFlags(p);
    const out = str(p, "out");
    const r = await buildReport({
      params: {
        data,
        model: plain[0],
        backend,
        ...(systems ? { systems } : {}),
      },
      only: list(p, "only"),
      outDir: out === undefined ? undefined : fromCaller(out),
      force: Boolean(p.values.force),
      pdf: p.values["no-pdf"] !== true,
    });
    for (const e of r.notebooks) {
      const drawn = e.check.figures.filter((f) => f.svg && f.marks > 0).length;
      console.log(
        `${e.name.padEnd(28)} ${e.seconds.toFixed(1).padStart(6)} s  html ${
          mb(e.bytes.html).padStart(8)
        }  figures drawn ${drawn}/${e.figures}`,
      );
    }
    for (const s of r.systems ?? []) {
      const n = (k: string) => typeof s[k] === "number" ? (s[k] as number).toFixed(4) : undefined;
      const numbers = s.dataset === "qrcd"
        ? `pRR ${n("pRR")} EM ${n("exact_match")} F1@1 ${n("f1_at_1")}`
        : `MAP ${n("map")}${s.map_sd !== undefined ? ` (sd ${n("map_sd")})` : ""} MRR ${
          n("recip_rank")
        } P@1 ${n("P_1")} nDCG@10 ${n("ndcg_cut_10")}`;
      console.log(`system ${JSON.stringify(s.name)}: ${numbers}`);
    }
    if (r.pdf && r.pdfCheck) {
      console.log(
        `${r.pdf}: ${r.pdfCheck.pages} pages, ${r.pdfCheck.pagesWithFigures} with figures, ${
          mb(r.pdfCheck.bytes)
        }`,
      );
    }
    console.log(`${r.index} (${r.seconds.toFixed(0)} s in all)`);
  },
};
