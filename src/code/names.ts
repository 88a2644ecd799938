/**
 * Where each grammar keeps a definition's name, and how a name is written
 * there: C declarators, Rust impl types, Go receivers, quoted keys,
 * qualified names (`A::n`, `M.f`) split into scope and name.
 */
import type { SgNode } from "@ast-grep/napi";
import type { DefKind, DefSpec, NameRule } from "./def-spec.js";
import type { Language } from "./languages.js";

const C_NAME_KINDS = new Set([
  "identifier",
  "field_identifier",
  "type_identifier",
  "qualified_identifier",
  "destructor_name",
  "operator_name",
  "primitive_type",
]);

/** `A::n`, `M.f`, `M:m`, `ns\\A`: a name with its scope written in. */
export const QUALIFIED = /^(?:::)?[\w$]+(?:(?:::|\.|:|\\)[\w$~]+)+$/;

const VARIABLEISH: ReadonlySet<DefKind> = new Set(["variable", "constant", "field", "property"]);

/** The first line of a node's source, from its first character. */
function headerOf(node: SgNode, lines: readonly string[]): string {
  const { start } = node.range();
  return (lines[start.line] ?? "").slice(start.column);
}

/** Follows C declarators (`*make(int)`, `A::n()`) down to the name; notes a function declarator on the way. */
function cName(node: SgNode): { name: SgNode; isFunction: boolean } | undefined {
  let current: SgNode | null = node.field("declarator");
  let isFunction = false;
  for (let hops = 0; current && hops < 12; hops++) {
    const kind = current.kind() as string;
    if (C_NAME_KINDS.has(kind)) return { name: current, isFunction };
    if (kind === "function_declarator") isFunction = true;
    current = current.field("declarator") ?? current.namedChildren()[0] ?? null;
  }
  return undefined;
}

function findName(node: SgNode, rule: NameRule | undefined, depth = 0): SgNode | undefined {
  for (const field of rule?.fields ?? ["name"]) {
    const found = node.field(field);
    if (found) return found;
  }
  if (!rule?.kinds && !rule?.descend) return undefined;
  const children = node.namedChildren();
  for (const child of children) if (rule.kinds?.includes(child.kind() as string)) return child;
  if (depth > 2) return undefined;
  for (const child of children) {
    if (rule.descend?.includes(child.kind() as string)) {
      const found = findName(child, rule, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/** Rust `Wrapper<T>` and `fmt::Display` name the type `Wrapper` and `Display`. */
function baseTypeName(node: SgNode): string {
  if ((node.kind() as string) === "generic_type") return baseTypeName(node.field("type") ?? node);
  if ((node.kind() as string) === "scoped_type_identifier")
    return node.field("name")?.text() ?? node.text();
  return node.text();
}

/** Go `(s *Server[T])` → "Server". */
function receiverType(node: SgNode): string | undefined {
  const text = node.field("receiver")?.text();
  if (!text) return undefined;
  const words = text
    .replace(/^\(|\)$/g, "")
    .trim()
    .split(/\s+/);
  const type = (words.at(-1) ?? "").replace(/^\*+/, "").replace(/\[.*$/, "");
  return type || undefined;
}

function unquote(text: string): string {
  const t = text.trim();
  if (t.length >= 2 && /^["'`]/.test(t) && t.at(-1) === t[0]) return t.slice(1, -1);
  return t;
}

export interface Named {
  name: string;
  scope: string[];
  kind: DefKind;
}

export function nameDefinition(
  node: SgNode,
  spec: DefSpec,
  language: Language,
  lines: readonly string[],
): Named | undefined {
  const type = node.kind() as string;
  const header = headerOf(node, lines);
  let kind = typeof spec.kind === "function" ? spec.kind(node, header) : spec.kind;
  if (!kind) return undefined;
  let nameNode: SgNode | undefined;
  if (spec.name?.fields?.[0] === "declarator") {
    const found = cName(node);
    if (!found) return undefined;
    nameNode = found.name;
    if (found.isFunction && VARIABLEISH.has(kind)) kind = "function";
  } else {
    nameNode = findName(node, spec.name);
  }
  if (!nameNode) return undefined;
  if (spec.nameKinds && !spec.nameKinds.includes(nameNode.kind() as string)) return undefined;

  let text = nameNode.text();
  let scope: string[] = [];
  if (spec.key) {
    text = unquote(text);
    if (language.id === "toml" && (nameNode.kind() as string) === "dotted_key") {
      const parts = text.split(".").map(unquote);
      text = parts.pop() ?? text;
      scope = parts;
    }
  } else if (type === "impl_item") {
    text = baseTypeName(nameNode);
  } else if (type === "method_declaration" && language.id === "go") {
    const owner = receiverType(node);
    if (owner) scope = [owner];
  } else if (type === "module" && language.id !== "ruby") {
    text = unquote(text);
  } else if (QUALIFIED.test(text)) {
    const parts = text
      .replace(/^::/, "")
      .split(/::|\.|:|\\/)
      .filter(Boolean);
    text = parts.pop() ?? text;
    scope = parts;
  }
  if (language.id === "php") text = text.replace(/^\$/, "");
  text = text.trim();
  if (!text || text.length > 200) return undefined;
  return { name: text, scope, kind };
}
