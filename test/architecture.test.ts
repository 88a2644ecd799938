/**
 * The layout's rules, checked over the real import graph of src/ (static,
 * dynamic and type-only imports alike), so the folders keep drawing the
 * architecture after every change. docs/architecture.md describes the same
 * layers; a rule broken here is a sentence made false there.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../src");

/** Every module of src/, as a path relative to src/ ("tools/read/index.ts"). */
function modules(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => f.split("\\").join("/"))
    .sort();
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g;

/** Module -> the modules of src/ it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const m of modules()) {
    const text = readFileSync(join(SRC, m), "utf8");
    const targets = [...text.matchAll(IMPORT)].map((match) => {
      const spec = match[1]!.replace(/\.js$/, ".ts");
      return relative(SRC, resolve(SRC, dirname(m), spec))
        .split("\\")
        .join("/");
    });
    graph.set(m, [...new Set(targets)]);
  }
  return graph;
}

/**
 * The layers, lowest first. A module may import its own layer and those
 * below it, never one above.
 */
const LAYERS: [string, (m: string) => boolean][] = [
  ["text", (m) => m.startsWith("text/")],
  ["util", (m) => m.startsWith("util/")],
  ["vocabulary", (m) => m === "errors.ts" || m === "events.ts"],
  // The engines, in the order their imports run (computed from the graph: history uses
  // workspace/, workspace/ uses guard/; the syntax, format and patch engines use none of them).
  ["engines: guard, proc", (m) => /^(guard|proc)\//.test(m)],
  ["engines: workspace", (m) => m.startsWith("workspace/")],
  ["engines: history", (m) => m.startsWith("history/")],
  ["engines: code, formats, media, patch, lsp", (m) => /^(code|formats|media|patch|lsp)\//.test(m)],
  ["change", (m) => /^(change|checkpoint)\//.test(m)],
  ["codebase", (m) => m.startsWith("codebase/")],
  ["tools", (m) => m.startsWith("tools/")],
  ["toolkit", (m) => m.startsWith("toolkit/")],
  ["surface", (m) => m === "splice.ts" || m === "index.ts"],
  ["adapters", (m) => /^(hosts|agent|review|cli|engine)\//.test(m)],
];

function layerOf(m: string): number {
  const i = LAYERS.findIndex(([, has]) => has(m));
  if (i === -1) throw new Error(`${m} is in no layer: add its folder to LAYERS and the docs`);
  return i;
}

/** Import circles: the strongly connected components with more than one module. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** A module's code without its comments (a comment may name anything). */
const codeOf = (m: string) =>
  readFileSync(join(SRC, m), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");

/** Asking a workspace or a history which class it is, instead of what it can do. */
const CLASS_CHECK =
  /instanceof\s+(?:Local|Remote|Memory|Overlay)Workspace\b|instanceof\s+History\b|\bkind\s*[!=]==?\s*["'`](?:local|remote|memory|overlay)["'`]/g;

/** The string literals of a module's code (template literals whole). */
const LITERAL = /"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g;

/** A path through the state folder: `.splice` as a path segment in a literal without spaces (prose may name it). */
const STATE_PATH = /(?:^|[^\w-])\.splice(?![\w-])/;

/** A state sub-folder or file joined onto a path. */
const STATE_PART =
  /\bjoin\([^)]*["'`](?:blobs|packs|locks|spares|runs|agents|checkpoints|index|journal\.jsonl|index-totals\.json|config\.json)["'`]/;

/** Where a module spells the state folder's layout itself: its offending literals and joins. */
function statePaths(m: string): string[] {
  const code = codeOf(m);
  const literals = (code.match(LITERAL) ?? []).filter(
    (lit) => !/\s/.test(lit) && STATE_PATH.test(lit.slice(1, -1)),
  );
  const joins = code.split("\n").filter((line) => STATE_PART.test(line));
  return [...literals, ...joins.map((line) => line.trim())];
}

const graph = importGraph();
const edges = [...graph].flatMap(([from, tos]) => tos.map((to) => ({ from, to })));
/** The tool a module belongs to ("read" for tools/read/symbol.ts); undefined outside a tool's folder. */
const toolOf = (m: string) => /^tools\/([^/]+)\//.exec(m)?.[1];

describe("the layout", () => {
  it("resolves every relative import to a module of src/", () => {
    const broken = edges.filter((e) => !graph.has(e.to)).map((e) => `${e.from} -> ${e.to}`);
    expect(broken).toEqual([]);
  });

  it("has no import circles", () => {
    expect(circles(graph)).toEqual([]);
  });

  it("keeps text/ pure: it imports nothing of the project outside text/", () => {
    const out = edges.filter((e) => e.from.startsWith("text/") && !e.to.startsWith("text/"));
    expect(out.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it("points every import down the layers, never up", () => {
    const up = edges
      .filter((e) => graph.has(e.to) && layerOf(e.to) > layerOf(e.from))
      .map(
        (e) =>
          `${e.from} (${LAYERS[layerOf(e.from)]![0]}) -> ${e.to} (${LAYERS[layerOf(e.to)]![0]})`,
      );
    expect(up).toEqual([]);
  });

  it("lets hosts, the agent and the review page reach tools only through toolkit/index.ts", () => {
    const inner = edges.filter(
      (e) =>
        /^(hosts|agent|review)\//.test(e.from) &&
        !/^(hosts|agent|review)\//.test(e.to) &&
        !["toolkit/index.ts", "errors.ts", "events.ts"].includes(e.to) &&
        !e.to.startsWith("util/"),
    );
    expect(inner.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it("keeps each tool's folder private: only the registry imports a tool, and tools do not import each other", () => {
    const into = edges.filter((e) => {
      const tool = toolOf(e.to);
      if (tool === undefined) return false;
      if (toolOf(e.from) === tool) return false;
      // The registry lists the tools; the public surface names their result types.
      return !(e.from === "toolkit/registry.ts" || e.from === "index.ts");
    });
    expect(into.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it("holds only the shared definitions at the top of tools/, and one folder per tool", () => {
    const top = readdirSync(join(SRC, "tools"), { withFileTypes: true });
    expect(top.filter((e) => e.isFile()).map((e) => e.name)).toEqual([
      "arguments.ts",
      "define.ts",
      "schemas.ts",
      "targets.ts",
    ]);
    for (const folder of top.filter((e) => e.isDirectory())) {
      const files = readdirSync(join(SRC, "tools", folder.name));
      expect(files, `tools/${folder.name}`).toContain("index.ts");
      expect(files, `tools/${folder.name}`).toContain(`${folder.name}.md`);
    }
  });

  it("registers every tool folder, so adding one is its folder plus a line in the registry", () => {
    const registry = readFileSync(join(SRC, "toolkit/registry.ts"), "utf8");
    const folders = readdirSync(join(SRC, "tools"), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    for (const name of folders) {
      expect(registry, name).toContain(`from "../tools/${name}/index.js"`);
    }
  });
});

describe("the seams", () => {
  it("points engine imports down the engines' own order: workspace/ never imports history/", () => {
    const engines = (m: string) => LAYERS[layerOf(m)]![0].startsWith("engines");
    const up = edges
      .filter((e) => graph.has(e.to) && engines(e.from) && engines(e.to))
      .filter((e) => layerOf(e.to) > layerOf(e.from))
      .map((e) => `${e.from} -> ${e.to}`);
    expect(up).toEqual([]);
  });

  it("never asks which class a workspace or history is, outside their own folders", () => {
    const checks = modules()
      .filter((m) => !/^(workspace|history)\//.test(m))
      .flatMap((m) => (codeOf(m).match(CLASS_CHECK) ?? []).map((c) => `${m}: ${c}`));
    expect(checks).toEqual([]);
  });

  it("spells the state folder's layout in util/state-folder.ts only", () => {
    const spelled = modules()
      .filter((m) => m !== "util/state-folder.ts")
      .flatMap((m) => statePaths(m).map((s) => `${m}: ${s}`));
    expect(spelled).toEqual([]);
  });

  it("keeps adapters off the toolkit's context: what they need is a toolkit method", () => {
    const reach = /\.context\.(history|guard|workspace|limits|validator)\b/g;
    const inside = modules()
      .filter((m) => /^(hosts|agent|review|cli)\//.test(m))
      .flatMap((m) => (codeOf(m).match(reach) ?? []).map((r) => `${m}: ${r}`));
    expect(inside).toEqual([]);
  });
});

describe("the boundary check itself", () => {
  it("finds a circle and an upward import when there is one", () => {
    const looped = new Map([
      ["a.ts", ["b.ts"]],
      ["b.ts", ["a.ts"]],
      ["c.ts", []],
    ]);
    expect(circles(looped)).toEqual([["a.ts", "b.ts"]]);
    expect(layerOf("change/commit.ts")).toBeLessThan(layerOf("tools/edit/index.ts"));
    expect(() => layerOf("nowhere.ts")).toThrow("is in no layer");
    expect(layerOf("workspace/local.ts")).toBeLessThan(layerOf("history/history.ts"));
  });

  it("finds a class check and a state path where there is one", () => {
    expect("if (w instanceof RemoteWorkspace) x;".match(CLASS_CHECK)).toHaveLength(1);
    expect('if (workspace.kind !== "local") x;'.match(CLASS_CHECK)).toHaveLength(1);
    expect("h instanceof HistoryError".match(CLASS_CHECK)).toBeNull();
    expect(STATE_PATH.test(".splice/runs")).toBe(true);
    expect(STATE_PATH.test(".NAME.splice-1-abc.tmp")).toBe(false);
    expect(STATE_PART.test('join(dir, "locks")')).toBe(true);
  });
});

it("keeps modules under 400 lines and functions under 80 (STYLE.md: small modules)", async () => {
  const ts = (await import("typescript")).default;
  const MAX_MODULE = 400;
  const MAX_FUNCTION = 80;
  const over: string[] = [];
  const check = (key: string, lines: number, max: number) => {
    if (lines > max) over.push(`${key}: ${lines} lines (at most ${max})`);
  };
  const nameOf = (node: import("typescript").Node): string => {
    const named = node as { name?: import("typescript").Node };
    if (named.name) return named.name.getText();
    const parent = node.parent;
    if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) {
      return parent.name.getText();
    }
    return "<anonymous>";
  };
  for (const m of modules()) {
    const text = readFileSync(join(SRC, m), "utf8");
    const source = ts.createSourceFile(m, text, ts.ScriptTarget.Latest, true);
    check(m, source.getLineAndCharacterOfPosition(text.length).line, MAX_MODULE);
    const visit = (node: import("typescript").Node) => {
      if (
        ts.isFunctionDeclaration(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isArrowFunction(node) ||
        ts.isFunctionExpression(node) ||
        ts.isConstructorDeclaration(node) ||
        ts.isGetAccessor(node) ||
        ts.isSetAccessor(node)
      ) {
        const from = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const to = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        check(`${m} ${nameOf(node)}`, to - from + 1, MAX_FUNCTION);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  expect(over).toEqual([]);
});
