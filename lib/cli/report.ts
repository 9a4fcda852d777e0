/**
 * `./kit report`: with your systems (`--run NAME=PATH[,PATH...]`, `--model NAME=SPEC`,
 * `--qrcd-run NAME=RUN.json`), a report on them: page `00-your-systems`, its index and PDF
 * (the lessons too with `--lessons`); without, the lessons 01-12 as offline HTML pages, an
 * index, slides of each lesson (`--no-slides`: none) and a PDF (see lib/report/build/build.ts).
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
import { buildReport } from "../report/build/build.ts";
import { runWays, specFromFlags } from "../report/systems/spec.ts";
import { reportParts } from "../tasks/registry.ts";
import { NOT_TESTED, testName } from "../stats/family.ts";
import { formatP } from "../stats/p_value.ts";
import { measureLabel, PROTOCOL_MEASURES } from "../metrics/mod.ts";

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
  summary: "execute the notebooks and export HTML pages, an index and a PDF; with " +
    `${runWays()}, a report on your systems first`,
  options: [
    {
      name: "data",
      value: "sample|real",
      help: "the corpus: the bundled samples or the fetched corpora (default: your systems are " +
        "judged on the installed corpus, the real one once fetched, as eval as2 reads; the " +
        "lessons on the samples)",
    },
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
      help: "a spec of 'score --model', scored on the split first ('--model M' without '=': " +
        "the model of lesson 03)",
    },
    ...reportParts().flatMap((part) => part.options),
    {
      name: "dataset",
      value: "wikiqa|trecqa|qqa23",
      help: "the corpus your systems are evaluated on (default wikiqa); qqa23: your --run files " +
        "are Qur'an QA 2023 runs, judged as its official script does (docs/qqa23.md)",
    },
    { name: "split", value: "S", help: "the split your systems are evaluated on (default test)" },
    FILTER_OPTION,
    {
      name: "compare",
      value: "A,B",
      help: "the two systems of the error analysis (default: your two best; with one system, " +
        "it against the strongest kit baseline that is not the same model)",
    },
    {
      name: "family",
      value: "all|mine|baseline:NAME",
      help: "the family of tests, chosen before reading the results: all (the default: your " +
        "systems among themselves and each against each kit baseline), mine (your systems " +
        "among themselves), baseline:NAME (each of yours against NAME: m = k - 1, k the " +
        "systems compared, NAME included)",
    },
    BACKEND_OPTION,
    {
      name: "no-baselines",
      help: "without the kit's baselines (BM25, ltr) beside your systems: the tests are then " +
        "among your systems only",
    },
    { name: "lessons", help: "with your systems, the lessons 01-12 too (default: page 00 alone)" },
    {
      name: "only",
      value: "NN",
      multiple: true,
      help: "only the notebook numbered NN (1 is 01, never 10-12)",
    },
    {
      name: "out",
      value: "DIR",
      help: "the report folder (default reports/systems/ with your systems, else reports/<data>/)",
    },
    FORCE_OPTION,
    {
      name: "rebuild",
      help: "build every notebook again: reuse nothing from the previous report (by default a " +
        "lesson whose notebook, kit sources, data, options and tools did not change is reused)",
    },
    { name: "no-pdf", help: "no PDF" },
    {
      name: "no-slides",
      help: "no slides (the lessons as reveal.js decks, linked from the index)",
    },
    {
      name: "slides-code",
      help: "show each slide's code folded (the lecturer opens it); by default slides show no code",
    },
    { name: "show-code", help: "show the code of 00-your-systems in its page (hidden by default)" },
  ],
  notes: "Paths are relative to the current directory.",
  async run(args) {
    const p = parseFlags(args, reportCommand);
    const given = str(p, "data");
    const data = given === undefined
      ? undefined
      : oneOf(given, ["sample", "real"] as const, "--data");
    // --backend, else KIT_BACKEND as the notebooks would read it, else auto
    const backend = str(p, "backend") === undefined
      ? parseBackendChoice(Deno.env.get("KIT_BACKEND"), "KIT_BACKEND")
      : backendFlag(p);
    // `--model M` (no '='): the model of lesson 03; `--model NAME=SPEC`: a system of yours.
    const plain = list(p, "model").filter((m) => !m.includes("="));
    if (plain.length > 1) throw new KitError("give one --model for lesson 03");
    p.values.model = list(p, "model").filter((m) => m.includes("="));
    const systems = specFromFlags({
      runs: list(p, "run"),
      models: list(p, "model"),
      parts: {
        list: (name) => list(p, name),
        str: (name) => str(p, name),
        has: (name) => p.values[name] === true,
      },
      dataset: str(p, "dataset"),
      split: str(p, "split"),
      filter: str(p, "filter"),
      compare: str(p, "compare"),
      family: str(p, "family"),
      data,
      baselines: p.values["no-baselines"] !== true,
    }, callerDir());
    for (const flag of ["lessons", "no-baselines"]) {
      if (p.values[flag] && !systems) {
        throw new KitError(
          `--${flag} is for a report on your systems: without ${runWays()} ` +
            "the report is the lessons",
        );
      }
    }
    // Says the default filter, as every command does (a task part's runs alone have none).
    if (systems?.systems.length) filterFlag(p, systems.split);
    const out = str(p, "out");
    const r = await buildReport({
      params: { data: data ?? "sample", model: plain[0], backend },
      ...(systems ? { systems } : {}),
      lessons: p.values.lessons === true,
      only: list(p, "only"),
      outDir: out === undefined ? undefined : fromCaller(out),
      force: Boolean(p.values.force),
      rebuild: p.values.rebuild === true,
      pdf: p.values["no-pdf"] !== true,
      slides: p.values["no-slides"] !== true,
      slidesCode: p.values["slides-code"] === true,
      showCode: p.values["show-code"] === true,
    });
    for (const e of r.notebooks) {
      const drawn = e.check.figures.filter((f) => f.svg && f.marks > 0).length;
      console.log(
        `${e.name.padEnd(28)} ${e.seconds.toFixed(1).padStart(6)} s  html ${
          mb(e.bytes.html).padStart(8)
        }  figures drawn ${drawn}/${e.figures}` +
          (e.slides ? `  slides ${e.slides.check.totalSlides}` : ""),
      );
    }
    for (const s of r.systems ?? []) {
      const n = (k: string) => typeof s[k] === "number" ? (s[k] as number).toFixed(4) : undefined;
      const numbers = reportParts().map((part) => part.numbers(s)).find((x) => x !== undefined) ??
        PROTOCOL_MEASURES.map((m) =>
          `${m.label} ${n(m.name)}${
            m.name === "map" && s.map_sd !== undefined ? ` (sd ${n("map_sd")})` : ""
          }`
        ).join(" ");
      console.log(`system ${JSON.stringify(s.name)}: ${numbers}`);
    }
    // The family's MAP rows, one per distinct test: the difference, its interval at the
    // family's level, raw and adjusted p, the family and m; identical pairs named, untested.
    const f = r.significance;
    if (f) {
      const m = f.sizes?.map ?? f.size;
      console.log(`family of tests: ${f.description} (${f.choice}); MAP (m = ${m}):`);
      for (const t of f.tests.filter((t) => t.measure === "map")) {
        console.log(
          `${measureLabel("map")} ${testName(t)}: ${t.difference.toFixed(4)} ` +
            `[${t.lower.toFixed(4)}, ${t.upper.toFixed(4)}] ` +
            `(${+((f.levels?.map ?? f.level) * 100).toFixed(2)}%), t ${t.t.toFixed(3)}, ` +
            `df ${t.df}, p ${formatP(t.p)}, adjusted (x${m}, ${f.choice}) ${formatP(t.pAdjusted)}` +
            (t.significant ? ": significant" : ""),
        );
      }
      for (const t of f.identical.filter((t) => t.measure === "map")) {
        console.log(`${measureLabel("map")} ${t.a} – ${t.b}: ${NOT_TESTED}, not counted in m`);
      }
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
