/**
 * What another program wrote into a file in the instant a compare-and-swap
 * replaced it: bytes no path leads to any more, read off the descriptor
 * held across the rename, and read again a moment later for a writer that
 * opened the file before the rename and wrote just after it.
 */
import { close, fstatSync, readSync } from "node:fs";
import { sha256 } from "../util/hash.js";

/** After a compare-and-swap, the replaced file is read again this long after (ms), in the background. */
const LATE_CHECKS_MS = [5, 25, 100];

/**
 * The replaced file held the expected bytes after the rename, but a program
 * that looked it up before the rename (an in-place save: open, truncate,
 * write) may write into it a moment later, where no path leads. It is read
 * again a few times after the write returned; changed bytes, once settled,
 * go to `onLate`. Then the file is closed.
 */
export function watchLate(fd: number, expected: string, onLate: (bytes: Uint8Array) => void): void {
  void (async () => {
    let waited = 0;
    for (const at of LATE_CHECKS_MS) {
      await new Promise((resolve) => setTimeout(resolve, at - waited));
      waited = at;
      let moved: Uint8Array | undefined;
      try {
        moved = displacedBytes(fd, expected);
      } catch {
        break; // unreadable now: nothing more can be seen of it
      }
      if (moved) {
        let bytes: Uint8Array;
        try {
          bytes = await settled(fd, moved); // closes it
        } catch {
          return; // unreadable while settling: nothing more can be seen of it
        }
        try {
          onLate(bytes);
        } catch {
          // The caller could not keep them; it says so where it can.
        }
        return;
      }
    }
    close(fd, () => {});
  })();
}

const SETTLE_STEP_MS = 5;
const SETTLE_MAX_MS = 250;

/**
 * The displaced file's bytes once its writer is done: a program that
 * truncated the old file before the rename may still be writing to it,
 * through a descriptor only it and `fd` now reach. Read again every few
 * milliseconds until two reads agree (or a quarter second passes); `fd` is
 * closed.
 */
export async function settled(fd: number, first: Uint8Array): Promise<Uint8Array> {
  let last = first;
  try {
    for (let waited = 0; waited < SETTLE_MAX_MS; waited += SETTLE_STEP_MS) {
      await new Promise((resolve) => setTimeout(resolve, SETTLE_STEP_MS));
      const now = readAll(fd, fstatSync(fd).size);
      if (Buffer.compare(now, last) === 0 && waited >= 4 * SETTLE_STEP_MS) return now;
      last = now;
    }
    return last;
  } finally {
    close(fd, () => {});
  }
}

/** The old file's bytes after the rename, when they are no longer the expected ones. */
export function displacedBytes(
  old: number | undefined,
  expected: string | null | undefined,
): Uint8Array | undefined {
  if (old === undefined || expected === undefined || expected === null) return undefined;
  const st = fstatSync(old);
  if (!st.isFile()) return undefined;
  const bytes = readAll(old, st.size);
  return sha256(bytes) === expected ? undefined : bytes;
}

/** The whole file from offset 0, whatever the descriptor's position. */
export function readAll(fd: number, size: number): Uint8Array {
  const chunks: Buffer[] = [];
  let at = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.max(size - at, 0) + 1);
    const n = readSync(fd, chunk, 0, chunk.length, at);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    at += n;
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}
