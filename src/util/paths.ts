/**
 * Path containment, the one home for it: segment-wise, never by string
 * prefix, so `/x/root2` is not inside `/x/root`; nothing normalizes Unicode,
 * so an NFD `café` is not the NFC one.
 */
import path from "node:path";

/** The non-empty segments of a path, split on the platform separator (or `sep`: "/" for a remote root's POSIX paths). */
export function segments(p: string, sep = path.sep): string[] {
  return p.split(sep).filter((s) => s !== "");
}

/**
 * The segments of `child` below `parent` (both absolute and normalized), or
 * undefined when `child` is not `parent` itself or under it.
 */
export function segmentsBelow(parent: string, child: string, sep = path.sep): string[] | undefined {
  const outer = segments(parent, sep);
  const inner = segments(child, sep);
  if (inner.length < outer.length) return undefined;
  for (let i = 0; i < outer.length; i++) {
    if (outer[i] !== inner[i]) return undefined;
  }
  return inner.slice(outer.length);
}

/** Whether `child` is `parent` itself or under it (both absolute and normalized). */
export function isInside(parent: string, child: string, sep = path.sep): boolean {
  return segmentsBelow(parent, child, sep) !== undefined;
}

/** `child` relative to `parent` with "/" separators; "" for `parent` itself. */
export function posixRelative(parent: string, child: string): string | undefined {
  return segmentsBelow(parent, child)?.join("/");
}
