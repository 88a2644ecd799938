/**
 * A regular file's stat as a checkpoint compares it: two equal metas are the
 * same file, unchanged as far as metadata can tell, unless the first is racy.
 *
 * Times are the plain `Stats`' milliseconds (doubles), not `bigint` stats:
 * those cost a third more per file (two BigInts and four Dates each, then
 * their garbage). A double near today's epoch resolves ~0.24 µs, so a file
 * counts as racy when its ctime is within RACY_MARGIN_MS of the clock: any
 * change after its stat then has a ctime at least that much later, which no
 * rounding can hide.
 */
import type { Stats } from "node:fs";

/** 1 µs: four times the resolution of a millisecond double for dates before 2100. */
export const RACY_MARGIN_MS = 0.001;

export interface FileMeta {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
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
  a.mtimeMs === b.mtimeMs &&
  a.ctimeMs === b.ctimeMs &&
  a.ino === b.ino &&
  a.mode === b.mode;

/**
 * Whether a stat with this ctime proves nothing yet: `clock` is the
 * file-system time read before the stat (table.ts readClock; undefined:
 * unknown, so racy).
 */
export const isRacy = (ctimeMs: number, clock: number | undefined) =>
  clock === undefined || ctimeMs >= clock - RACY_MARGIN_MS;

/** A regular file's metadata, its stat taken after `clock` was read. */
export function metaOf(st: Stats, clock: number | undefined): FileMeta {
  const meta: FileMeta = {
    size: st.size,
    mtimeMs: st.mtimeMs,
    ctimeMs: st.ctimeMs,
    ino: st.ino,
    mode: st.mode & 0o7777,
  };
  if (isRacy(st.ctimeMs, clock)) meta.racy = true;
  return meta;
}
