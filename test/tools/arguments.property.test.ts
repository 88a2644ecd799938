/**
 * Arguments are data: whatever JSON a client sends — keys named like
 * `Object.prototype` members (`constructor`, `__proto__`) at any depth, wrong
 * types, missing fields — every tool answers with a result or a coded
 * ToolError, never an `internal` fault. Values follow each tool's schema most
 * of the time so calls reach past validation into the tools themselves.
 *
 * SPLICE_FUZZ_RUNS sets the number of calls (default 600, a few seconds);
 * `SPLICE_FUZZ_RUNS=10000` is the long run.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { isToolError } from "../../src/errors.js";
import { createToolkit, type Toolkit } from "../../src/toolkit/index.js";
import type { Tool } from "../../src/tools/define.js";
import { Project } from "../helpers/project.js";

const RUNS = Number(process.env.SPLICE_FUZZ_RUNS ?? 600);

/** Own keys that plain-object lookups (`shape[key]`, `key in obj`) take for inherited members. */
const PROTO_KEYS = [
  "constructor",
  "toString",
  "__proto__",
  "hasOwnProperty",
  "valueOf",
  "isPrototypeOf",
  "__defineGetter__",
];

const FILES = ["a.txt", "b.json", "c.md", "d.ts", "e.ipynb", "sub/f.py", "missing.txt"];

function plant(p: Project): void {
  p.write("a.txt", "one\ntwo\nthree\n");
  p.write("b.json", '{"name": "x", "list": [1, 2], "deps": {"a": "1"}}\n');
  p.write("c.md", "# Title\n\nText.\n\n## Part\n\nMore.\n");
  p.write("d.ts", "export function hello(a: number) {\n  return a + 1;\n}\n");
  p.write(
    "e.ipynb",
    JSON.stringify({
      cells: [{ cell_type: "code", source: ["x = 1\n"], metadata: {}, outputs: [] }],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5,
    }),
  );
  p.write("sub/f.py", "def f():\n    return 1\n");
}

/** An object built from entries, so `__proto__` is an own key as JSON.parse makes it. */
const objectOf = (entries: readonly (readonly [string, unknown])[]) => Object.fromEntries(entries);

const leaf = fc.oneof(
  fc.constantFrom(...FILES, ...PROTO_KEYS, "1..2", "2", "", ".", "*", "hello", "apply", "preview"),
  fc.string({ maxLength: 6 }),
  fc.integer({ min: -3, max: 40 }),
  fc.boolean(),
  fc.constant(null),
);

/** Any JSON, with prototype-named keys at every level. */
const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.array(tie("json"), { maxLength: 3 }),
    fc
      .array(
        fc.tuple(fc.constantFrom(...PROTO_KEYS, "path", "targets", "text", "x"), tie("json")),
        { maxLength: 3 },
      )
      .map(objectOf),
  ),
})).json;

interface Def {
  type: string;
  shape?: Record<string, unknown>;
  element?: unknown;
  options?: unknown[];
  innerType?: unknown;
  in?: unknown;
  entries?: Record<string, unknown>;
  values?: unknown[];
  valueType?: unknown;
}

const defOf = (schema: unknown): Def => (schema as { _zod: { def: Def } })._zod.def;

/** Values shaped like `schema` wants, now and then wrong, with prototype-named keys added. */
function shaped(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
  const right = rightShape(schema, depth);
  return fc.oneof({ weight: 30, arbitrary: right }, { weight: 1, arbitrary: anyJson });
}

function rightShape(schema: unknown, depth: number): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  if (depth > 6) return leaf;
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
      return rightShape(def.innerType, depth);
    case "pipe":
      return rightShape(def.in, depth);
    case "string":
      return fc.oneof(
        fc.constantFrom(...FILES, "1..2", "one", "two", "x", "*.txt", "$A", "hello"),
        fc.string({ maxLength: 8 }),
      );
    case "number":
      return fc.integer({ min: -2, max: 30 });
    case "boolean":
      return fc.boolean();
    case "enum":
      return fc.constantFrom(...Object.values(def.entries ?? { x: "x" }));
    case "literal":
      return fc.constantFrom(...(def.values ?? [null]));
    case "array":
      return fc.array(shaped(def.element, depth + 1), { maxLength: 3 });
    case "union":
      return fc.oneof(...(def.options ?? []).map((o) => rightShape(o, depth)));
    case "record":
      return fc
        .array(fc.tuple(fc.constantFrom(...PROTO_KEYS, "path", "text", "targets"), anyJson), {
          maxLength: 3,
        })
        .map(objectOf);
    case "object": {
      // A required field is nearly always given; an optional one half the time.
      const fields = Object.entries(def.shape ?? {}).map(([key, field]) =>
        fc.option(
          shaped(field, depth + 1).map((v) => [key, v] as const),
          { nil: undefined, freq: defOf(field).type === "optional" ? 2 : 20 },
        ),
      );
      const extra = fc.oneof(
        { weight: 5, arbitrary: fc.constant([]) },
        {
          weight: 1,
          arbitrary: fc.array(fc.tuple(fc.constantFrom(...PROTO_KEYS), anyJson), { maxLength: 2 }),
        },
      );
      return fc
        .tuple(fc.tuple(...fields), extra)
        .map(([given, more]) =>
          objectOf([
            ...given.filter((f): f is readonly [string, unknown] => f !== undefined),
            ...more,
          ]),
        );
    }
    default:
      return anyJson;
  }
}

/** What a tool is sent: a call shaped by its schema, as it arrives off the wire. */
const callOf = (tool: Tool) =>
  shaped(tool.input).map((args) => ({ tool: tool.name, args: JSON.parse(JSON.stringify(args)) }));

describe("tool arguments as data", () => {
  const p = new Project();
  plant(p);
  const full = createToolkit({ root: p.root, lsp: false });
  const minimal = createToolkit({ root: p.root, lsp: false, tools: "minimal" });
  const kits: Toolkit[] = [full, minimal];
  afterAll(async () => {
    for (const k of kits) await k.close();
  });

  // `run` is only parsed: random text is not run as a shell command.
  const PARSED_ONLY = new Set(["run"]);
  const tools = [
    ...full.tools.map((t) => ({ kit: full, tool: t })),
    ...minimal.tools
      .filter((t) => !full.tools.some((f) => f === t))
      .map((t) => ({ kit: minimal, tool: t })),
  ];

  it(
    `answers ${RUNS} random calls over every tool with a result or a coded error`,
    async () => {
      const outcomes = new Map<string, number>();
      const faults: string[] = [];
      const calls = fc.oneof(
        ...tools.map(({ kit, tool }) =>
          callOf(tool).map((c) => ({ ...c, kit: kits.indexOf(kit) })),
        ),
      );
      await fc.assert(
        fc.asyncProperty(calls, async ({ kit: which, tool, args }) => {
          const kit = kits[which]!;
          let outcome = "ok";
          try {
            if (PARSED_ONLY.has(tool)) kit.describe(tool, args);
            else await kit.call(tool, args);
          } catch (error) {
            if (!isToolError(error)) {
              faults.push(`${tool} ${JSON.stringify(args)}: ${String(error)}`);
              outcome = "internal";
            } else outcome = error.code;
          }
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
          // The planted files come back, so later calls have something to work on.
          if (outcome === "ok") plant(p);
          expect(outcome).not.toBe("internal");
        }),
        { numRuns: RUNS },
      );
      if (process.env.SPLICE_FUZZ_RUNS) {
        console.log(`fuzz outcomes: ${JSON.stringify(Object.fromEntries(outcomes))}`);
      }
      expect(faults).toEqual([]);
    },
    Math.max(30_000, RUNS * 100),
  );

  it("takes a prototype-named key as an unknown field at every level, naming it", async () => {
    const top = await full.call("read", JSON.parse('{"targets": [], "__proto__": {"x": 1}}')).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isToolError(top) && top.code).toBe("invalid_input");
    expect(String((top as Error).message)).toContain('unknown field(s) "__proto__"');
    const inner = await full
      .call("read", JSON.parse('{"targets": [{"path": "a.txt", "constructor": 1}]}'))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(String((inner as Error).message)).toContain(
      'targets[0] has unknown field(s) "constructor" (its fields are "path"',
    );
    // Fields never come through a prototype: `__proto__: {path}` is not a path.
    const smuggled = await full
      .call("write", JSON.parse('{"targets": [{"__proto__": {"path": "a.txt", "text": "x"}}]}'))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(isToolError(smuggled) && smuggled.code).toBe("invalid_input");
    expect(p.text("a.txt")).toBe("one\ntwo\nthree\n");
  });
});
