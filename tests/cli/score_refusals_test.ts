/**
 * `score` and `bench scoring` refuse what cannot work before they say or time anything, with
 * a message that names the real problem.
 */
import assert from "node:assert/strict";
import { PROJECT_ROOT } from "../../lib/data/paths.ts";
import { runCli } from "../helpers.ts";

const MODEL = `${PROJECT_ROOT}/tests/fixtures/tiny-model/qa`;
const lines = (text: string) => text.split("\n").filter((l) => l.trim() !== "");

Deno.test("score: QRCD with --shard is refused before the backend line", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const r = await runCli(
      ["score", "--model", MODEL, "--dataset", "qrcd", "--split", "dev", "--out", "r.{shard}.json"]
        .concat(["--shard", "0/2"]),
      { cwd: dir },
    );
    assert.equal(r.code, 2, r.stderr);
    assert.doesNotMatch(r.stderr, /scoring backend/);
    assert.equal(lines(r.stderr).length, 1, r.stderr);
    assert.match(r.stderr, /a QRCD run is one JSON object: score QRCD unsharded/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("score: a lexical scorer or ltr on QRCD is told that QRCD needs an extractive reader", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const model of ["lexical:bm25", "ltr"]) {
      const r = await runCli(
        ["score", "--model", model, "--dataset", "qrcd", "--split", "dev", "--out", "r.json"],
        { cwd: dir },
      );
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`--model ${model} ranks candidate sentences`));
      assert.match(r.stderr, /extractive QA reader/);
      assert.doesNotMatch(r.stderr, /no model folder/);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bench scoring: a missing --model fails before anything is timed; a bad --batch-sizes is named", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const missing = `${dir}/no-such-model`;
    const r = await runCli(
      ["bench", "scoring", "--model", missing, "--backends", "wasm", "--pairs", "4", "--no-torch"],
      { cwd: dir },
    );
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /no model folder at '.*no-such-model'/);
    assert.doesNotMatch(r.stderr, /tiny fixture/);
    const zero = await runCli(["bench", "scoring", "--batch-sizes", "0", "--no-torch"], {
      cwd: dir,
    });
    assert.equal(zero.code, 2, zero.stderr);
    assert.match(zero.stderr, /--batch-sizes: not a positive integer: '0'/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("score: a failure inside onnxruntime is one worded line naming the folder, exit 2, on cpu and wasm", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const model = `${dir}/m`;
    await Deno.mkdir(`${model}/onnx`, { recursive: true });
    const fixture = `${PROJECT_ROOT}/tests/fixtures/tiny-model/cross-encoder`;
    for (const f of ["config.json", "tokenizer_config.json", "onnx/model.onnx"]) {
      await Deno.copyFile(`${fixture}/${f}`, `${model}/${f}`);
    }
    // a pair template with token type 5 where the model has 2: Gather fails inside the run
    const tj = JSON.parse(await Deno.readTextFile(`${fixture}/tokenizer.json`));
    for (const item of tj.post_processor.pair) if (item.Sequence) item.Sequence.type_id = 5;
    await Deno.writeTextFile(`${model}/tokenizer.json`, JSON.stringify(tj));
    for (const backend of ["cpu", "wasm"]) {
      const r = await runCli([
        "score",
        "--model",
        "m",
        "--backend",
        backend,
        "--dataset",
        "wikiqa",
        "--split",
        "test",
        "--filter",
        "raw",
        "--dir",
        "samples",
        "--no-cache",
        "--out",
        "r.run",
      ], { cwd: dir });
      assert.equal(r.code, 2, r.stderr);
      assert.ok(!r.stderr.includes("\x1b["), `${backend}: ANSI escapes on stderr`);
      assert.doesNotMatch(r.stderr, /^\s+at /m, `${backend}: a stack trace`);
      const errors = lines(r.stderr).filter((l) => !l.startsWith("scoring backend:"));
      assert.equal(errors.length, 1, r.stderr);
      assert.match(
        errors[0],
        new RegExp(`^error: m: the model failed on a batch .* on ${backend}:`),
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
