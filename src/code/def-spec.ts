/**
 * The shape of a language's definitions: the kinds splice names, where a
 * definition's name is, and what makes a node a definition. The tables are
 * in specs-*.ts, gathered by specs.ts.
 */
import type { SgNode } from "@ast-grep/napi";

export type DefKind =
  | "function"
  | "method"
  | "constructor"
  | "class"
  | "interface"
  | "type"
  | "enum"
  | "variable"
  | "constant"
  | "field"
  | "property"
  | "struct"
  | "union"
  | "trait"
  | "impl"
  | "module"
  | "namespace"
  | "macro"
  | "object"
  | "record"
  | "extension"
  | "signature"
  | "instance"
  | "key"
  | "table"
  | "selector"
  | "element";

/** Where a definition's name is: fields first, then direct children of these kinds, then one level down. */
export interface NameRule {
  fields?: readonly string[];
  kinds?: readonly string[];
  /** Child kinds to look inside when nothing above matched. */
  descend?: readonly string[];
}

export interface DefSpec {
  kind: DefKind | ((node: SgNode, header: string) => DefKind | undefined);
  name?: NameRule;
  /** The name node must be one of these kinds (skips destructuring, attributes, …). */
  nameKinds?: readonly string[];
  /** Only when the parent node is one of these kinds. */
  under?: readonly string[];
  /** Not when the parent node is one of these kinds. */
  notUnder?: readonly string[];
  /** Without this field the node is a use, not a definition (`struct P x;`). */
  needs?: string;
  /** The definition goes on over the next sibling of this kind (Dart bodies). */
  bodySibling?: string;
  /** The name is a key: quotes are removed, dots are not scopes. */
  key?: boolean;
  /** A declarator or assignment: inside a function it is a local, not a definition. */
  variable?: boolean;
}

export interface LanguageSpec {
  defs: Record<string, DefSpec>;
  /** Parents that belong to their one definition: export, decorators, declaration lists. */
  wrappers?: readonly string[];
  /** Nodes that open a local scope (besides functions and methods): no variables inside them count. */
  scopes?: readonly string[];
  /** How qualified names are written: "Class.method" or "Type::method". */
  separator?: "." | "::";
  /** Definitions a kind alone cannot find (Elixir's `def` calls, HTML ids). */
  custom?: CustomDef;
}

export interface CustomDef {
  rule: Record<string, unknown>;
  /** The kind and name of a node the rule found, or undefined when it is not a definition. */
  read(node: SgNode): { kind: DefKind; name: string } | undefined;
}
