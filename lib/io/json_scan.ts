/**
 * A small strict JSON parser that keeps what `JSON.parse` throws away: duplicate object keys
 * (JSON.parse, like Python's json.load, silently keeps the last value), the line of every value,
 * and the source text of every number (so `1.0` can be told from `1`, as Python does).
 *
 * @module
 */
import { KitError } from "../errors.ts";

/** A parsed JSON value with the 1-based line where it starts. */
export type JsonNode =
  | { kind: "object"; line: number; entries: JsonEntry[] }
  | { kind: "array"; line: number; items: JsonNode[] }
  | { kind: "string"; line: number; value: string }
  | { kind: "number"; line: number; value: number; raw: string }
  | { kind: "boolean"; line: number; value: boolean }
  | { kind: "null"; line: number };

/** One `key: value` member of an object, in source order (duplicates kept). */
export interface JsonEntry {
  /** The decoded key. */
  key: string;
  /** Line of the key. */
  line: number;
  /** The value. */
  value: JsonNode;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/**
 * Parses strict JSON (RFC 8259; no NaN/Infinity, no comments, no trailing commas) into
 * {@link JsonNode}s. Syntax errors throw a `KitError` naming `file` and the line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJsonWithLines } from "./json_scan.ts";
 * const n = parseJsonWithLines('{"a": 1,\n "a": 2.0}', "run.json");
 * if (n.kind === "object") {
 *   assert(n.entries.length === 2 && n.entries[1].line === 2);
 *   const v = n.entries[1].value;
 *   assert(v.kind === "number" && v.raw === "2.0");
 * }
 * ```
 */
export function parseJsonWithLines(text: string, file: string): JsonNode {
  let pos = 0;
  let line = 1;
  const fail = (what: string): never => {
    const found = pos >= text.length ? "end of file" : JSON.stringify(text[pos]);
    throw new KitError(`invalid JSON: ${what}, found ${found}`, { file, line });
  };
  const skipSpace = () => {
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c === 0x0a) line++;
      else if (c !== 0x20 && c !== 0x09 && c !== 0x0d) break;
      pos++;
    }
  };
  const parseString = (): string => {
    pos++; // opening quote
    let out = "";
    let from = pos;
    while (true) {
      if (pos >= text.length) fail("unterminated string");
      const c = text.charCodeAt(pos);
      if (c === 0x22) break;
      if (c < 0x20) fail("control character in string");
      if (c !== 0x5c) {
        pos++;
        continue;
      }
      out += text.slice(from, pos);
      const e = text[pos + 1];
      if (e === "u") {
        const hex = text.slice(pos + 2, pos + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
          pos++;
          fail("bad \\u escape");
        }
        out += String.fromCharCode(parseInt(hex, 16));
        pos += 6;
      } else if (e !== undefined && Object.hasOwn(ESCAPES, e)) {
        out += ESCAPES[e];
        pos += 2;
      } else {
        pos++;
        fail("bad escape");
      }
      from = pos;
    }
    out += text.slice(from, pos);
    pos++; // closing quote
    return out;
  };
  const parseValue = (depth: number): JsonNode => {
    if (depth > 512) fail("nesting too deep");
    skipSpace();
    const at = line;
    const c = text[pos];
    if (c === "{") {
      pos++;
      const entries: JsonEntry[] = [];
      skipSpace();
      if (text[pos] === "}") {
        pos++;
        return { kind: "object", line: at, entries };
      }
      while (true) {
        skipSpace();
        if (text[pos] !== '"') fail("expected a string key");
        const keyLine = line;
        const key = parseString();
        skipSpace();
        if (text[pos] !== ":") fail("expected ':'");
        pos++;
        const value = parseValue(depth + 1);
        entries.push({ key, line: keyLine, value });
        skipSpace();
        if (text[pos] === ",") {
          pos++;
          continue;
        }
        if (text[pos] === "}") {
          pos++;
          return { kind: "object", line: at, entries };
        }
        fail("expected ',' or '}'");
      }
    }
    if (c === "[") {
      pos++;
      const items: JsonNode[] = [];
      skipSpace();
      if (text[pos] === "]") {
        pos++;
        return { kind: "array", line: at, items };
      }
      while (true) {
        items.push(parseValue(depth + 1));
        skipSpace();
        if (text[pos] === ",") {
          pos++;
          continue;
        }
        if (text[pos] === "]") {
          pos++;
          return { kind: "array", line: at, items };
        }
        fail("expected ',' or ']'");
      }
    }
    if (c === '"') return { kind: "string", line: at, value: parseString() };
    if (text.startsWith("true", pos)) {
      pos += 4;
      return { kind: "boolean", line: at, value: true };
    }
    if (text.startsWith("false", pos)) {
      pos += 5;
      return { kind: "boolean", line: at, value: false };
    }
    if (text.startsWith("null", pos)) {
      pos += 4;
      return { kind: "null", line: at };
    }
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (m) {
      pos += m[0].length;
      return { kind: "number", line: at, value: Number(m[0]), raw: m[0] };
    }
    return fail("expected a JSON value");
  };
  const root = parseValue(0);
  skipSpace();
  if (pos < text.length) fail("unexpected data after the JSON value");
  return root;
}

/**
 * Converts a node to the plain value `JSON.parse` would give (last duplicate key wins).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJsonWithLines, toPlain } from "./json_scan.ts";
 * const v = toPlain(parseJsonWithLines('{"a": [1, "x"], "a": null}', "m")) as { a: unknown };
 * assert(v.a === null);
 * ```
 */
export function toPlain(node: JsonNode): unknown {
  switch (node.kind) {
    case "object": {
      const o: Record<string, unknown> = {};
      for (const e of node.entries) {
        Object.defineProperty(o, e.key, {
          value: toPlain(e.value),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return o;
    }
    case "array":
      return node.items.map(toPlain);
    case "null":
      return null;
    default:
      return node.value;
  }
}
