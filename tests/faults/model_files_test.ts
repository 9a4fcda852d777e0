/**
 * Model folders with bad files (config.json, tokenizer.json, ONNX weights), loaded through
 * `loadModel` on the cpu backend with the committed tiny model as the good copy. The tests
 * that were once marked `ignore: true` (bugs in lib/scoring) now pass: the model files are
 * read through lib/io/json.ts.
 */
import "../quick.ts";
import { assert, assertRejects } from "../assert.ts";
import { KitError } from "../../lib/errors.ts";
import { loadModel } from "../../lib/scoring/model/model.ts";

const GOOD = new URL("../fixtures/tiny-model/qa", import.meta.url).pathname;

/** A copy of the tiny QA model with one file changed. */
async function modelWith(change: (dir: string) => Promise<void>): Promise<string> {
  const dir = await Deno.makeTempDir();
  for (const e of Deno.readDirSync(GOOD)) {
    if (e.isFile) await Deno.copyFile(`${GOOD}/${e.name}`, `${dir}/${e.name}`);
  }
  await change(dir);
  return dir;
}

async function loads(dir: string): Promise<void> {
  const m = await loadModel(dir, { backend: "cpu" });
  await m.session.release();
}

async function rejectsWithKitError(dir: string, pattern: RegExp): Promise<void> {
  const e = await assertRejects(() => loads(dir), pattern);
  assert(e instanceof KitError, `${e.name} instead of KitError: ${e.message}`);
}

Deno.test("model files: broken JSON, truncated or empty weights and missing weights are KitErrors", async () => {
  await rejectsWithKitError(
    await modelWith((d) => Deno.writeTextFile(`${d}/config.json`, '{"a": 1,\n "b": }')),
    /config\.json:2: invalid JSON/,
  );
  await rejectsWithKitError(
    await modelWith((d) => Deno.writeTextFile(`${d}/tokenizer.json`, '{"model": ')),
    /tokenizer\.json:1: invalid JSON/,
  );
  await rejectsWithKitError(
    await modelWith(async (d) => {
      const b = await Deno.readFile(`${d}/model.onnx`);
      await Deno.writeFile(`${d}/model.onnx`, b.subarray(0, b.length >> 1));
    }),
    /cannot load the ONNX model on cpu.*protobuf parsing failed/,
  );
  await rejectsWithKitError(
    await modelWith((d) => Deno.writeFile(`${d}/model.onnx`, new Uint8Array())),
    /model\.onnx: the ONNX file is empty/,
  );
  await rejectsWithKitError(
    await modelWith((d) => Deno.remove(`${d}/model.onnx`)),
    /no ONNX weights/,
  );
  // CRLF line ends in the JSON files are fine.
  await loads(
    await modelWith(async (d) => {
      const t = await Deno.readTextFile(`${d}/config.json`);
      await Deno.writeTextFile(`${d}/config.json`, t.replace(/\n/g, "\r\n"));
    }),
  );
});

Deno.test({
  // Model JSON files go through lib/io/json.ts: a UTF-8 BOM is dropped as everywhere else.
  name: "model files: a BOM in config.json is accepted",
  async fn() {
    await loads(
      await modelWith(async (d) => {
        const t = await Deno.readTextFile(`${d}/config.json`);
        await Deno.writeTextFile(`${d}/config.json`, "\uFEFF" + t);
      }),
    );
  },
});

Deno.test({
  // Strict UTF-8: no silent U+FFFD replacement.
  name: "model files: invalid UTF-8 in config.json is a KitError",
  async fn() {
    await rejectsWithKitError(
      await modelWith((d) =>
        Deno.writeFile(`${d}/config.json`, new Uint8Array([123, 34, 0xff, 34, 58, 49, 125]))
      ),
      /config\.json:1: invalid UTF-8/,
    );
  },
});

Deno.test({
  name: "model files: config.json that is not an object is a KitError",
  async fn() {
    await rejectsWithKitError(
      await modelWith((d) => Deno.writeTextFile(`${d}/config.json`, "null")),
      /config\.json: .*expected a JSON object/,
    );
  },
});

Deno.test({
  // @huggingface/tokenizers throws a plain Error for a wrong shape; the kit names the file.
  name: "model files: tokenizer.json of the wrong shape is a KitError",
  async fn() {
    await rejectsWithKitError(
      await modelWith((d) => Deno.writeTextFile(`${d}/tokenizer.json`, '{"model": 5}')),
      /tokenizer\.json: /,
    );
  },
});
