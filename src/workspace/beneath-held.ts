/**
 * The folders walks reached, held open across calls (beneath.ts): a cache
 * of descriptors, used only while each one's folder is still where it was.
 */
import { closeSync, readlinkSync } from "node:fs";

/**
 * Folders a walk reached, held open so the next call in them need not walk
 * again (strong form only). An entry is used only while its descriptor's
 * current path, as the kernel tells it (readlink of /proc/self/fd/N, one
 * syscall), is still the one it had when the walk opened it: a folder on the
 * way moved, renamed, removed or swapped for a link changes that path (or
 * marks it deleted), and the call walks afresh as if nothing were held. Only
 * folders reached without a link on the way are held, so a held folder is
 * always the one a walk would reach now. Process-wide and bounded: the
 * oldest is closed first. The bound holds history's 256 blob fan-out folders
 * besides a batch's own: a batch writes a blob into a random one per file,
 * and with fewer held each of those writes walked from the root again.
 */
export const HELD_MAX = 320;
const held = new Map<string, { fd: number; real: string }>();
/** Held descriptors found stale while a call may still be using them: closed when the outermost call ends. */
const retired: number[] = [];
/** How many walks are running (a walk's final call may start another). */
let depth = 0;

/** Marks a walk begun; the returned function ends it, closing retired descriptors after the outermost. */
export function enterCall(): () => void {
  depth++;
  return () => {
    if (--depth === 0) for (const fd of retired.splice(0)) closeSync(fd);
  };
}

/** How the kernel names a removed folder's descriptor: its last path and this mark. */
const removed = (real: string) => real.endsWith(" (deleted)");

/** The /proc path of the held folder `key`, when it is still where it was. */
export function heldFolder(key: string): string | undefined {
  const entry = held.get(key);
  if (!entry) return undefined;
  held.delete(key);
  let now: string | undefined;
  try {
    now = readlinkSync(`/proc/self/fd/${entry.fd}`);
  } catch {
    // Unreadable: treated as moved.
  }
  if (now !== entry.real || removed(now)) {
    retired.push(entry.fd);
    return undefined;
  }
  held.set(key, entry); // most recently used last
  return `/proc/self/fd/${entry.fd}`;
}

/** Keeps `fd` (a folder the walk opened) for `key`; false when it is not taken. */
export function holdFolder(key: string, fd: number): boolean {
  if (held.has(key)) return false;
  let real: string;
  try {
    real = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return false;
  }
  // Not a path (an anonymous or unreachable folder), or removed already: a folder removed
  // between the walk and now keeps its "(deleted)" path, which would match it ever after.
  if (!real.startsWith("/") || removed(real)) return false;
  held.set(key, { fd, real });
  if (held.size > HELD_MAX) {
    const [oldest, entry] = held.entries().next().value as [string, { fd: number }];
    held.delete(oldest);
    retired.push(entry.fd);
  }
  return true;
}
