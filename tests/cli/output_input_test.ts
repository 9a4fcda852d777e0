/**
 * An output that is one of the command's own inputs is refused before any work, even with
 * `--force` (the same file by device and inode: a relative spelling or a hard link too), in
 * every command that takes `--out` and in `convert`'s OUT; the input is left as it was. And `-c` with `--intersect` is
 * refused: they ask for two query sets.
 */
import { assert, assertEquals } from "../assert.ts";
import nodeAssert from "node:assert/strict";
import { protectedFolders, refuseReplacingInFolders } from "../../lib/io/output.ts";
import { runCli } from "../helpers.ts";

Deno.test("--out naming an input is refused even with --force; the input keeps its bytes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const a = "q1 Q0 d1 1 1 a\nq1 Q0 d2 2 0.5 a\n", b = "q1 Q0 d1 1 0.2 b\nq1 Q0 d2 2 0.9 b\n";
    await Deno.writeTextFile(`${dir}/rA`, a);
    await Deno.writeTextFile(`${dir}/rB`, b);
    await Deno.writeTextFile(`${dir}/qrels`, "q1 0 d1 1\n");
    await Deno.link(`${dir}/rB`, `${dir}/rB-link`);
    const cases: [string[], string][] = [
      [["fuse", "--out", "rA", "rA", "rB", "--force"], "rA"],
      [["fuse", "--out", "./rA", "rA", "rB"], "./rA"],
      [
        ["eval", "compare", "--qrels", "qrels", "rA", "rB", "--out", "rB-link", "--force"],
        "rB-link",
      ],
      [["eval", "compare", "--qrels", "qrels", "rA", "rB", "--out", "qrels", "--force"], "qrels"],
    ];
    for (const [args, out] of cases) {
      const r = await runCli(args, { cwd: dir });
      assertEquals(r.code, 2, r.stderr);
      assert(
        new RegExp(`--out ${out.replace(".", "\\.")} is one of this command's inputs`).test(
          r.stderr,
        ),
        r.stderr,
      );
      assertEquals(r.stderr.trim().split("\n").length, 1, r.stderr);
    }
    assertEquals(await Deno.readTextFile(`${dir}/rA`), a);
    assertEquals(await Deno.readTextFile(`${dir}/rB`), b);
    assertEquals(await Deno.readTextFile(`${dir}/qrels`), "q1 0 d1 1\n");
    // Another file is written as before.
    const ok = await runCli(["fuse", "--out", "f.run", "rA", "rB"], { cwd: dir });
    assertEquals(ok.code, 0, ok.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert's OUT naming its IN is refused even with --force, as --out is everywhere; the input keeps its bytes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const run = "q1 Q0 d1 1 1 a\nq1 Q0 d2 2 0.5 a\n";
    await Deno.writeTextFile(`${dir}/a.run`, run);
    await Deno.writeTextFile(`${dir}/q`, "q1 0 d1 1\n");
    await Deno.link(`${dir}/a.run`, `${dir}/a-link.run`);
    await Deno.link(`${dir}/q`, `${dir}/q-link`);
    const cases: [string[], string, string][] = [
      [["convert", "run", "a.run", "a.run", "--force"], "a.run", "a.run"],
      [["convert", "run", "a.run", "./a.run", "--force"], "./a.run", "a.run"],
      [["convert", "run", "a.run", "a-link.run", "--force"], "a-link.run", "a.run"],
      [["convert", "qrels", "q", "q-link", "--force"], "q-link", "q"],
    ];
    for (const [args, out, input] of cases) {
      const r = await runCli(args, { cwd: dir });
      assertEquals(r.code, 2, r.stderr);
      assertEquals(
        r.stderr,
        `error: OUT ${out} is one of this command's inputs (${input}): writing it would ` +
          "destroy what the command reads, even with --force; choose another OUT\n",
      );
    }
    assertEquals(await Deno.readTextFile(`${dir}/a.run`), run);
    assertEquals(await Deno.readTextFile(`${dir}/q`), "q1 0 d1 1\n");
    // Another file is written as before.
    const ok = await runCli(["convert", "run", "a.run", "a.json"], { cwd: dir });
    assertEquals(ok.code, 0, ok.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("-c and --intersect together are refused: two query sets asked for at once", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/r1`, "q1 Q0 d1 1 1 a\n");
    await Deno.writeTextFile(`${dir}/r2`, "q1 Q0 d1 1 1 b\n");
    await Deno.writeTextFile(`${dir}/qrels`, "q1 0 d1 1\nq2 0 d1 1\n");
    for (const command of [["eval", "compare"], ["eval", "stability"]]) {
      const r = await runCli([...command, "--qrels", "qrels", "-c", "--intersect", "r1", "r2"], {
        cwd: dir,
      });
      assertEquals(r.code, 2, r.stderr);
      assert(/-c and --intersect ask for two query sets/.test(r.stderr), r.stderr);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--out never replaces a file inside a folder the command reads: the model's, the corpus's (given or the default cache)", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // A model folder and a corpus folder of the user's; the refusal comes before any loading.
    await Deno.mkdir(`${dir}/mymodel/onnx`, { recursive: true });
    await Deno.writeTextFile(`${dir}/mymodel/onnx/model.onnx`, "fine-tuned weights");
    await Deno.writeTextFile(`${dir}/mymodel/config.json`, "{}");
    await Deno.mkdir(`${dir}/corp/wikiqa`, { recursive: true });
    await Deno.writeTextFile(`${dir}/corp/wikiqa/WikiQA-test.tsv`, "the corpus");
    await Deno.mkdir(`${dir}/cache/wikiqa`, { recursive: true });
    await Deno.writeTextFile(`${dir}/cache/wikiqa/WikiQA-test.tsv`, "the installed corpus");
    await Deno.symlink(`${dir}/mymodel/config.json`, `${dir}/config-link`);
    const score = ["score", "--dataset", "wikiqa", "--split", "test", "--force"];
    const cases: [string[], string][] = [
      [[...score, "--model", "./mymodel", "--out", "mymodel/onnx/model.onnx"], "./mymodel"],
      [[...score, "--model", "mymodel/", "--out", "config-link"], "mymodel/"],
      [[
        ...score,
        "--model",
        "lexical:bm25",
        "--dir",
        "corp",
        "--out",
        "corp/wikiqa/WikiQA-test.tsv",
      ], "corp"],
      [[
        "data",
        "qrels",
        "wikiqa",
        "--split",
        "test",
        "--dir",
        "corp",
        "--out",
        "corp/wikiqa/WikiQA-test.tsv",
        "--force",
      ], "corp"],
      // No --dir: the corpus cache ($QA_KIT_DATA_DIR) is read, so it is protected too.
      [
        [...score, "--model", "lexical:bm25", "--out", "cache/wikiqa/WikiQA-test.tsv"],
        `${dir}/cache`,
      ],
    ];
    for (const [args, folder] of cases) {
      const r = await runCli(args, { cwd: dir, env: { QA_KIT_DATA_DIR: `${dir}/cache` } });
      assertEquals(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert(
        r.stderr.includes(`would replace a file inside ${folder}, a folder this command reads`),
        r.stderr,
      );
    }
    assertEquals(await Deno.readTextFile(`${dir}/mymodel/onnx/model.onnx`), "fine-tuned weights");
    assertEquals(await Deno.readTextFile(`${dir}/mymodel/config.json`), "{}");
    assertEquals(await Deno.readTextFile(`${dir}/corp/wikiqa/WikiQA-test.tsv`), "the corpus");
    assertEquals(
      await Deno.readTextFile(`${dir}/cache/wikiqa/WikiQA-test.tsv`),
      "the installed corpus",
    );
    // A new file beside the model's is written as before (here: refused only for the bad model).
    const beside = await runCli([...score, "--model", "./mymodel", "--out", "mymodel/scores.run"], {
      cwd: dir,
    });
    assert(!beside.stderr.includes("would replace a file inside"), beside.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the kit's data folders are off limits: no output replaces the corpus cache, the score cache or the samples, even with --force", async () => {
  const dir = await Deno.makeTempDir();
  const cache = `${dir}/cache`;
  try {
    await Deno.mkdir(`${cache}/wikiqa`, { recursive: true });
    await Deno.mkdir(`${cache}/scores`, { recursive: true });
    const corpus = "the corpus\n", scores = '{"modelKey":"m","scores":{}}';
    await Deno.writeTextFile(`${cache}/wikiqa/WikiQA-test.tsv`, corpus);
    await Deno.writeTextFile(`${cache}/scores/m.json`, scores);
    const run = "q1 Q0 d1 1 1 a\nq1 Q0 d2 2 0.5 a\n";
    await Deno.writeTextFile(`${dir}/rA`, run);
    await Deno.writeTextFile(`${dir}/rB`, run.replaceAll(" a\n", " b\n"));
    await Deno.writeTextFile(`${dir}/qrels`, "q1 0 d1 1\n");
    const env = { QA_KIT_DATA_DIR: cache };
    const cases: [string[], RegExp][] = [
      [
        ["fuse", "--out", "cache/wikiqa/WikiQA-test.tsv", "rA", "rB", "--force"],
        /would replace a file inside/,
      ],
      [["convert", "run", "rA", "cache/scores/m.json", "--force"], /would replace a file inside/],
      [
        [
          "eval",
          "compare",
          "--qrels",
          "qrels",
          "rA",
          "rB",
          "--out",
          "cache/wikiqa/WikiQA-test.tsv",
          "--force",
        ],
        /would replace a file inside/,
      ],
      [
        ["report", "--run", "a=rA", "--out", "cache", "--force", "--no-pdf"],
        /--out \S*cache is \S*cache, a folder/,
      ],
      [["report", "--run", "a=rA", "--out", "cache/wikiqa", "--force", "--no-pdf"], /is inside/],
      [
        ["report", "--run", "a=rA", "--out", ".", "--force", "--no-pdf"],
        /holds .*cache|current folder/,
      ],
    ];
    for (const [args, says] of cases) {
      const r = await runCli(args, { cwd: dir, env });
      assertEquals(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert(says.test(r.stderr), `${args.join(" ")}: ${r.stderr}`);
      assert(/refused even with --force|current folder/.test(r.stderr), r.stderr);
    }
    assertEquals(await Deno.readTextFile(`${cache}/wikiqa/WikiQA-test.tsv`), corpus);
    assertEquals(await Deno.readTextFile(`${cache}/scores/m.json`), scores);
    assertEquals([...Deno.readDirSync(cache)].map((e) => e.name).sort(), ["scores", "wikiqa"]);
    // A report whose folder would hold the cache, run from elsewhere.
    const elsewhere = await Deno.makeTempDir();
    await Deno.copyFile(`${dir}/rA`, `${elsewhere}/rA`);
    const r = await runCli(
      ["report", "--run", `a=${elsewhere}/rA`, "--out", dir, "--force", "--no-pdf"],
      { cwd: "/", env },
    );
    await Deno.remove(elsewhere, { recursive: true });
    assertEquals(r.code, 2, r.stderr);
    assert(/holds .*cache, a folder this command reads or the kit keeps/.test(r.stderr), r.stderr);
    // The samples, in the library (a failing rule here must not touch the checkout's samples).
    const samples = new URL("../../data/samples", import.meta.url).pathname;
    nodeAssert.throws(
      () => refuseReplacingInFolders(samples, protectedFolders([]), "--out", "folder"),
      /is .*samples, a folder this command reads or the kit keeps/,
    );
    nodeAssert.throws(
      () =>
        refuseReplacingInFolders(`${samples}/runs/wikiqa-test.run`, protectedFolders([]), "--out"),
      /would replace a file inside/,
    );
    // A new file beside the cache's is written as before.
    const ok = await runCli(["fuse", "--out", "cache/fused.run", "rA", "rB"], { cwd: dir, env });
    assertEquals(ok.code, 0, ok.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a model's folder is off limits to every command, whether or not it reads the model", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fixture = new URL("../fixtures/tiny-model/cross-encoder", import.meta.url).pathname;
    await Deno.mkdir(`${dir}/m0/onnx`, { recursive: true });
    for (const f of ["config.json", "tokenizer.json", "onnx/model.onnx"]) {
      await Deno.copyFile(`${fixture}/${f}`, `${dir}/m0/${f}`);
    }
    const tokenizer = await Deno.readFile(`${dir}/m0/tokenizer.json`);
    await Deno.writeTextFile(`${dir}/a.run`, "q1 Q0 d1 1 1 a\n");
    await Deno.writeTextFile(`${dir}/b.run`, "q1 Q0 d1 1 2 b\n");
    const cases: string[][] = [
      [
        "score",
        "--model",
        "lexical:bm25",
        "--dataset",
        "wikiqa",
        "--split",
        "test",
        "--out",
        "m0/tokenizer.json",
        "--force",
      ],
      ["fuse", "a.run", "b.run", "--out", "m0/onnx/model.onnx", "--force"],
      ["convert", "run", "a.run", "m0/config.json", "--force"],
    ];
    for (const args of cases) {
      const r = await runCli(args, { cwd: dir });
      assertEquals(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert(/would replace a file inside \S*m0, a model's folder/.test(r.stderr), r.stderr);
    }
    assertEquals(await Deno.readFile(`${dir}/m0/tokenizer.json`), tokenizer);
    const report = await runCli([
      "report",
      "--run",
      "a=a.run",
      "--out",
      "m0",
      "--force",
      "--no-pdf",
    ], {
      cwd: dir,
    });
    assertEquals(report.code, 2, report.stderr);
    assert(/--out \S*m0 is \S*m0, a model's folder/.test(report.stderr), report.stderr);
    // A new file beside the weights is written as before.
    const ok = await runCli(["fuse", "a.run", "b.run", "--out", "m0/fused.run"], { cwd: dir });
    assertEquals(ok.code, 0, ok.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
