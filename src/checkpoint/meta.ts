/**
 * A regular file's stat as a checkpoint compares it: two equal metas are the
 * same file, unchanged as far as metadata can tell, unless the first is racy.
 */
import type { BigIntStats } from "node:fs";

export interface FileMeta {
  size: number;
  mtimeNs: bigint;
  ctimeNs: bigint;
  ino: bigint;
  mode: number;
  /**
   * Changed in the clock tick its stat was taken in (or later): a rewrite in
   * the same tick keeps every field, so its stat proves nothing (racy git).
   */
  racy?: true;
  /** The SHA-256 of the bytes kept in history; absent when over the cap or not captured. */
  sha?: string;
  /** Over the cap, tracked and unchanged: git's blob id of its bytes, read back from git. */
  git?: string;
}

/** Whether two stats are the same file, unchanged (as far as metadata can tell). */
export const sameMeta = (a: FileMeta, b: FileMeta) =>
  a.size === b.size &&
  a.mtimeNs === b.mtimeNs &&
  a.ctimeNs === b.ctimeNs &&
  a.ino === b.ino &&
  a.mode === b.mode;

/**
 * A regular file's metadata; `clock` is the file-system time read before the
 * stat (table.ts readClock; undefined: unknown, so racy).
 */
export function metaOf(st: BigIntStats, clock: bigint | undefined): FileMeta {
  const meta: FileMeta = {
    size: Number(st.size),
    mtimeNs: st.mtimeNs,
    ctimeNs: st.ctimeNs,
    ino: st.ino,
    mode: Number(st.mode & 0o7777n),
  };
  if (clock === undefined || st.ctimeNs >= clock) meta.racy = true;
  return meta;
}
