/**
 * The shape of one corpus of the kit's table (`DATASETS`, lib/data/datasets.ts): its pinned
 * files (checksums and upstream copies), its named splits and, for answer selection, its
 * reader. A task's folder declares its corpora with these types (lib/tasks/).
 *
 * Checksums: text files are verified after normalizing CRLF to LF (public copies of the
 * WikiQA zip's members exist with both line ends, so the content, not the bytes, is pinned)
 * and installed with LF; binary files (gzip, PDF, and files whose licence forbids modified
 * copies) are verified and installed byte for byte.
 *
 * @module
 */
import type { FilterName } from "./filters.ts";
import type { Question } from "./types.ts";

/** Where the upstream copy of a file is. */
export type Upstream =
  | { kind: "url"; url: string }
  /** A member of a zip archive; a RegExp where the member's exact name is not pinned. */
  | { kind: "zip"; url: string; member: string | RegExp };

/** One file of a corpus. */
export interface FileSpec {
  /** Path inside the corpus folder, e.g. `wikiqa/WikiQA-train.tsv`. */
  path: string;
  /** sha256 (hex) of the content; for text files, of the LF-normalized content. */
  sha256: string;
  /** Text (CRLF normalized before hashing) or binary. */
  text: boolean;
  /** The upstream location. */
  upstream: Upstream;
}

/** A published size of a split under one filter setting, with its source. */
export interface PublishedSize {
  /** Questions (QRCD: distinct questions). */
  questions: number;
  /** Candidate sentences (answer selection). */
  candidates?: number;
  /** QRCD: passage-question records, distinct passages and gold answers. */
  records?: number;
  passages?: number;
  answers?: number;
  /** Where the number comes from. */
  source: string;
}

/** One named split of a corpus. */
export interface SplitEntry {
  /** Its file inside the corpus folder (one of the dataset's `files`). */
  file: string;
  /** Published sizes by filter setting (`raw`: as published). */
  published: Partial<Record<FilterName, PublishedSize>>;
}

/** A corpus: one entry of the kit's table of corpora (`DATASETS`). */
export interface DatasetEntry {
  /** Its name on the command line and its folder in the corpus layout. */
  name: string;
  /** One line for lists and help. */
  title: string;
  /**
   * The name of its task in the task registry (`lib/tasks/`): `as2` (answer sentence
   * selection: questions with labelled candidates, read by `read`, filtered by `applyFilter`),
   * or another task's name, whose own folder reads the files.
   */
  task: string;
  /** Every pinned file, installed together. */
  files: readonly FileSpec[];
  /** The named splits, in the order lists show them. */
  splits: Readonly<Record<string, SplitEntry>>;
  /** Reads one split's file into questions (as2 corpora). */
  read?: (path: string, split: string) => Promise<Question[]>;
}

/**
 * The raw URL of a file in a public GitHub repository at a pinned commit.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { githubRaw } from "./corpus_entry.ts";
 * assert.equal(githubRaw("o/r", "c0ffee", "a/b.tsv").kind, "url");
 * ```
 */
export function githubRaw(repo: string, commit: string, path: string): Upstream {
  return { kind: "url", url: `https://raw.githubusercontent.com/${repo}/${commit}/${path}` };
}
