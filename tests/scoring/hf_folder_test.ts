/**
 * A cross-encoder in the Hugging Face layout (`config.json`, `vocab.txt` or `tokenizer.json`,
 * `onnx/model.onnx`) loads from a local folder with no network and scores on every backend:
 * the kit's generated model written in exactly that layout, with only a `vocab.txt` (as many
 * BERT repositories ship it), scored in a process that has no network permission.
 */
import assert from "node:assert/strict";
import { loadCrossEncoder } from "../../lib/scoring/model/crossencoder.ts";
import { writeShapedModel } from "../../lib/scoring/model/shaped.ts";
import { generatedVocabulary } from "../../lib/scoring/model/wordpiece_vocab.ts";
import { ModelTokenizer } from "../../lib/scoring/model/tokenizer.ts";
import { hasWebGpu } from "../../lib/scoring/model/session.ts";
import { benchPairs } from "../../lib/bench/scoring.ts";
import { PROJECT_ROOT } from "../../lib/data/paths.ts";

/** A BERT of the generated vocabulary's full size, small enough to score on lavapipe. */
const SHAPE = {
  layers: 2,
  hidden: 64,
  heads: 4,
  intermediate: 128,
  vocab: 30522,
  maxPositions: 128,
  typeVocab: 2,
};

/** Writes the generated model twice: as the kit writes it, and in the vocab.txt layout. */
async function twoLayouts(root: string): Promise<{ json: string; vocabTxt: string }> {
  const json = `${root}/with-tokenizer-json`;
  await writeShapedModel(json, SHAPE, { seed: 7, biasStd: 0.02 });
  // named like a hub repo id (owner/name): a folder of that name is read, nothing downloaded
  const vocabTxt = `${root}/org/bert`;
  await Deno.mkdir(`${vocabTxt}/onnx`, { recursive: true });
  await Deno.copyFile(`${json}/config.json`, `${vocabTxt}/config.json`);
  await Deno.copyFile(`${json}/tokenizer_config.json`, `${vocabTxt}/tokenizer_config.json`);
  await Deno.copyFile(`${json}/onnx/model.onnx`, `${vocabTxt}/onnx/model.onnx`);
  await Deno.writeTextFile(
    `${vocabTxt}/vocab.txt`,
    (await generatedVocabulary()).join("\n") + "\n",
  );
  await Deno.writeTextFile(
    `${vocabTxt}/special_tokens_map.json`,
    JSON.stringify({
      unk_token: "[UNK]",
      sep_token: "[SEP]",
      pad_token: "[PAD]",
      cls_token: "[CLS]",
      mask_token: "[MASK]",
    }),
  );
  return { json, vocabTxt };
}

Deno.test("HF folder: a vocab.txt tokenizes as the tokenizer.json built from it", async () => {
  const root = await Deno.makeTempDir();
  try {
    const { json, vocabTxt } = await twoLayouts(root);
    const a = await ModelTokenizer.load(json);
    const b = await ModelTokenizer.load(vocabTxt);
    for (const p of await benchPairs(64)) {
      assert.deepEqual(
        b.encodePair(p.question, p.candidate, 128),
        a.encodePair(p.question, p.candidate, 128),
      );
    }
    // accents and case as BERT uncased normalizes them; an unknown character
    for (const text of ["Éclair CAFÉ naïve", "x\u{1F600}y", "北京 大学"]) {
      assert.deepEqual(b.encodeText(text), a.encodeText(text), text);
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("HF folder: a vocab.txt with a token twice, or without [CLS], names the file and line", async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${root}/vocab.txt`, "[PAD]\n[UNK]\n[CLS]\n[SEP]\na\nb\na\n");
    await assert.rejects(
      ModelTokenizer.load(root),
      (e: Error) => /vocab\.txt:7: .*'a' is on lines 5 and 7/.test(e.message),
    );
    await Deno.writeTextFile(`${root}/vocab.txt`, "[PAD]\n[UNK]\n[SEP]\na\n");
    await assert.rejects(ModelTokenizer.load(root), /has no \[CLS\]: not a BERT vocabulary/);
    await Deno.remove(`${root}/vocab.txt`);
    await assert.rejects(ModelTokenizer.load(root), /neither tokenizer\.json nor vocab\.txt/);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("HF folder: loads with no network and scores on every backend as the tokenizer.json copy does", async () => {
  const root = await Deno.makeTempDir();
  try {
    const { json } = await twoLayouts(root);
    const pairs = await benchPairs(12);
    const ce = await loadCrossEncoder(json, { backend: "cpu", scoreCache: false });
    const expected = await ce.scorePairs(pairs, { batchSize: 4 });
    await ce.close();
    const backends = (await hasWebGpu()) ? ["cpu", "wasm", "webgpu"] : ["cpu", "wasm"];
    // the child: no --allow-net, so any download attempt fails instead of passing unseen
    const child = `${root}/child.ts`;
    await Deno.writeTextFile(
      child,
      `import { loadCrossEncoder } from "${PROJECT_ROOT}/lib/scoring/model/crossencoder.ts";
const pairs = JSON.parse(Deno.args[1]);
const out: Record<string, number[]> = {};
for (const backend of ${JSON.stringify(backends)}) {
  const ce = await loadCrossEncoder(Deno.args[0], { backend, scoreCache: false });
  out[backend] = [...await ce.scorePairs(pairs, { batchSize: 4 })];
  await ce.close();
}
console.log(JSON.stringify(out));
`,
    );
    const run = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-read",
        "--allow-env",
        "--allow-ffi",
        `--allow-write=${root}`,
        child,
        "org/bert",
        JSON.stringify(pairs),
      ],
      cwd: root,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const err = new TextDecoder().decode(run.stderr);
    assert.ok(run.success, err);
    const scores = JSON.parse(new TextDecoder().decode(run.stdout)) as Record<string, number[]>;
    assert.deepEqual(Object.keys(scores), backends);
    for (const backend of backends) {
      for (let i = 0; i < pairs.length; i++) {
        assert.ok(
          Math.abs(scores[backend][i] - expected[i]) < 1e-4,
          `${backend} pair ${i}: ${scores[backend][i]} vs ${expected[i]}`,
        );
      }
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
