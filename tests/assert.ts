/** Assertions on top of node:assert/strict (JSR's @std/assert is not reachable). @module */
import assertNode from "node:assert/strict";

export function assert(cond: unknown, message?: string): asserts cond {
  assertNode.ok(cond, message);
}
export function assertEquals<T>(actual: unknown, expected: T, message?: string): void {
  assertNode.deepStrictEqual(actual, expected, message);
}
export function assertClose(actual: number, expected: number, eps = 1e-12, what = ""): void {
  assertNode.ok(
    Math.abs(actual - expected) <= eps,
    `${what} expected ${expected}, got ${actual} (tolerance ${eps})`,
  );
}
export async function assertRejects(
  fn: () => Promise<unknown>,
  pattern: RegExp,
): Promise<Error> {
  try {
    await fn();
  } catch (e) {
    assertNode.match(String((e as Error).message ?? e), pattern);
    return e as Error;
  }
  throw new assertNode.AssertionError({ message: `expected a rejection matching ${pattern}` });
}
export function assertThrows(fn: () => unknown, pattern: RegExp): Error {
  try {
    fn();
  } catch (e) {
    assertNode.match(String((e as Error).message ?? e), pattern);
    return e as Error;
  }
  throw new assertNode.AssertionError({ message: `expected an error matching ${pattern}` });
}
