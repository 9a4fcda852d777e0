import assert from "node:assert/strict";
import { KitError } from "../../lib/errors.ts";
import { loadCrossEncoder } from "../../lib/scoring/model/crossencoder.ts";
import { loadModel } from "../../lib/scoring/model/model.ts";
import { type Backend, hasWebGpu } from "../../lib/scoring/model/session.ts";

const BACKENDS: Backend[] = ["cpu", "wasm", ...(await hasWebGpu() ? ["webgpu" as const] : [])];
const FIXTURE = new URL("../fixtures/tiny-model/cross-encoder", import.meta.url).pathname;

/** A copy of the fixture model in a new temp folder. */
async function copyModel(): Promise<string> {
  const dest = await Deno.makeTempDir();
  await Deno.mkdir(`${dest}/onnx`, { recursive: true });
  for (const f of ["config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model.onnx"]) {
    await Deno.copyFile(`${FIXTURE}/${f}`, `${dest}/${f}`);
  }
  return dest;
}

async function editJson(file: string, edit: (obj: Record<string, unknown>) => void) {
  const obj = JSON.parse(await Deno.readTextFile(file));
  edit(obj);
  await Deno.writeTextFile(file, JSON.stringify(obj));
}

Deno.test("a tokenizer larger than config.json's vocab_size is refused when loading", async () => {
  const dir = await copyModel();
  try {
    await editJson(`${dir}/config.json`, (c) => c.vocab_size = 100);
    for (const backend of ["cpu", "wasm"] as const) {
      const e = await loadModel(dir, { backend }).then(() => undefined, (e) => e);
      assert.ok(e instanceof KitError, String(e));
      assert.equal(e.file, dir);
      assert.match(e.problem, /tokenizer \(tokenizer\.json\) has token ids up to 201/);
      assert.match(e.problem, /vocab_size is 100/);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a max length above max_position_embeddings is refused when loading", async () => {
  const e = await loadModel(FIXTURE, { backend: "cpu", maxLength: 200 }).then(
    () => undefined,
    (e) => e,
  );
  assert.ok(e instanceof KitError, String(e));
  assert.match(e.problem, /max length 200 is above the 128 positions of config\.json/);
});

Deno.test("a config.json larger than its weights' embedding tables is refused when loading", async () => {
  const dir = await copyModel();
  try {
    // config and tokenizer agree on 1000 ids, but the weights have 202 rows
    await editJson(`${dir}/config.json`, (c) => c.vocab_size = 1000);
    await editJson(`${dir}/tokenizer.json`, (t) =>
      (t.added_tokens as unknown[]).push({
        id: 900,
        content: "zzzfar",
        single_word: false,
        lstrip: false,
        rstrip: false,
        normalized: false,
        special: false,
      }));
    // WebGPU (lavapipe where no GPU exists) reads past the table without an error: the check
    // at loading is all that stands between such a folder and garbage scores there
    for (const backend of BACKENDS) {
      const words = await loadModel(dir, { backend }).then(() => undefined, (e) => e);
      assert.ok(words instanceof KitError, `${backend}: ${words}`);
      assert.equal(words.file, `${dir}/onnx/model.onnx`);
      assert.match(words.problem, /word embedding table has 202 rows, but the tokenizer/);
    }
    // 512 positions said, 128 in the weights
    const fresh = await copyModel();
    try {
      await editJson(`${fresh}/config.json`, (c) => c.max_position_embeddings = 512);
      await editJson(`${fresh}/tokenizer_config.json`, (c) => c.model_max_length = 512);
      for (const backend of BACKENDS) {
        const pos = await loadModel(fresh, { backend }).then(() => undefined, (e) => e);
        assert.ok(pos instanceof KitError, `${backend}: ${pos}`);
        assert.match(pos.problem, /position embedding table has 128 rows, but inputs of up to 512/);
      }
    } finally {
      await Deno.remove(fresh, { recursive: true });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a failure inside a run is a KitError naming the model folder", async () => {
  const dir = await copyModel();
  try {
    // a pair template with token type 5 where the model has 2: the session's Gather fails
    await editJson(`${dir}/tokenizer.json`, (t) => {
      const pair = (t.post_processor as { pair: { Sequence?: { type_id: number } }[] }).pair;
      for (const item of pair) if (item.Sequence) item.Sequence.type_id = 5;
    });
    for (const backend of ["cpu", "wasm"] as const) {
      const ce = await loadCrossEncoder(dir, { backend, scoreCache: false });
      try {
        const e = await ce.scorePairs([{ question: "who wrote hamlet?", candidate: "a b" }]).then(
          () => undefined,
          (e) => e,
        );
        assert.ok(e instanceof KitError, `${backend}: ${e}`);
        assert.equal(e.file, dir);
        assert.match(e.problem, new RegExp(`failed on a batch of 1 × \\d+ tokens on ${backend}`));
        assert.ok(!e.problem.includes("\n"), e.problem);
      } finally {
        await ce.close();
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a corrupt or empty ONNX file is named in the error", async () => {
  const dir = await copyModel();
  try {
    for (const bytes of [new Uint8Array(0), new TextEncoder().encode("not a model")]) {
      await Deno.writeFile(`${dir}/onnx/model.onnx`, bytes);
      for (const backend of ["cpu", "wasm"] as const) {
        const e = await loadModel(dir, { backend }).then(() => undefined, (e) => e);
        assert.ok(e instanceof KitError, String(e));
        assert.equal(e.file, `${dir}/onnx/model.onnx`);
        assert.match(
          e.message,
          bytes.length === 0
            ? /onnx\/model\.onnx: the ONNX file is empty/
            : /onnx\/model\.onnx: cannot load the ONNX model on (cpu|wasm): /,
        );
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a run on the native backend leaves no mat-debug-<pid>.log in the temp folder", async () => {
  const tmp = await Deno.makeTempDir();
  try {
    const code = `import { loadCrossEncoder } from ${
      JSON.stringify(
        new URL("../../lib/scoring/model/crossencoder.ts", import.meta.url).href,
      )
    };
const ce = await loadCrossEncoder(${
      JSON.stringify(FIXTURE)
    }, { backend: "cpu", scoreCache: false });
await ce.scorePairs([{ question: "who wrote hamlet?", candidate: "Shakespeare." }]);
await ce.close();
console.log(Deno.pid);`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", code],
      env: { TMPDIR: tmp },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const pid = new TextDecoder().decode(out.stdout).trim();
    assert.match(pid, /^\d+$/);
    const left = [...Deno.readDirSync(tmp)].map((e) => e.name);
    assert.ok(!left.includes(`mat-debug-${pid}.log`), left.join(" "));
    assert.deepEqual(left.filter((n) => n.startsWith("mat-debug-")), []);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("a score run on the default backend leaves nothing per run in the temp folder", async () => {
  const tmp = await Deno.makeTempDir();
  const work = await Deno.makeTempDir();
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-all",
        new URL("../../lib/cli/main.ts", import.meta.url).pathname,
        "score",
        "--model",
        FIXTURE,
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
      ],
      cwd: work,
      // XDG_RUNTIME_DIR unset, as in CI and cron jobs: the kit makes a private one for Vulkan
      env: { TMPDIR: tmp, XDG_RUNTIME_DIR: "", NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const left = [...Deno.readDirSync(tmp)].map((e) => e.name);
    // onnxruntime-node's telemetry keeps one `.ses` file per temp folder, reused by every run
    assert.deepEqual(left.filter((n) => n !== ".ses"), []);
  } finally {
    await Deno.remove(tmp, { recursive: true });
    await Deno.remove(work, { recursive: true });
  }
});
