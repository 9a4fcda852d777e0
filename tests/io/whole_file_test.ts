/**
 * `lib/io/whole_file.ts`: a file read whole is a regular file within its kind's limit, checked
 * before a byte is read (a FIFO is refused without waiting for a writer), and read with the
 * limit as a bound on the bytes (a `/proc` file states 0 bytes); every refusal a `KitError`
 * naming the file and what it is.
 */
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { KitError } from "../../lib/errors.ts";
import {
  checkWholeFileSync,
  readWholeFile,
  readWholeFileSync,
  readWholeText,
  tooLargeProblem,
  WHOLE_FILE_LIMITS,
} from "../../lib/io/whole_file.ts";

/** What the tests try, made in a fresh folder. */
async function specials() {
  const dir = await Deno.makeTempDir({ prefix: "whole-file-" });
  const at = (name: string) => `${dir}/${name}`;
  await Deno.mkdir(at("folder"));
  const fifo = await new Deno.Command("mkfifo", { args: [at("fifo")] }).output();
  assert(fifo.success, "mkfifo failed");
  await Deno.symlink("/dev/zero", at("zero"));
  await Deno.symlink("gone", at("dangling"));
  await Deno.symlink("loop-b", at("loop-a"));
  await Deno.symlink("loop-a", at("loop-b"));
  await Deno.writeTextFile(at("good.json"), '{"a": 1}\n');
  return { dir, at };
}

/**
 * `promise`, failing instead of waiting past `ms` (a FIFO opened without a writer would wait
 * forever): a deadline, not a sleep; the passing case does not wait for it.
 */
async function settles<T>(promise: Promise<T>, what: string, ms = 30_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still waiting after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** The error `fn` rejects with, asserted to be a one-line KitError naming `file`. */
async function kitError(fn: () => Promise<unknown>, file: string): Promise<KitError> {
  try {
    await fn();
  } catch (e) {
    assert(e instanceof KitError, `${(e as Error).name} instead of a KitError: ${e}`);
    assert.equal(e.file, file);
    assert(!e.message.includes("\n"), `more than one line: ${e.message}`);
    return e;
  }
  throw new Error(`${file} was read`);
}

Deno.test("whole file: every kind of entry that is not a regular file is named, async and sync", async () => {
  const { dir, at } = await specials();
  try {
    const cases: [string, RegExp][] = [
      ["folder", /^is a folder, not a regular file; expected ONNX model weights$/],
      ["fifo", /^is a FIFO \(a named pipe\), not a regular file; expected ONNX model weights$/],
      ["zero", /^is a character device, not a regular file; expected ONNX model weights$/],
      ["dangling", /^a dangling link \(to 'gone', which does not exist\)$/],
      ["loop-a", /^too many levels of symbolic links \(a link loop\?\)$/],
      ["missing", /^file not found$/],
    ];
    for (const [name, says] of cases) {
      const e = await settles(kitError(() => readWholeFile(at(name), "weights"), at(name)), name);
      assert.match(e.problem, says, name);
      const s = await kitError(
        () => Promise.resolve(readWholeFileSync(at(name), "weights")),
        at(name),
      );
      assert.equal(s.message, e.message, `${name}: sync and async say the same`);
    }
    // missingOk: only a missing file is undefined; a dangling link is still an error.
    assert.equal(await readWholeFile(at("missing"), "config", { missingOk: true }), undefined);
    await kitError(
      () => readWholeFile(at("dangling"), "config", { missingOk: true }),
      at("dangling"),
    );
    // A link to a regular file is followed.
    await Deno.symlink("good.json", at("link.json"));
    assert.equal(await readWholeText(at("link.json"), "config"), '{"a": 1}\n');
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("whole file: a FIFO without a writer is refused at once, and never opened", async () => {
  const { dir, at } = await specials();
  try {
    for (const kind of Object.keys(WHOLE_FILE_LIMITS) as (keyof typeof WHOLE_FILE_LIMITS)[]) {
      const e = await settles(kitError(() => readWholeFile(at("fifo"), kind), at("fifo")), kind);
      assert.match(e.problem, /^is a FIFO/);
    }
    assert.throws(() => checkWholeFileSync(at("fifo"), "spec"), /is a FIFO/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("whole file: the bytes read are bounded, whatever size the file states", async () => {
  // /proc files state 0 bytes: read whole, and refused past a lower limit.
  const maps = readWholeFileSync("/proc/self/maps", "asset");
  assert(maps.length > 100);
  const e = await kitError(
    () => readWholeFile("/proc/self/maps", "asset", { limit: 100 }),
    "/proc/self/maps",
  );
  assert.equal(e.problem, tooLargeProblem("asset", undefined, 100));
  assert.match(e.problem, /^more than 100 bytes read, larger than the 100 bytes limit/);
  // A file over the limit is refused from its size, before it is read (sparse: no disk used).
  const { dir, at } = await specials();
  try {
    await Deno.truncate(at("good.json"), 1000);
    const big = await kitError(
      () => readWholeFile(at("good.json"), "config", { limit: 999 }),
      at("good.json"),
    );
    assert.equal(
      big.problem,
      "1000 bytes, larger than the 999 bytes limit for a model configuration",
    );
    assert.equal((await readWholeFile(at("good.json"), "config", { limit: 1000 })).length, 1000);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("whole file: text is read as every text of the kit (BOM, CRLF, gzip, strict UTF-8)", async () => {
  const { dir, at } = await specials();
  try {
    await Deno.writeTextFile(at("bom.json"), '\uFEFF{"a":\r\n1}');
    assert.equal(await readWholeText(at("bom.json"), "spec"), '{"a":\n1}');
    await Deno.writeFile(at("gz.json"), gzipSync('{"b": 2}'));
    assert.equal(await readWholeText(at("gz.json"), "spec"), '{"b": 2}');
    await Deno.writeFile(at("bad.json"), new Uint8Array([0x7b, 0xff, 0x7d]));
    const e = await kitError(() => readWholeText(at("bad.json"), "spec"), at("bad.json"));
    assert.match(e.message, /bad\.json:1: invalid UTF-8/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Whether this process can drop the capabilities that let root read any file. */
const SETPRIV = Deno.uid() === 0 &&
  await new Deno.Command("setpriv", { args: ["--version"], stdout: "null", stderr: "null" })
    .output().then((o) => o.success, () => false);

Deno.test({
  // chmod 000 does not stop root (CAP_DAC_OVERRIDE): as root the read runs in a child without
  // that capability (setpriv), where the mode applies to root as to anyone.
  name: "whole file: an unreadable file is 'unreadable: permission denied'",
  ignore: Deno.uid() === 0 && !SETPRIV,
  async fn() {
    const { dir, at } = await specials();
    try {
      await Deno.writeTextFile(at("secret.json"), "{}");
      await Deno.chmod(at("secret.json"), 0o000);
      const module = new URL("../../lib/io/whole_file.ts", import.meta.url).href;
      const script = `import { readWholeFile } from "${module}";\n` +
        `try { await readWholeFile(${JSON.stringify(at("secret.json"))}, "config"); ` +
        `console.log("read"); } catch (e) { console.log(e.message); }`;
      const deno = [Deno.execPath(), "eval", "--no-config", script];
      const [cmd, ...args] = Deno.uid() === 0
        ? ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--", ...deno]
        : deno;
      const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
      const said = new TextDecoder().decode(out.stdout).trim();
      assert.equal(said, `${at("secret.json")}: unreadable: permission denied`);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
if (Deno.uid() === 0 && !SETPRIV) {
  console.error(
    "skipping the unreadable-file test: running as root without setpriv to drop " +
      "CAP_DAC_OVERRIDE (chmod 000 does not stop root)",
  );
}
