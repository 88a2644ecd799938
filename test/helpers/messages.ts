/**
 * Every sentence src/ can hand a reader, found by reading the source with the
 * TypeScript compiler, not from a hand list: the message and advice of each
 * `new ToolError(...)` and of each error class declared in src/, followed
 * through the helpers that pass them on (`refuse(reason, input, message)`),
 * and every warning (`warnings.push(...)`, `warnings: [...]`, `warning:`)
 * and outcome `message:`.
 *
 * Each one is evaluated as far as the source says: string pieces are kept,
 * each `a ? b : c`, `??`, `||` and `&&` is tried both ways, local constants
 * and helper functions are followed (across modules), and the advice's
 * `say(voice)` is called with the real voice it is given. What the source
 * cannot say (a path, a count, a caught error's text) is a placeholder named
 * for what it holds (`src/a.ts`, `3`, `X`).
 */
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";

export const SRC = resolve(import.meta.dirname, "../../src");

/** A value the source does not fix: a placeholder named for what it holds. */
class Hole {
  constructor(readonly name: string) {}
  toString(): string {
    return placeholder(this.name);
  }
}

const PLACEHOLDERS: [RegExp, string][] = [
  [
    /^(path|paths|display|rel|file|files|dir|folder|root|where|target|dest|abs|input|lock)$/,
    "src/a.ts",
  ],
  [/^(tag|hash|sha)$/, "1A2B"],
  [
    /^(n|count|line|lines|size|index|seconds|limit|bytes|length|first|last|start|end|total|max|ms)$/,
    "3",
  ],
  [/^(id|session|backup|sessions)$/, "S1"],
  [/^(code|errno)$/, "EIO"],
  [/^(host|remote)$/, "devbox"],
];

function placeholder(name: string): string {
  // `file.display`, `sourcePath`, `oldLines`: the last word of the name says what it holds.
  const words = name.split(/(?=[A-Z])|[_\W]+/).filter(Boolean);
  const last = (words.at(-1) ?? "").toLowerCase();
  for (const [re, value] of PLACEHOLDERS) if (re.test(last)) return value;
  return "X";
}

/** The globals a message is built with (no lib is loaded, so the checker does not know them). */
const GLOBALS: Record<string, unknown> = { Boolean, String, Number, JSON, Math, Object, Array };

type Fn = { fn: ts.SignatureDeclaration & { body?: ts.ConciseBody } };
type Value = unknown;

const isFn = (v: Value): v is Fn => typeof v === "object" && v !== null && "fn" in v;
const text = (v: Value): string =>
  v === undefined || v === null || v === false ? "" : isFn(v) ? "X" : String(v);

/** A choice point's pick: the evaluation is run again for each combination of picks. */
type Choose = (options: number) => number;

class Stop extends Error {}

/** Evaluates expressions of src/ as far as the source fixes them. */
class Evaluator {
  private env = new Map<ts.Symbol, Value>();
  private depth = 0;
  private steps = 0;

  constructor(
    private checker: ts.TypeChecker,
    private choose: Choose,
  ) {}

  symbolOf(node: ts.Node): ts.Symbol | undefined {
    let symbol = ts.isShorthandPropertyAssignment(node)
      ? this.checker.getShorthandAssignmentValueSymbol(node)
      : this.checker.getSymbolAtLocation(node);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias)
      symbol = this.checker.getAliasedSymbol(symbol);
    return symbol;
  }

  private resolve(node: ts.Identifier | ts.ShorthandPropertyAssignment): Value {
    const name = ts.isIdentifier(node) ? node.text : node.name.text;
    if (name === "undefined") return undefined;
    const symbol = this.symbolOf(node);
    if (!symbol) return name in GLOBALS ? GLOBALS[name] : new Hole(name);
    if (this.env.has(symbol)) return this.env.get(symbol);
    const decl = symbol.valueDeclaration ?? symbol.declarations?.[0];
    if (!decl) return new Hole(name);
    if (ts.isFunctionDeclaration(decl) || ts.isMethodDeclaration(decl)) return { fn: decl };
    if (
      ts.isVariableDeclaration(decl) &&
      decl.initializer &&
      ts.isVariableDeclarationList(decl.parent) &&
      decl.parent.flags & ts.NodeFlags.Const &&
      ts.isIdentifier(decl.name)
    ) {
      // A constant is computed once: two uses of it read the same choice.
      const value = this.eval(decl.initializer);
      this.env.set(symbol, value);
      return value;
    }
    return new Hole(name);
  }

  call(callee: Value, args: Value[], name: string): Value {
    if (isFn(callee)) return this.apply(callee, args);
    if (typeof callee === "function") {
      try {
        const plain = args.map((a) => this.plain(a));
        return (callee as (...a: unknown[]) => unknown)(...plain);
      } catch {
        return new Hole(name);
      }
    }
    return new Hole(name);
  }

  /** A value as JavaScript code gets it: placeholders as their text, inside objects too. */
  private plain(v: Value): unknown {
    if (v instanceof Hole) return String(v);
    if (isFn(v)) return this.native(v);
    if (Array.isArray(v)) return v.map((e) => this.plain(e));
    if (v && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
      return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, this.plain(e)]));
    }
    return v;
  }

  /** A function of the source as one JavaScript can call (`[a, b].map(f)`). */
  private native(f: Fn): (...args: unknown[]) => unknown {
    return (...args) => {
      const out = this.apply(f, args);
      return out instanceof Hole ? String(out) : out;
    };
  }

  apply(f: Fn, args: Value[]): Value {
    if (this.depth > 8) return new Hole(f.fn.name?.getText() ?? "call");
    this.depth++;
    try {
      f.fn.parameters.forEach((p, i) => {
        const symbol = ts.isIdentifier(p.name) ? this.symbolOf(p.name) : undefined;
        if (!symbol) return;
        const given = p.dotDotDotToken ? args.slice(i) : args[i];
        this.env.set(
          symbol,
          given === undefined && p.initializer ? this.eval(p.initializer) : (given ?? undefined),
        );
      });
      const body = f.fn.body;
      if (!body) return new Hole("call");
      if (!ts.isBlock(body)) return this.eval(body);
      const returns = returnsOf(body);
      if (returns.length === 0) return undefined;
      const picked = returns[this.choose(returns.length)]!;
      return picked.expression ? this.eval(picked.expression) : undefined;
    } finally {
      this.depth--;
    }
  }

  /** A NextStep's `say(voice)`, when the source gives one. */
  advice(next: object, voice: unknown): string {
    if (next instanceof Hole) return "";
    const say = (next as { say?: Value }).say;
    if (isFn(say)) return text(this.apply(say, [voice]));
    return typeof say === "function" ? text(this.call(say, [voice], "say")) : "";
  }

  private property(object: Value, name: string): Value {
    if (object instanceof Hole || object === undefined || object === null) return new Hole(name);
    if (typeof object === "string" && name === "length") return object.length;
    const value = (object as Record<string, unknown>)[name];
    if (typeof value === "function") return (value as (...a: unknown[]) => unknown).bind(object);
    return value === undefined ? new Hole(name) : value;
  }

  eval(node: ts.Expression): Value {
    if (++this.steps > 20_000) throw new Stop();
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isNumericLiteral(node)) return Number(node.text);
    if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
    if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
    if (node.kind === ts.SyntaxKind.NullKeyword) return null;
    if (ts.isTemplateExpression(node)) {
      let out = node.head.text;
      for (const span of node.templateSpans)
        out += text(this.eval(span.expression)) + span.literal.text;
      return out;
    }
    if (
      ts.isParenthesizedExpression(node) ||
      ts.isAsExpression(node) ||
      ts.isNonNullExpression(node) ||
      ts.isSatisfiesExpression(node) ||
      ts.isTypeAssertionExpression(node)
    ) {
      return this.eval(node.expression);
    }
    if (ts.isIdentifier(node)) return this.resolve(node);
    if (ts.isConditionalExpression(node)) {
      return this.eval(this.choose(2) === 0 ? node.whenTrue : node.whenFalse);
    }
    if (ts.isBinaryExpression(node)) return this.binary(node);
    if (ts.isArrayLiteralExpression(node)) {
      const out: Value[] = [];
      for (const e of node.elements) {
        if (ts.isSpreadElement(e)) {
          const v = this.eval(e.expression);
          if (Array.isArray(v)) out.push(...v);
          else if (v instanceof Hole) out.push(v);
        } else out.push(this.eval(e));
      }
      return out;
    }
    if (ts.isObjectLiteralExpression(node)) return this.object(node);
    if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return { fn: node };
    if (ts.isPropertyAccessExpression(node)) {
      return this.property(this.eval(node.expression), node.name.text);
    }
    if (ts.isElementAccessExpression(node)) {
      const object = this.eval(node.expression);
      const key = this.eval(node.argumentExpression);
      if (object instanceof Hole || object === null || typeof object !== "object") {
        return new Hole(node.expression.getText());
      }
      if (key instanceof Hole) {
        const values = Object.values(object);
        return values.length ? values[this.choose(values.length)] : new Hole("value");
      }
      return this.property(object, String(key));
    }
    if (ts.isCallExpression(node)) {
      const name = ts.isPropertyAccessExpression(node.expression)
        ? node.expression.name.text
        : node.expression.getText();
      const callee = this.eval(node.expression);
      const args: Value[] = [];
      for (const a of node.arguments) {
        if (ts.isSpreadElement(a)) {
          const v = this.eval(a.expression);
          if (Array.isArray(v)) args.push(...v);
        } else args.push(this.eval(a));
      }
      return this.call(callee, args, name);
    }
    if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken) {
      const v = this.eval(node.operand);
      return typeof v === "number" ? -v : new Hole("number");
    }
    return new Hole(ts.SyntaxKind[node.kind]);
  }

  private binary(node: ts.BinaryExpression): Value {
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.PlusToken) {
      const l = this.eval(node.left);
      const r = this.eval(node.right);
      if (typeof l === "number" && typeof r === "number") return l + r;
      if (
        typeof l === "string" ||
        typeof r === "string" ||
        l instanceof Hole ||
        r instanceof Hole
      ) {
        return text(l) + text(r);
      }
      return new Hole("sum");
    }
    if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) {
      return this.eval(this.choose(2) === 0 ? node.left : node.right);
    }
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) {
      return this.choose(2) === 0 ? this.eval(node.right) : "";
    }
    return new Hole("value");
  }

  private object(node: ts.ObjectLiteralExpression): Record<string, Value> {
    const out: Record<string, Value> = {};
    for (const p of node.properties) {
      if (ts.isPropertyAssignment(p) && !ts.isComputedPropertyName(p.name)) {
        out[p.name.text] = this.eval(p.initializer);
      } else if (ts.isShorthandPropertyAssignment(p)) {
        out[p.name.text] = this.resolve(p);
      } else if (ts.isSpreadAssignment(p)) {
        const v = this.eval(p.expression);
        if (v && typeof v === "object" && !(v instanceof Hole)) Object.assign(out, v);
      } else if (ts.isMethodDeclaration(p) && ts.isIdentifier(p.name)) {
        out[p.name.text] = { fn: p };
      }
    }
    return out;
  }
}

/** The return statements of a function body, not of functions inside it. */
function returnsOf(body: ts.Block): ts.ReturnStatement[] {
  const out: ts.ReturnStatement[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isReturnStatement(n)) out.push(n);
    if (!ts.isFunctionLike(n)) ts.forEachChild(n, visit);
  };
  ts.forEachChild(body, visit);
  return out;
}

/**
 * Runs `once` for combinations of choices, breadth first, until `max` runs:
 * the first run takes the first option everywhere, each later one changes
 * one more choice.
 */
function everyWay<T>(once: (choose: Choose) => T, max: number): T[] {
  const out: T[] = [];
  const queue: number[][] = [[]];
  while (queue.length > 0 && out.length < max) {
    const prefix = queue.shift()!;
    const counts: number[] = [];
    const choose: Choose = (options) => {
      const i = counts.length;
      counts.push(options);
      return i < prefix.length ? Math.min(prefix[i]!, options - 1) : 0;
    };
    out.push(once(choose));
    for (let k = prefix.length; k < counts.length; k++) {
      for (let alt = 1; alt < counts[k]!; alt++) {
        queue.push([...prefix, ...new Array<number>(k - prefix.length).fill(0), alt]);
      }
    }
  }
  return out;
}

/** Where a sentence comes from, and what it can read as. */
export interface Site {
  /** `tools/edit/text-edit.ts:53`, relative to src/. */
  where: string;
  kind: "error" | "warning" | "message";
  /** The sentence each way the source can say it: the facts, then the advice as `voice` says it. */
  texts: string[];
}

/** Which argument of a constructor or function is a message, and which is advice. */
interface Sink {
  message?: number;
  next?: number;
  /** A function of the reader's voice that says the whole text (`voiced(result, (v) => …)`). */
  said?: number;
}

export interface Walk {
  sites: Site[];
  /** The `new ToolError(...)` calls the walk reached, however their message is checked. */
  toolErrors: number;
  /** Sites that only pass a message on to a helper, checked at the helper's callers. */
  forwarded: number;
  /** Sites whose whole message is another error's (`error.message`), checked where that is made. */
  opaque: number;
}

export function sourceFiles(root = SRC): string[] {
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => join(root, f));
}

/** The error classes declared in src/: each constructor's `message`/`facts` and `next` parameters. */
function errorClassSinks(files: readonly ts.SourceFile[], sinks: Map<ts.Node, Sink>): void {
  for (const file of files) {
    ts.forEachChild(file, (n) => {
      if (!ts.isClassDeclaration(n) || !n.heritageClauses) return;
      const base = n.heritageClauses.flatMap((h) => h.types.map((t) => t.expression.getText()));
      if (!base.some((b) => /Error$/.test(b))) return;
      const ctor = n.members.find(ts.isConstructorDeclaration);
      if (!ctor) return;
      const sink: Sink = {};
      ctor.parameters.forEach((p, i) => {
        const name = p.name.getText();
        if (name === "message" || name === "facts") sink.message ??= i;
        if (name === "next") sink.next = i;
      });
      if (sink.message !== undefined) sinks.set(n, sink);
    });
  }
}

/** The function a node is inside, when it is one a call can name. */
function enclosingCallable(node: ts.Node): ts.SignatureDeclaration | undefined {
  for (let n = node.parent; n; n = n.parent) {
    if (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n)) return n;
    if (
      (ts.isArrowFunction(n) || ts.isFunctionExpression(n)) &&
      ts.isVariableDeclaration(n.parent)
    ) {
      return n;
    }
    if (ts.isFunctionLike(n)) return undefined;
  }
  return undefined;
}

/** The declaration a call names: a class, a function, or a variable holding an arrow. */
function calleeDecl(
  checker: ts.TypeChecker,
  node: ts.CallExpression | ts.NewExpression,
): ts.Node[] {
  const target = ts.isPropertyAccessExpression(node.expression)
    ? node.expression.name
    : node.expression;
  let symbol = checker.getSymbolAtLocation(target);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const decls: ts.Node[] = [];
  for (const d of symbol?.declarations ?? []) {
    decls.push(d);
    if (ts.isVariableDeclaration(d) && d.initializer) decls.push(d.initializer);
  }
  return decls;
}

const WARNING_LIST = /(?:^|\.)(?:warnings|notices)$/i;
const MESSAGE_PROPS = new Set(["warning", "notice", "message", "validationNotice"]);

/** Every site, its advice said in `voice` (the reader's: `CLI_VOICE` for a person). */
export function walkMessages(voice: unknown, root = SRC): Walk {
  const program = ts.createProgram(sourceFiles(root), {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noLib: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const files = program.getSourceFiles().filter((f) => f.fileName.startsWith(root));
  const sinks = new Map<ts.Node, Sink>();
  errorClassSinks(files, sinks);
  // A result's content said in each voice (errors.ts `voiced`): the CLI prints it too.
  for (const f of files) {
    ts.forEachChild(f, (n) => {
      if (ts.isFunctionDeclaration(n) && n.name?.text === "voiced") sinks.set(n, { said: 1 });
    });
  }

  type Found = {
    node: ts.Node;
    kind: Site["kind"];
    message: ts.Expression;
    next?: ts.Expression;
    said?: boolean;
  };
  const findSites = (): {
    found: Found[];
    forwarded: number;
    added: boolean;
    toolErrors: number;
  } => {
    const found: Found[] = [];
    let forwarded = 0;
    let toolErrors = 0;
    let added = false;
    const forward = (node: ts.Node, arg: ts.Expression | undefined, role: keyof Sink): boolean => {
      if (!arg || !ts.isIdentifier(arg)) return false;
      const fn = enclosingCallable(node);
      const index = fn?.parameters.findIndex((p) => p.name.getText() === arg.text) ?? -1;
      if (!fn || index < 0) return false;
      const key = ts.isArrowFunction(fn) || ts.isFunctionExpression(fn) ? fn : fn;
      const sink = sinks.get(key) ?? {};
      if (sink[role] !== index) {
        sink[role] = index;
        sinks.set(key, sink);
        added = true;
      }
      return true;
    };
    const visit = (n: ts.Node) => {
      if (ts.isNewExpression(n) || ts.isCallExpression(n)) {
        const sink = calleeDecl(checker, n)
          .map((d) => sinks.get(d))
          .find(Boolean);
        const args = n.arguments ?? ts.factory.createNodeArray();
        if (sink?.said !== undefined && args[sink.said]) {
          found.push({ node: n, kind: "message", message: args[sink.said]!, said: true });
        }
        if (sink?.message !== undefined && args[sink.message]) {
          const message = args[sink.message]!;
          const next = sink.next === undefined ? undefined : args[sink.next];
          const passes = forward(n, message, "message");
          const passesNext = forward(n, next, "next");
          if (ts.isNewExpression(n) && n.expression.getText() === "ToolError") toolErrors++;
          if (passes) forwarded++;
          else
            found.push({
              node: n,
              kind: "error",
              message,
              ...(next && !passesNext ? { next } : {}),
            });
        }
        if (
          ts.isCallExpression(n) &&
          ts.isPropertyAccessExpression(n.expression) &&
          /^(push|unshift)$/.test(n.expression.name.text) &&
          WARNING_LIST.test(n.expression.expression.getText())
        ) {
          for (const a of n.arguments) {
            const message = ts.isSpreadElement(a) ? a.expression : a;
            if (!forward(n, message, "message")) found.push({ node: a, kind: "warning", message });
            else forwarded++;
          }
        }
      }
      if (ts.isPropertyAssignment(n) && ts.isIdentifier(n.name)) {
        const name = n.name.text;
        if (name === "warnings" && ts.isArrayLiteralExpression(n.initializer)) {
          for (const e of n.initializer.elements) {
            const message = ts.isSpreadElement(e) ? e.expression : e;
            found.push({ node: e, kind: "warning", message });
          }
        } else if (MESSAGE_PROPS.has(name)) {
          const kind = name === "message" ? "message" : "warning";
          if (!forward(n, n.initializer, "message"))
            found.push({ node: n, kind, message: n.initializer });
          else forwarded++;
        }
      }
      ts.forEachChild(n, visit);
    };
    for (const f of files) visit(f);
    return { found, forwarded, added, toolErrors };
  };

  let round = findSites();
  for (let i = 0; round.added && i < 10; i++) round = findSites();

  const sites: Site[] = [];
  let opaque = 0;
  for (const f of round.found) {
    const file = f.node.getSourceFile();
    const line = file.getLineAndCharacterOfPosition(f.node.getStart()).line + 1;
    const where = `${file.fileName.slice(root.length + 1)}:${line}`;
    const texts = new Set<string>();
    let whole = true;
    for (const t of everyWay((choose) => {
      const ev = new Evaluator(checker, choose);
      try {
        const given = ev.eval(f.message);
        const message = f.said && isFn(given) ? text(ev.apply(given, [voice])) : given;
        if (message instanceof Hole || typeof message !== "string") return undefined;
        whole = false;
        const next = f.next ? ev.eval(f.next) : undefined;
        const advice = next && typeof next === "object" ? ev.advice(next, voice) : "";
        return advice ? `${message} ${advice}` : message;
      } catch (error) {
        if (error instanceof Stop) return undefined;
        throw error;
      }
    }, 24)) {
      if (t !== undefined) texts.add(t);
    }
    if (whole) {
      opaque++;
      continue;
    }
    sites.push({ where, kind: f.kind, texts: [...texts] });
  }
  return { sites, toolErrors: round.toolErrors, forwarded: round.forwarded, opaque };
}

export { Evaluator as MessageEvaluator };
