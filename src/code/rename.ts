/**
 * Syntax-aware rename: every identifier token spelled exactly OLD becomes
 * NEW — variables, functions, types, members and their uses — and nothing
 * else: not text inside strings or comments, not a longer name that merely
 * contains OLD. It reads tokens, not scopes: two unrelated things both named
 * OLD are both renamed.
 */
import type { SgNode } from "@ast-grep/napi";
import type { Replacement } from "./rewrite.js";

/** Leaf kinds that name things, across the grammars (identifier, type_identifier, constant, name, …). */
const IDENTIFIER_KIND =
  /(^|_)(identifier|name|constant|variable|word)$|^(alias|namespace_identifier|package_identifier)$/;
/** Leaf kinds that hold text, not names, even when their kind ends like one. */
const TEXT_KIND =
  /string|comment|char|regex|escape|heredoc|text|fragment|content|tag_name|attribute_name/;

const IDENTIFIER = /^[\p{L}_$][\p{L}\p{N}_$]*$/u;

export function isIdentifier(name: string): boolean {
  return IDENTIFIER.test(name);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The identifier tokens spelled `name`, in source order. */
export function identifierNodes(root: SgNode, name: string): SgNode[] {
  const nodes = root.findAll({ rule: { regex: `^${escapeRegex(name)}$` } } as never);
  return nodes.filter((node) => {
    if (!node.isLeaf()) return false;
    const kind = node.kind() as string;
    return IDENTIFIER_KIND.test(kind) && !TEXT_KIND.test(kind);
  });
}

/** The replacements that rename `from` to `to`; the caller checks that both are identifiers. */
export function renameReplacements(root: SgNode, from: string, to: string): Replacement[] {
  return identifierNodes(root, from).map((node) => {
    const range = node.range();
    return { start: range.start.index, end: range.end.index, text: to };
  });
}
