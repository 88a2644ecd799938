/** Looking a path up in plain data (TOML's parsed object, JSON.parse output). */
import type { Kind, Probe } from "./editor.js";
import { asIndex, type Segment } from "./selector.js";
import { clone, isObject } from "./values.js";

function kindOf(value: unknown): Kind {
  return Array.isArray(value) ? "array" : isObject(value) ? "object" : "scalar";
}

function sizeOf(value: unknown): number {
  return Array.isArray(value) ? value.length : isObject(value) ? Object.keys(value).length : 0;
}

/** The child of a container for a segment, if there is one. */
export function childOf(node: unknown, segment: Segment): { found: boolean; value?: unknown } {
  if (Array.isArray(node)) {
    const i = asIndex(segment);
    return i !== undefined && i >= 0 && i < node.length
      ? { found: true, value: node[i] }
      : { found: false };
  }
  if (isObject(node) && Object.hasOwn(node, String(segment))) {
    return { found: true, value: node[String(segment)] };
  }
  return { found: false };
}

export function probeData(root: unknown, path: readonly Segment[]): Probe {
  let node = root;
  for (let i = 0; i < path.length; i++) {
    const next = childOf(node, path[i]!);
    if (!next.found) {
      return {
        found: false,
        depth: i,
        kind: kindOf(node),
        size: sizeOf(node),
        isNull: node === null,
        keys: isObject(node) ? Object.keys(node) : [],
        scalar: node,
      };
    }
    node = next.value;
  }
  const value = node;
  const copy = () => clone(value);
  return { found: true, kind: kindOf(value), size: sizeOf(value), data: copy, raw: copy };
}
