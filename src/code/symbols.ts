/**
 * A file's definitions, from one parse: functions, methods, classes,
 * interfaces, types, enums, constants and variables, structs, traits, impls,
 * modules (and keys in data files), nested as in the source. One native
 * findAll collects the candidate nodes; nesting comes from their ranges, so
 * the tree is never walked node by node in JavaScript.
 */
import { kind as kindId, type SgNode } from "@ast-grep/napi";
import type { DefKind, DefSpec, LanguageSpec } from "./def-spec.js";
import type { Language } from "./languages.js";
import { type Named, nameDefinition, QUALIFIED } from "./names.js";
import { bodyStart, lastLine } from "./span.js";
import { SPECS } from "./specs.js";

export interface Definition {
  name: string;
  kind: DefKind;
  /** Names of what it is defined in (outermost first): classes, modules, a Go receiver, a C++ `A::`. */
  scope: string[];
  /** 1-based inclusive lines, with its export keyword, decorators and declaration wrapper. */
  start: number;
  end: number;
  /** The outermost node of the definition (the wrapper, when it has one). */
  node: SgNode;
  /** The node the kind table matched. */
  core: SgNode;
  parent?: Definition;
  depth: number;
}

const FUNCTIONISH: ReadonlySet<DefKind> = new Set(["function", "method", "constructor"]);
const VARIABLEISH: ReadonlySet<DefKind> = new Set(["variable", "constant", "field", "property"]);
const TYPEISH: ReadonlySet<DefKind> = new Set([
  "class",
  "interface",
  "struct",
  "trait",
  "impl",
  "object",
  "record",
  "enum",
  "extension",
  "instance",
  "union",
]);

export function specFor(language: Language): LanguageSpec | undefined {
  return SPECS[language.id];
}

const knownKinds = new Map<string, (kind: string) => boolean>();

/** Whether the grammar has this node kind (one table serves grammar versions that differ). */
function hasKind(language: Language, kind: string): boolean {
  let known = knownKinds.get(language.id);
  if (!known) {
    const cache = new Map<string, boolean>();
    known = (k: string) => {
      let yes = cache.get(k);
      if (yes === undefined) {
        yes = kindId(language.napi, k) !== 0;
        cache.set(k, yes);
      }
      return yes;
    };
    knownKinds.set(language.id, known);
  }
  return known(kind);
}

/** Grows a definition over parents that hold nothing else: `export`, decorators, `const … ;`. */
function outermost(node: SgNode, wrappers: ReadonlySet<string>): SgNode {
  let current = node;
  for (let hops = 0; hops < 4; hops++) {
    const parent = current.parent();
    if (!parent || !wrappers.has(parent.kind() as string)) break;
    const kind = current.kind() as string;
    const siblings = parent.namedChildren().filter((c) => (c.kind() as string) === kind);
    if (siblings.length > 1) break;
    current = parent;
  }
  return current;
}

interface Candidate {
  node: SgNode;
  startIndex: number;
  endIndex: number;
  def?: Definition;
  scope: boolean;
}

/**
 * Every definition in the tree, in source order, each with its parent.
 * Variables inside functions (and closures) are locals, not definitions.
 */
export function extractDefinitions(
  root: SgNode,
  language: Language,
  lines: readonly string[],
): Definition[] {
  const spec = specFor(language);
  if (!spec) return [];
  const kinds = Object.keys(spec.defs).filter((k) => hasKind(language, k));
  const scopeKinds = (spec.scopes ?? []).filter((k) => hasKind(language, k));
  const any: Record<string, unknown>[] = [...kinds, ...scopeKinds].map((kind) => ({ kind }));
  if (spec.custom) any.push(spec.custom.rule);
  if (any.length === 0) return [];
  const nodes = root.findAll({ rule: { any } } as never);
  const wrappers = new Set(spec.wrappers ?? []);
  const candidates: Candidate[] = [];
  for (const node of nodes) {
    const range = node.range();
    const candidate: Candidate = {
      node,
      startIndex: range.start.index,
      endIndex: range.end.index,
      scope: scopeKinds.includes(node.kind() as string),
    };
    candidates.push(candidate);
  }
  candidates.sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);

  const out: Definition[] = [];
  const stack: Candidate[] = [];
  for (const candidate of candidates) {
    while (stack.length > 0 && stack.at(-1)!.endIndex <= candidate.startIndex) stack.pop();
    let enclosing: Definition | undefined;
    let inScope = false;
    for (let i = stack.length - 1; i >= 0; i--) {
      const c = stack[i]!;
      enclosing ??= c.def;
      if (c.scope || (c.def !== undefined && FUNCTIONISH.has(c.def.kind))) inScope = true;
      if (enclosing && inScope) break;
    }
    const def = define(candidate.node, spec, language, lines, wrappers, enclosing, inScope);
    if (def) {
      candidate.def = def;
      out.push(def);
    }
    if (def || candidate.scope) stack.push(candidate);
  }
  return out;
}

function define(
  node: SgNode,
  spec: LanguageSpec,
  language: Language,
  lines: readonly string[],
  wrappers: ReadonlySet<string>,
  parent: Definition | undefined,
  inScope: boolean,
): Definition | undefined {
  const type = node.kind() as string;
  let named: Named | undefined;
  let def: DefSpec | undefined = spec.defs[type];
  if (def) {
    // Locals are dropped before any naming work: most declarators are locals.
    if (inScope && (def.variable || (typeof def.kind === "string" && VARIABLEISH.has(def.kind)))) {
      return undefined;
    }
    if (def.under || def.notUnder) {
      const parentKind = (node.parent()?.kind() as string) ?? "";
      if (def.under && !def.under.includes(parentKind)) return undefined;
      if (def.notUnder?.includes(parentKind)) return undefined;
    }
    if (def.needs && !node.field(def.needs)) return undefined;
    named = nameDefinition(node, def, language, lines);
  } else if (spec.custom) {
    const read = spec.custom.read(node);
    if (read) {
      const parts = QUALIFIED.test(read.name) ? read.name.split(".") : [read.name];
      named = { kind: read.kind, name: parts.pop() ?? read.name, scope: parts };
    }
    def = { kind: named?.kind ?? "function" };
  }
  if (!named) return undefined;
  if (inScope && VARIABLEISH.has(named.kind)) return undefined;
  let kind = named.kind;
  if (kind === "function" && parent && TYPEISH.has(parent.kind)) kind = "method";

  const outer = outermost(node, wrappers);
  const range = outer.range();
  let end = lastLine(range);
  if (def?.bodySibling) {
    const next = node.next();
    if (next && (next.kind() as string) === def.bodySibling) end = lastLine(next.range());
  }
  const scope = parent ? [...parent.scope, parent.name, ...named.scope] : named.scope;
  return {
    name: named.name,
    kind,
    scope,
    start: range.start.line + 1,
    end,
    node: outer,
    core: node,
    ...(parent ? { parent } : {}),
    depth: parent ? parent.depth + 1 : 0,
  };
}

/** "Parser.parse", or "Parser::parse" in languages that write it so. */
export function qualifiedName(def: Definition, language: Language): string {
  const separator = specFor(language)?.separator ?? ".";
  return [...def.scope, def.name].join(separator);
}

/** Splits `Class.method`, `Type::method` or `a.b.c` into its parts. */
export function splitSymbol(symbol: string): string[] {
  return symbol
    .trim()
    .split(/::|\./)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Whether a definition is the one `parts` names: its name, and its scope ending with the rest. */
export function matchesSymbol(def: Definition, parts: readonly string[], whole: string): boolean {
  const name = parts.at(-1);
  if (name === undefined) return false;
  if (def.name !== name) return def.name === whole.trim();
  const want = parts.slice(0, -1);
  if (want.length > def.scope.length) return false;
  const tail = def.scope.slice(def.scope.length - want.length);
  return want.every((part, i) => tail[i] === part);
}

/** The last line of a definition's header: its signature, before the body starts. */
export function headerEnd(def: Definition, lines: readonly string[]): number {
  return bodyStart(def.core, lines, def.start, def.end);
}

/** The signature as one short line: `function parse(text: string): Config`. */
export function signature(def: Definition, lines: readonly string[], max = 100): string {
  const { start: from, end: to } = def.core.range();
  let text: string;
  if (to.line === from.line) {
    text = (lines[from.line] ?? "").slice(from.column, to.column);
  } else {
    const last = Math.max(from.line + 1, Math.min(headerEnd(def, lines), from.line + 4));
    const parts: string[] = [];
    for (let line = from.line; line < last; line++) {
      parts.push(line === from.line ? (lines[line] ?? "").slice(from.column) : (lines[line] ?? ""));
    }
    text = parts.join(" ");
  }
  text = text.replace(/\s+/g, " ").trim();
  text = text.replace(/\s*(\{|:|=>|=|\bdo|\bwhere)\s*$/, "").trim();
  if (text.length === 0) text = def.name;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
