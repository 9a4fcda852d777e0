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
import {
  BACKEND_OPTION,
  backendFlag,
  FILTER_OPTION,
  filterFlag,
  FORCE_OPTION,
  list,
  oneOf,
  parseFlags,
  str,
} from "./args.ts";
import { parseBackendChoice } from "../scoring/model/backend.ts";
import { KitError } from "../errors.ts";
import { resolvePath } from "../io/path.ts";
import { buildReport } from "../report/build.ts";
import { specFromArgs } from "../report/user_systems.ts";
import { PROTOCOL_MEASURES } from "../metrics/protocol_measures.ts";

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

/** The `report` command. */
export const reportCommand: Command = {
  summary: "execute the notebooks and export HTML pages, an index and a PDF; with --run, " +
    "--model or --qrcd-run, a report on your systems first",
  options: [
    { name: "data", value: "sample|real", help: "the corpora the notebooks read (default sample)" },
    {
      name: "run",
      value: "NAME=PATH[,PATH...]",
      multiple: true,
      help: "a TREC run of your system; several files (comma-separated or a glob, e.g. " +
        "'runs/seed*.run') are runs of one system (seeds)",
    },
    {
      name: "model",
      value: "NAME=SPEC",
      multiple: true,
      help: "a spec of 'score --model', scored on the split first ('--model M' without '=' " +
        "is notebook 03's model)",
    },
    { name: "qrcd-run", value: "NAME=RUN.json", multiple: true, help: "a QRCD run of yours" },
    { name: "qrcd-gold", value: "dev|FILE", help: "the QRCD runs' gold records (default dev)" },
    {
      name: "dataset",
      value: "wikiqa|trecqa",
      help: "the corpus your systems are evaluated on (default wikiqa)",
    },
    { name: "split", value: "S", help: "the split your systems are evaluated on (default test)" },
    FILTER_OPTION,
    {
      name: "compare",
      value: "A,B",
      help: "the two systems of the error analysis (default: your best against the strongest " +
        "kit baseline that is not the same model)",
    },
    BACKEND_OPTION,
    { name: "only", value: "NN", multiple: true, help: "only the notebook numbered NN" },
    { name: "out", value: "DIR", help: "the report folder (default reports/<data>/)" },
    FORCE_OPTION,
    { name: "no-pdf", help: "no PDF" },
    { name: "show-code", help: "show the code of 00-your-systems in its page (hidden by default)" },
  ],
  notes: "Paths are relative to the current directory.",
  async run(args) {
    const p = parseFlags(args, reportCommand);
    const data = oneOf(str(p, "data", "sample")!, ["sample", "real"] as const, "--data");
    // --backend, else KIT_BACKEND as the notebooks would read it, else auto
    const backend = str(p, "backend") === undefined
      ? parseBackendChoice(Deno.env.get("KIT_BACKEND"), "KIT_BACKEND")
      : backendFlag(p);
    // `--model M` (no '=') keeps its old meaning: the model of notebook 03.
    const plain = list(p, "model").filter((m) => !m.includes("="));
    if (plain.length > 1) throw new KitError("give one --model for notebook 03");
    p.values.model = list(p, "model").filter((m) => m.includes("="));
    const systems = specFromArgs({
      runs: list(p, "run"),
      models: list(p, "model"),
      qrcdRuns: list(p, "qrcd-run"),
      qrcdGold: str(p, "qrcd-gold"),
      dataset: str(p, "dataset"),
      split: str(p, "split"),
      filter: str(p, "filter"),
      compare: str(p, "compare"),
    }, callerDir());
    // Says the default filter, as every command does (QRCD runs alone have none).
    if (systems?.systems.length) filterFlag(p, systems.split);
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
      showCode: p.values["show-code"] === true,
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
        : PROTOCOL_MEASURES.map((m) =>
          `${m.label} ${n(m.name)}${
            m.name === "map" && s.map_sd !== undefined ? ` (sd ${n("map_sd")})` : ""
          }`
        ).join(" ");
      console.log(`system ${JSON.stringify(s.name)}: ${numbers}`);
    }
    // The difference of each of the user's systems from the others on MAP, with its interval.
    const users = new Set((r.systems ?? []).map((s) => s.name));
    for (const d of r.differences ?? []) {
      if (d.measure !== "map" || !(users.has(d.a) || users.has(d.b))) continue;
      const ci = d.ci_lower === undefined
        ? ""
        : ` [${d.ci_lower.toFixed(4)}, ${d.ci_upper!.toFixed(4)}]`;
      console.log(
        `MAP ${JSON.stringify(d.a)} - ${JSON.stringify(d.b)}: ${d.difference.toFixed(4)}${ci}, ` +
          `p ${d.p_adjusted.toPrecision(2)}${d.significant ? " (significant)" : ""}`,
      );
    }
    if (r.pdf && r.pdfCheck) {
      console.log(
        `${r.pdf}: ${r.pdfCheck.pages} pages, ${r.pdfCheck.pagesWithFigures} with figures, ${
          mb(r.pdfCheck.bytes)
        }`,
      );
    }
    const j = r.versions.jupyter;
    console.log(
      `pages checked with Chromium ${r.versions.chromium}; notebooks run by nbclient ` +
        `${j.nbclient ?? "?"}, exported by nbconvert ${
          j.nbconvert ?? "?"
        }, Deno ${r.versions.deno}`,
    );
    console.log(`${r.index} (${r.seconds.toFixed(0)} s in all)`);
  },
};
