/**
 * Path containment, the one home for it: segment-wise, never by string
 * prefix, so `/x/root2` is not inside `/x/root`; nothing normalizes Unicode,
 * so an NFD `café` is not the NFC one.
 */
import path from "node:path";

/** The non-empty segments of a path, split on the platform separator. */
export function segments(p: string): string[] {
  return p.split(path.sep).filter((s) => s !== "");
}

/**
 * The segments of `child` below `parent` (both absolute and normalized), or
 * undefined when `child` is not `parent` itself or under it.
 */
export function segmentsBelow(parent: string, child: string): string[] | undefined {
  const outer = segments(parent);
  const inner = segments(child);
  if (inner.length < outer.length) return undefined;
  for (let i = 0; i < outer.length; i++) {
    if (outer[i] !== inner[i]) return undefined;
  }
  return inner.slice(outer.length);
}

export function isInside(parent: string, child: string): boolean {
  return segmentsBelow(parent, child) !== undefined;
}

/** `child` relative to `parent` with "/" separators; "" for `parent` itself. */
export function posixRelative(parent: string, child: string): string | undefined {
  return segmentsBelow(parent, child)?.join("/");
}
