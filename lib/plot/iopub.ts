/**
 * Knowing when a notebook output has really left the kernel.
 *
 * Deno's Jupyter kernel (2.9.x) runs a cell in one thread and publishes its outputs from
 * another: `Deno.jupyter.display` only queues the message, and a separate loop signs and
 * writes it to the iopub socket. When the cell ends, the kernel publishes `status: idle`
 * from a third place, without waiting for that loop. So `idle` can overtake the cell's
 * last outputs (nbclient, nbconvert and papermill then drop them, or file them under the
 * next cell), and a large output still being written when `idle` is written gets its bytes
 * interleaved with it (the frontend sees a garbled message: "Invalid Signature").
 *
 * The cure from inside the cell: subscribe to the kernel's own iopub socket (its address is
 * in the connection file the kernel was started with) and, after queuing an output, queue a
 * small marker and wait until the marker comes back. The kernel publishes queued messages
 * one at a time and to every subscriber in turn, and this subscriber is the last one, so
 * when the marker arrives every earlier output has been written to every frontend. The
 * marker is a `status: busy` message (true while a cell runs; every frontend ignores a
 * repeated busy), tagged in its metadata.
 *
 * The subscription also shows what frontends do: a `kernel_info_request` means a frontend
 * (re)connected (a page reload), and `execute_input` gives the code of each cell run, which
 * is how `display` decides where plotly.js must be embedded again (see `display.ts`).
 *
 * The subscriber speaks the minimum of ZMTP 3.0 (the NULL mechanism, as the kernel does);
 * it only reads, so it needs no key.
 *
 * @module
 */

/** The parts of a Jupyter connection file used here. */
export interface ConnectionInfo {
  ip: string;
  iopub_port: number;
  transport?: string;
}

/** One iopub message, as much of it as the watcher reads. */
export interface IopubMessage {
  msgType: string;
  /** The request this message answers (its `msg_id` and `msg_type`). */
  parent: { msg_id?: string; msg_type?: string };
  metadata: Record<string, unknown>;
  /** Parsed only for `status` and `execute_input` messages; `undefined` otherwise. */
  content?: Record<string, unknown>;
}

const ENC = new TextEncoder();
const DEC = new TextDecoder();
const DELIMITER = "<IDS|MSG>";

/**
 * The connection file of the Jupyter kernel this process is, or undefined when it is not a
 * kernel (`deno test`, a script). Read from the command line (`deno jupyter --kernel --conn
 * FILE`): `/proc/self/cmdline` on Linux, `ps` elsewhere.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { kernelConnectionFile } from "./iopub.ts";
 * assert.equal(kernelConnectionFile(), undefined); // a test is not a kernel
 * ```
 */
export function kernelConnectionFile(): string | undefined {
  let args: string[] | undefined;
  try {
    args = Deno.readTextFileSync("/proc/self/cmdline").split("\0");
  } catch {
    try {
      const out = new Deno.Command("ps", {
        args: ["-o", "args=", "-p", String(Deno.pid)],
        stdout: "piped",
        stderr: "null",
      }).outputSync();
      if (out.success) args = DEC.decode(out.stdout).trim().split(/\s+/);
    } catch {
      // No ps: not a kernel we can watch.
    }
  }
  if (!args || !args.includes("--kernel")) return undefined;
  const at = args.indexOf("--conn");
  return at >= 0 ? args[at + 1] : undefined;
}

/**
 * Reads a connection file; undefined when it is missing or not a TCP connection.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readConnectionInfo } from "./iopub.ts";
 * const file = await Deno.makeTempFile();
 * await Deno.writeTextFile(file, JSON.stringify({ ip: "127.0.0.1", iopub_port: 5, transport: "tcp" }));
 * assert.equal(readConnectionInfo(file)?.iopub_port, 5);
 * assert.equal(readConnectionInfo(file + ".missing"), undefined);
 * ```
 */
export function readConnectionInfo(file: string): ConnectionInfo | undefined {
  try {
    const info = JSON.parse(Deno.readTextFileSync(file)) as ConnectionInfo;
    if ((info.transport ?? "tcp") !== "tcp" || typeof info.iopub_port !== "number") return;
    return info;
  } catch {
    return undefined;
  }
}

/** A byte stream read in frames, with a buffer so small reads stay cheap. */
class FrameReader {
  #buf = new Uint8Array(64 * 1024);
  #start = 0;
  #end = 0;
  constructor(private conn: Deno.Conn) {}

  async #fill(): Promise<void> {
    if (this.#start === this.#end) this.#start = this.#end = 0;
    if (this.#end === this.#buf.length) {
      // Compact, or grow when the pending bytes fill the buffer.
      const pending = this.#buf.subarray(this.#start, this.#end);
      const next = this.#start > 0 ? this.#buf : new Uint8Array(this.#buf.length * 2);
      next.set(pending, 0);
      this.#buf = next;
      this.#end = pending.length;
      this.#start = 0;
    }
    const n = await this.conn.read(this.#buf.subarray(this.#end));
    if (n === null) throw new Error("iopub connection closed");
    this.#end += n;
  }

  /** The next `n` bytes (a copy), or, with `skip`, nothing (the bytes are dropped). */
  async take(n: number, skip = false): Promise<Uint8Array> {
    if (skip) {
      let left = n;
      while (left > 0) {
        if (this.#start === this.#end) await this.#fill();
        const k = Math.min(left, this.#end - this.#start);
        this.#start += k;
        left -= k;
      }
      return new Uint8Array(0);
    }
    const out = new Uint8Array(n);
    let got = 0;
    while (got < n) {
      if (this.#start === this.#end) await this.#fill();
      const k = Math.min(n - got, this.#end - this.#start);
      out.set(this.#buf.subarray(this.#start, this.#start + k), got);
      this.#start += k;
      got += k;
    }
    return out;
  }

  /** One ZMTP frame's flags and size. */
  async header(): Promise<{ more: boolean; command: boolean; size: number }> {
    const [flags] = await this.take(1);
    let size: number;
    if (flags & 0x02) {
      const b = await this.take(8);
      size = new DataView(b.buffer).getUint32(0) * 2 ** 32 + new DataView(b.buffer).getUint32(4);
    } else {
      size = (await this.take(1))[0];
    }
    return { more: (flags & 0x01) !== 0, command: (flags & 0x04) !== 0, size };
  }
}

function greeting(): Uint8Array {
  const g = new Uint8Array(64);
  g[0] = 0xff;
  g[9] = 0x7f;
  g[10] = 3; // ZMTP 3.0
  g.set(ENC.encode("NULL"), 12);
  return g;
}

function readyCommand(socketType: string): Uint8Array {
  const name = ENC.encode("READY"),
    prop = ENC.encode("Socket-Type"),
    value = ENC.encode(socketType);
  const body = new Uint8Array(1 + name.length + 1 + prop.length + 4 + value.length);
  let o = 0;
  body[o++] = name.length;
  body.set(name, o);
  o += name.length;
  body[o++] = prop.length;
  body.set(prop, o);
  o += prop.length;
  new DataView(body.buffer).setUint32(o, value.length);
  body.set(value, o + 4);
  return new Uint8Array([0x04, body.length, ...body]);
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array): Promise<void> {
  for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
}

/**
 * Reads one Jupyter message (all frames of one multipart ZMTP message). Large frames the
 * watcher does not need (outputs' contents, buffers) are skipped without being kept.
 */
async function readMessage(reader: FrameReader): Promise<IopubMessage | undefined> {
  const parts: (Uint8Array | undefined)[] = [];
  let delimiter = -1, msgType = "";
  for (let index = 0;; index++) {
    const { more, command, size } = await reader.header();
    if (command) {
      await reader.take(size, true);
      if (!more) return;
      continue;
    }
    const rel = delimiter < 0 ? -1 : index - delimiter;
    // Keep the delimiter candidates (short frames) and header, parent header, metadata;
    // the content only for the message types the watcher reads.
    const keep = delimiter < 0
      ? size === DELIMITER.length
      : rel >= 2 && rel <= 4 || rel === 5 && (msgType === "status" || msgType === "execute_input");
    const bytes = await reader.take(size, !keep);
    parts.push(keep ? bytes : undefined);
    if (delimiter < 0 && keep && DEC.decode(bytes) === DELIMITER) delimiter = index;
    if (rel === 2) msgType = (JSON.parse(DEC.decode(bytes)) as { msg_type: string }).msg_type;
    if (!more) break;
  }
  if (delimiter < 0 || parts.length < delimiter + 6) return;
  const json = (i: number) => JSON.parse(DEC.decode(parts[delimiter + i]!));
  return {
    msgType,
    parent: json(3),
    metadata: json(4),
    ...(parts[delimiter + 5] ? { content: json(5) } : {}),
  };
}

/** The metadata key that marks the watcher's own sync messages. */
export const SYNC_KEY = "qa-kit-sync";

/**
 * A subscriber to the kernel's iopub socket, in the kernel's own process (see the module
 * documentation). `display` makes one per kernel session; tests/plot/kernel_display_test.ts
 * drives it on a real kernel.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { IopubWatcher } from "./iopub.ts";
 * // Nothing listens on a port just released: connecting fails instead of hanging.
 * const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
 * const port = (l.addr as Deno.NetAddr).port;
 * l.close();
 * await assert.rejects(() => IopubWatcher.connect({ ip: "127.0.0.1", iopub_port: port }));
 * ```
 */
export class IopubWatcher {
  #conn: Deno.Conn;
  #waiting = new Map<string, (parent: IopubMessage["parent"]) => void>();
  #closed = false;
  /** `kernel_info_request`s seen: each is a frontend connecting (or reconnecting). */
  frontendConnects = 0;
  /** The code of each cell run seen, by its request's `msg_id` (the last 200). */
  readonly codes = new Map<string, string>();

  private constructor(conn: Deno.Conn, reader: FrameReader) {
    this.#conn = conn;
    this.#readLoop(reader);
  }

  /** Connects and subscribes; resolves once the subscription carries messages. */
  static async connect(info: ConnectionInfo, timeoutMs = 3000): Promise<IopubWatcher> {
    const conn = await Deno.connect({ hostname: info.ip, port: info.iopub_port });
    try {
      const reader = new FrameReader(conn);
      await writeAll(conn, greeting());
      await writeAll(conn, readyCommand("SUB"));
      await reader.take(64); // the kernel's greeting
      const ready = await reader.header(); // its READY command
      await reader.take(ready.size, true);
      await writeAll(conn, new Uint8Array([0x00, 0x01, 0x01])); // subscribe to everything
      const watcher = new IopubWatcher(conn, reader);
      // The kernel adds a subscriber only after reading its subscription: send markers
      // until one comes back.
      const deadline = Date.now() + timeoutMs;
      while (true) {
        try {
          await watcher.sync(50);
          return watcher;
        } catch (e) {
          if (Date.now() > deadline || watcher.closed) {
            watcher.close();
            throw e;
          }
        }
      }
    } catch (e) {
      try {
        conn.close();
      } catch { /* already closed */ }
      throw e;
    }
  }

  /** Whether the connection is gone. */
  get closed(): boolean {
    return this.#closed;
  }

  async #readLoop(reader: FrameReader): Promise<void> {
    try {
      while (!this.#closed) {
        const msg = await readMessage(reader);
        if (!msg) continue;
        if (msg.msgType === "status" && msg.parent.msg_type === "kernel_info_request") {
          if (msg.content?.execution_state === "busy") this.frontendConnects++;
        } else if (msg.msgType === "execute_input" && msg.parent.msg_id) {
          this.codes.set(msg.parent.msg_id, String(msg.content?.code ?? ""));
          if (this.codes.size > 200) this.codes.delete(this.codes.keys().next().value!);
        }
        const token = msg.metadata[SYNC_KEY];
        if (typeof token === "string") this.#waiting.get(token)?.(msg.parent);
      }
    } catch {
      // Connection closed or a garbled stream: the watcher is done; display falls back.
    } finally {
      this.close();
    }
  }

  /**
   * Publishes a marker through the kernel and waits until it comes back: every message the
   * cell queued before has then been written to every frontend. Resolves with the header of
   * the request the kernel is answering (the running cell's `execute_request`); rejects
   * after `timeoutMs`.
   */
  async sync(timeoutMs = 30_000): Promise<IopubMessage["parent"]> {
    if (this.#closed) throw new Error("iopub watcher closed");
    const token = crypto.randomUUID();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return await new Promise<IopubMessage["parent"]>((resolve, reject) => {
        this.#waiting.set(token, resolve);
        timer = setTimeout(() => reject(new Error("no echo from the kernel")), timeoutMs);
        Promise.resolve(
          Deno.jupyter.broadcast("status", { execution_state: "busy" }, {
            metadata: { [SYNC_KEY]: token },
          }),
        ).catch(reject);
      });
    } finally {
      clearTimeout(timer);
      this.#waiting.delete(token);
    }
  }

  /** Closes the subscription. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.#conn.close();
    } catch { /* already closed */ }
  }
}
