/**
 * The cluster files of examples/cluster/: docs/scoring.md shows each one byte for byte
 * (`deno run -A tests/scoring/update_cluster_doc.ts` copies them in); the sbatch scripts are
 * bash scripts whose #SBATCH lines sbatch reads and whose shared settings agree; the
 * Kubernetes Indexed Job is a valid batch/v1 Job (npm `kubernetes-models`), and its container
 * command, run here once per index with JOB_COMPLETION_INDEX, gives shards whose merge
 * evaluates exactly as the unsharded run. slurm_test.ts runs the sbatch scripts on a real Slurm.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { Job } from "kubernetes-models/batch/v1";
import { PROJECT_ROOT } from "../../lib/data/paths.ts";
import { runCli } from "../helpers.ts";
import { CLUSTER_DOC, CLUSTER_FILES, includeFiles, readRepoFile } from "./update_cluster_doc.ts";
import {
  denoDir,
  MODEL,
  NO_SCHEDULER,
  readOnlyDenoDir,
  runLines,
  SCORE_ARGS,
  trecEvalAll,
  writeDataQrels,
} from "./cluster.ts";

Deno.test("cluster files: docs/scoring.md shows each one byte for byte", async () => {
  const page = await Deno.readTextFile(CLUSTER_DOC);
  const { text, blocks } = includeFiles(page, readRepoFile);
  assert.deepEqual(blocks.map((b) => b.path).sort(), [...CLUSTER_FILES].sort());
  for (const b of blocks) {
    assert.equal(
      b.content,
      readRepoFile(b.path),
      `docs/scoring.md line ${b.line}: the block differs from ${b.path}; ` +
        "run deno run -A tests/scoring/update_cluster_doc.ts",
    );
  }
  assert.equal(text, page);
  // logs/ must exist before sbatch (slurmd opens --output before the script runs)
  assert.match(page, /mkdir -p logs runs/);
});

/** `: "${NAME:=default}"` lines: a script's settings and their defaults. */
function settings(script: string): Map<string, string> {
  return new Map([...script.matchAll(/^: "\$\{(\w+):=([^}]*)\}"/gm)].map((m) => [m[1], m[2]]));
}

Deno.test("cluster files: the sbatch scripts are bash, sbatch reads their #SBATCH lines, and they agree", async () => {
  const score = readRepoFile("examples/cluster/score.sbatch");
  const merge = readRepoFile("examples/cluster/merge.sbatch");
  for (const [name, text] of [["score.sbatch", score], ["merge.sbatch", merge]]) {
    assert.ok(text.startsWith("#!/bin/bash\n"), `${name}: sbatch needs the #! line`);
    const syntax = await new Deno.Command("bash", {
      args: ["-n", `${PROJECT_ROOT}/examples/cluster/${name}`],
      stderr: "piped",
    }).output();
    assert.ok(syntax.success, new TextDecoder().decode(syntax.stderr));
    // sbatch stops reading #SBATCH at the first line that is not a comment or blank
    const lines = text.split("\n");
    const firstCommand = lines.findIndex((l) => l.trim() !== "" && !l.startsWith("#"));
    const sbatch = lines.flatMap((l, i) => l.startsWith("#SBATCH") ? [i] : []);
    assert.ok(sbatch.length >= 4 && sbatch.every((i) => i < firstCommand), name);
    assert.match(text, /^#SBATCH --output=logs\//m, name);
  }
  // what the merge reads is what the array wrote: the same settings, the same defaults
  const s = settings(score), m = settings(merge);
  for (const name of ["DATASET", "SPLIT", "FILTER", "CORPUS_DIR", "RUN", "KIT", "KIT_DENO_DIR"]) {
    assert.ok(s.has(name) && m.has(name), name);
    assert.equal(m.get(name), s.get(name), name);
  }
  // the array's indexes are the shards 0..SHARDS-1 (a task resubmitted alone keeps its shard)
  const array = /^#SBATCH --array=0-(\d+)\s/m.exec(score);
  assert.ok(array, "score.sbatch's array counts from 0");
  assert.equal(Number(array[1]) + 1, Number(s.get("SHARDS")), "SHARDS is the array's size");
  assert.match(score, /--shard "\$SLURM_ARRAY_TASK_ID\/\$SHARDS"/);
  // and the same read-only use of the shared Deno cache
  const denoBlock = (t: string) => t.slice(t.indexOf("if [ ! -d"), t.indexOf("unset INIT_CWD"));
  assert.ok(denoBlock(score).includes("export DENO_DIR"));
  assert.equal(denoBlock(merge), denoBlock(score));
  assert.match(merge, /convert shards "\$RUN\.\{shard\}\.run" "\$RUN\.run"/);
  assert.match(merge, /eval as2/);
  const ignored = await Deno.readTextFile(`${PROJECT_ROOT}/.gitignore`);
  for (const folder of ["/.deno/", "/logs/", "/runs/"]) {
    assert.ok(ignored.split("\n").includes(folder), `.gitignore lacks ${folder}`);
  }
});

/** The Job of examples/cluster/score-job.yaml, validated against batch/v1. */
function loadJob(): Job {
  const job = new Job(parse(readRepoFile("examples/cluster/score-job.yaml")));
  job.validate();
  return job;
}

Deno.test("cluster files: the Kubernetes Indexed Job is a valid batch/v1 Job of as many shards as completions", () => {
  const job = loadJob();
  const spec = job.spec!;
  assert.equal(spec.completionMode, "Indexed");
  const [container] = spec.template.spec!.containers;
  const args = container.args!;
  assert.equal(Number(args[args.indexOf("--shards") + 1]), spec.completions);
  assert.ok(spec.parallelism! <= spec.completions!);
  assert.equal(spec.template.spec!.restartPolicy, "Never");
  // DENO_DIR is a read-only mount
  const env = new Map(container.env!.map((e) => [e.name, e.value]));
  const mount = container.volumeMounts!.find((v) => v.mountPath === env.get("DENO_DIR"));
  assert.ok(mount?.readOnly, "DENO_DIR must be mounted read-only");
  // the validation is real: a broken Job is refused
  const broken = parse(readRepoFile("examples/cluster/score-job.yaml"));
  broken.spec.completions = "eight";
  assert.throws(() => new Job(broken).validate(), /completions/);
});

/** Kubernetes' `$(VAR)` expansion of a container's args (`$$` escapes a `$`). */
function expand(arg: string, env: Map<string, string | undefined>): string {
  return arg.replace(
    /\$\$|\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g,
    (all, name) => all === "$$" ? "$" : env.get(name) ?? all,
  );
}

Deno.test("cluster files: the Indexed Job's container command, run once per index, merges into the unsharded run", async () => {
  const job = loadJob();
  const n = job.spec!.completions!;
  const [container] = job.spec!.template.spec!.containers;
  const dir = await Deno.makeTempDir();
  // the pods' read-only DENO_DIR (without root, this Deno's own cache, writable)
  const ro = await readOnlyDenoDir();
  if (!ro) console.error("not root: the pods' DENO_DIR is this Deno's cache, not read-only");
  try {
    const env = new Map(container.env!.map((e) => [e.name, e.value]));
    env.set("MODEL", MODEL); // the fixture, not the manifest's placeholder
    env.set("RUN", `${dir}/ce`);
    env.set("DENO_DIR", ro?.dir ?? await denoDir());
    assert.deepEqual(container.command, ["deno", "task", "score"]);
    // the local stand-ins of the pods' data: the bundled sample on the CPU backend
    const local = ["--filter", "raw", "--dir", "samples", "--backend", "cpu"];
    const pod = (index: number) =>
      new Deno.Command(Deno.execPath(), {
        args: [
          ...container.command!.slice(1),
          ...container.args!.map((a) => expand(a, env)),
          ...local,
        ],
        cwd: PROJECT_ROOT, // the image's workingDir: the kit's checkout
        env: {
          ...NO_SCHEDULER,
          ...Object.fromEntries([...env].map(([k, v]) => [k, v ?? ""])),
          JOB_COMPLETION_INDEX: String(index),
          INIT_CWD: PROJECT_ROOT,
          NO_COLOR: "1",
        },
        stdout: "piped",
        stderr: "piped",
      }).output();
    const [reference, ...pods] = await Promise.all([
      runCli(["score", ...SCORE_ARGS, "--no-cache", "--out", "all.run"], {
        env: NO_SCHEDULER,
        cwd: dir,
      }),
      ...Array.from({ length: n }, (_, i) => pod(i)),
    ]);
    assert.equal(reference.code, 0, reference.stderr);
    pods.forEach((p, i) => {
      const err = new TextDecoder().decode(p.stderr);
      assert.ok(p.success, `index ${i}: ${err}`);
      assert.match(err, new RegExp(`shard ${i} of ${n} \\(JOB_COMPLETION_INDEX=${i}\\)`));
    });
    const merged = await runCli(["convert", "shards", "ce.{shard}.run", "ce.run"], { cwd: dir });
    assert.equal(merged.code, 0, merged.stderr);
    assert.deepEqual(await runLines(`${dir}/ce.run`), await runLines(`${dir}/all.run`));
    const qrels = `${dir}/test.qrels`;
    await writeDataQrels(qrels);
    assert.equal(
      await trecEvalAll(qrels, `${dir}/ce.run`),
      await trecEvalAll(qrels, `${dir}/all.run`),
    );
  } finally {
    await ro?.close();
    await Deno.remove(dir, { recursive: true });
  }
});
