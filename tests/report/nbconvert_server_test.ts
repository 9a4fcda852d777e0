/**
 * nbconvert, served (lib/report/build/nbconvert.ts): the pages and decks it writes are the
 * command line's byte for byte, its failures are the command line's, requests beyond its two
 * processes wait their turn, a killed process is reported and replaced, and none outlives the
 * last `withNbconvert`.
 */
import assert from "node:assert/strict";
import { KitError } from "../../lib/errors.ts";
import { jupyterPython } from "../../lib/report/build/execute.ts";
import { TEMPLATES_DIR } from "../../lib/report/build/export.ts";
import {
  MAX_SERVERS,
  nbconvert,
  NBCONVERT_SERVER,
  serverPids,
  withNbconvert,
} from "../../lib/report/build/nbconvert.ts";
import { PROJECT_ROOT } from "../../lib/data/paths.ts";

const TEMPLATES = `--TemplateExporter.extra_template_basedirs=${TEMPLATES_DIR}`;

/** Three exports the report makes of a notebook: its page, the page without code, its deck. */
function exportsOf(ipynb: string, dir: string, name: string): string[][] {
  return [
    ["--to", "html", "--template", "kit", TEMPLATES, "--output-dir", dir, "--output", name, ipynb],
    [
      "--to",
      "html",
      "--template",
      "kit",
      TEMPLATES,
      "--TemplateExporter.exclude_input=True",
      "--output-dir",
      dir,
      "--output",
      `${name}-nocode`,
      ipynb,
    ],
    [
      "--to",
      "slides",
      "--template",
      "kit_slides",
      TEMPLATES,
      "--output-dir",
      dir,
      "--output",
      `${name}-deck`,
      ipynb,
    ],
  ];
}

/** The same command line, run as `python3 -m nbconvert`. */
async function commandLine(args: string[]): Promise<{ ok: boolean; stderr: string }> {
  const out = await new Deno.Command(jupyterPython(), {
    args: ["-Xfrozen_modules=off", "-m", "nbconvert", ...args],
    env: { PYDEVD_DISABLE_FILE_VALIDATION: "1" },
    stdout: "null",
    stderr: "piped",
  }).output();
  return { ok: out.success, stderr: new TextDecoder().decode(out.stderr) };
}

/**
 * This file's nbconvert servers (not the process's children: under `deno test --parallel` the
 * other test files' builds are children of the same process, and theirs are not to be killed).
 */
function servers(): number[] {
  return serverPids().filter((pid) => {
    try {
      const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
      const cmdline = Deno.readTextFileSync(`/proc/${pid}/cmdline`);
      return cmdline.includes(NBCONVERT_SERVER) && stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
    } catch {
      return false;
    }
  });
}

/**
 * Lessons with figures, formulas, tables and Arabic (the command line takes 1.2 s an export, so
 * not all twelve: the report's own tests export every one through the server).
 */
const LESSONS = ["03-scoring", "04-metrics", "06-qrcd", "12-qqa23"];

Deno.test("nbconvert served: pages, code-less pages and decks are the command line's, byte for byte", async () => {
  const dir = await Deno.makeTempDir();
  const lessons = LESSONS.map((name) => `${name}.ipynb`);
  for (const file of lessons) assert.ok(Deno.statSync(`${PROJECT_ROOT}/notebooks/${file}`).isFile);
  const jobs = lessons.flatMap((file) => {
    const name = file.replace(/\.ipynb$/, "");
    return exportsOf(`${PROJECT_ROOT}/notebooks/${file}`, `${dir}/x`, name).map((args) => ({
      served: args,
      cli: args.map((a) => a === `${dir}/x` ? `${dir}/cli` : a),
    }));
  });
  // Every request at once: more than its processes, so that requests wait their turn.
  const served = await withNbconvert(() => Promise.all(jobs.map((j) => nbconvert(j.served))));
  for (const [i, r] of served.entries()) assert.ok(r.ok, `${jobs[i].served.at(-1)}: ${r.stderr}`);
  for (const j of jobs) assert.ok((await commandLine(j.cli)).ok);
  const files = [...Deno.readDirSync(`${dir}/cli`)].map((e) => e.name).sort();
  assert.equal(files.length, jobs.length);
  assert.deepEqual([...Deno.readDirSync(`${dir}/x`)].map((e) => e.name).sort(), files);
  for (const f of files) {
    const [a, b] = [
      await Deno.readFile(`${dir}/x/${f}`),
      await Deno.readFile(`${dir}/cli/${f}`),
    ];
    assert.ok(a.length > 1000 && a.length === b.length && a.every((x, k) => x === b[k]), f);
  }
  assert.deepEqual(servers(), [], "a server outlived withNbconvert");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("nbconvert served: a failure is the command line's (not ok, its stderr), and the next request converts", async () => {
  const dir = await Deno.makeTempDir();
  const missing = `${dir}/missing.ipynb`;
  await withNbconvert(async () => {
    const args = ["--to", "html", "--output-dir", dir, missing];
    const [served, cli] = [await nbconvert(args), await commandLine(args)];
    assert.equal(served.ok, cli.ok);
    assert.equal(served.ok, false);
    assert.match(served.stderr, /missing\.ipynb/);
    const bad = `${dir}/bad.ipynb`;
    await Deno.writeTextFile(bad, "{ not json");
    const broken = await nbconvert(["--to", "html", "--output-dir", dir, bad]);
    assert.equal(broken.ok, false);
    assert.match(broken.stderr, /NotJSONError|JSON/);
    const version = await nbconvert(["--version"]);
    assert.ok(version.ok);
    assert.match(version.stderr, /^\d+\.\d+/);
  });
  await Deno.remove(dir, { recursive: true });
});

Deno.test("nbconvert served: at most two processes; a killed one is reported, and another takes its place", async () => {
  await withNbconvert(async () => {
    await Promise.all(Array.from({ length: 4 }, () => nbconvert(["--version"])));
    const running = servers();
    assert.ok(running.length >= 1 && running.length <= MAX_SERVERS, `${running.length} servers`);
    for (const pid of running) Deno.kill(pid, "SIGKILL");
    const errors = await Promise.all(
      running.map(() => nbconvert(["--version"]).then(() => undefined, (e) => e)),
    );
    for (const e of errors) {
      assert.ok(e instanceof KitError, String(e));
      assert.match(e.message, /nbconvert's process ended \(killed by SIGKILL\)/);
    }
    assert.ok((await nbconvert(["--version"])).ok);
  });
  assert.deepEqual(servers(), []);
});

Deno.test("nbconvert served: a notebook the schema refuses, after valid ones, fails as on the command line", async () => {
  // The server compiles nbformat's schema and the templates once (nbconvert_server.py,
  // compile_once): what a request validates must still be what a new process validates.
  const dir = await Deno.makeTempDir();
  const good = `${PROJECT_ROOT}/notebooks/03-scoring.ipynb`;
  const bad = `${dir}/bad.ipynb`;
  const nb = JSON.parse(await Deno.readTextFile(good));
  const code = nb.cells.findIndex((c: { cell_type: string }) => c.cell_type === "code");
  nb.cells[code].execution_count = "seven"; // an integer or null, says the schema
  await Deno.writeTextFile(bad, JSON.stringify(nb));
  const lastLine = (s: string) => s.trim().split("\n").at(-1);
  await withNbconvert(async () => {
    for (const ipynb of [good, bad, good, bad]) {
      const args = ["--to", "html", "--template", "kit", TEMPLATES, "--output-dir", dir, ipynb];
      const [served, cli] = [await nbconvert(args), await commandLine(args)];
      assert.equal(served.ok, ipynb === good, `${ipynb}: ${served.stderr}`);
      assert.equal(cli.ok, served.ok);
      assert.equal(lastLine(served.stderr), lastLine(cli.stderr));
      if (ipynb === bad) assert.match(served.stderr, /NotebookValidationError: data\.cells\[1\]/);
    }
  });
  await Deno.remove(dir, { recursive: true });
});

Deno.test("nbconvert served: one template file read by two exporters (HTML, then LaTeX's delimiters) is each command line's", async () => {
  // What Jinja compiles depends on the exporter's environment (its delimiters, its filters),
  // not only on the template's text: nothing compiled for one request may serve another.
  const dir = await Deno.makeTempDir();
  await Deno.copyFile(`${PROJECT_ROOT}/notebooks/03-scoring.ipynb`, `${dir}/nb.ipynb`);
  await Deno.writeTextFile(
    `${dir}/both.j2`,
    "((* if true *))L((* endif *)){% if true %}H{% endif %}\n",
  );
  const request = (to: string, out: string) => [
    "--to",
    to,
    "--template-file",
    `${dir}/both.j2`,
    "--output-dir",
    out,
    `${dir}/nb.ipynb`,
  ];
  await withNbconvert(async () => {
    for (const to of ["html", "latex", "html"]) {
      const [served, cli] = [
        await nbconvert(request(to, `${dir}/served`)),
        await commandLine(request(to, `${dir}/cli`)),
      ];
      assert.ok(served.ok && cli.ok, `${served.stderr}\n${cli.stderr}`);
      const file = to === "html" ? "nb.html" : "nb.tex";
      assert.equal(
        await Deno.readTextFile(`${dir}/served/${file}`),
        await Deno.readTextFile(`${dir}/cli/${file}`),
        `${to}: the server's output differs from the command line's`,
      );
    }
  });
  assert.equal(await Deno.readTextFile(`${dir}/cli/nb.tex`), "L{% if true %}H{% endif %}");
  await Deno.remove(dir, { recursive: true });
});
