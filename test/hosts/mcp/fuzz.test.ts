/**
 * Hostile arguments over MCP (issue #37): `splice serve` over stdio with the
 * SDK client, every tool it lists called with random arguments — keys named
 * like `Object.prototype` members at any depth, huge and deeply nested JSON,
 * wrong types, paths that escape, name the state folder, go 3,000 folders
 * deep or hold control characters. Every call must be answered (no hang) with
 * a result or a coded error, never `internal`, and neither the server nor its
 * engine may exit. The generator is seeded: a failure names its seed and call.
 *
 * SPLICE_FUZZ_CALLS sets the number of calls (default 300, in `npm test`);
 * `npm run test:faults` makes 10,000. Needs `npm run build`.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { serve, serving, Tally, textOf } from "../../faults/served.js";
import { BIN, ENGINE_BUILT, ownEngine } from "../../helpers/engine.js";
import { alive, sleep } from "../../helpers/processes.js";

const CALLS = Number(process.env.SPLICE_FUZZ_CALLS ?? 300);
const SEED = Number(process.env.SPLICE_FUZZ_SEED ?? 37);
/** Calls in flight at once, as a client that runs tools in parallel sends them. */
const PARALLEL = 8;
const BOUND_MS = 30_000;
/** `run` executes its command: random text there would be random shell. It gets fixed, harmless ones. */
const COMMANDS = ["true", "echo hi", "ls", "cat a.txt", "exit 3", "sleep 0.1"];

/** mulberry32: small, seeded, good enough to pick from lists. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PROTO_KEYS = [
  "__proto__",
  "constructor",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "isPrototypeOf",
  "__defineGetter__",
  "prototype",
];

const FILES = ["a.txt", "b.json", "c.md", "d.ts", "sub/e.py", "missing.txt", "."];

const HOSTILE_PATHS = [
  "../../etc/passwd",
  "/etc/passwd",
  "sub/../../outside.txt",
  ".splice/journal.jsonl",
  ".git/config",
  ".env",
  "a\u0000b.txt",
  "a\u0001\u001b[31mred.txt",
  "\u202etxt.exe",
  "~/x.txt",
  "C:\\Windows\\win.ini",
  "\\\\server\\share\\x",
  "%2e%2e/%2e%2e/x",
  "host:/etc/passwd",
  `${"d/".repeat(3000)}x.txt`,
  `${"n".repeat(300)}.txt`,
  "sub/",
  "",
  " ",
  "*",
  "**/*",
];

const STRINGS = [
  ...FILES,
  ...HOSTILE_PATHS,
  ...PROTO_KEYS,
  "1..2",
  "replace 1:\n+x",
  "delete 1",
  "insert head:\n+\u0000",
  "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+uno\n",
  "one",
  "$(rm -rf /)",
  "apply",
  "preview",
  "check",
  "\r\n",
  "\ud800",
  "🙂".repeat(10),
];

/** A value of any JSON kind, hostile more often than not. */
function anyValue(next: () => number, depth: number): unknown {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const r = next();
  if (r < 0.3) return pick(STRINGS);
  if (r < 0.4) return pick([0, -1, 1, 2, 1e308, 0.5, -0, 2 ** 53, 40]);
  if (r < 0.45) return pick([true, false, null]);
  if (r < 0.47) return "x".repeat(Math.floor(next() * 2_000_000)); // up to 2 MB of text
  // Up to 3,000 levels deep: deeper than that, the client's own JSON.stringify overflows its stack.
  if (r < 0.49) return nested(Math.floor(next() * 3_000));
  if (r < 0.5) return Array.from({ length: 20_000 }, (_, i) => i);
  if (depth > 3) return pick(STRINGS);
  if (r < 0.7)
    return Array.from({ length: Math.floor(next() * 4) }, () => anyValue(next, depth + 1));
  return objectOf(next, depth + 1, {});
}

function nested(levels: number): unknown {
  let value: unknown = "deep";
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { path: value };
  return value;
}

/**
 * Calm calls keep to each field's type and add no unknown keys, so they reach
 * past validation into the tools; their values (paths, ops, patterns) are as
 * hostile as the rest.
 */
let calm = false;

/** A JSON Schema, as far as the generator reads one. */
interface Schema {
  type?: string | string[];
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  anyOf?: Schema[];
}

/** A value of the kind `schema` asks for (its enum, its type), hostile strings and keys within. */
function shaped(next: () => number, schema: Schema | undefined, depth: number): unknown {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  if (!schema || depth > 4 || (!calm && next() < 0.15)) return anyValue(next, depth + 1);
  if (schema.enum && next() < 0.8) return pick(schema.enum);
  if (schema.anyOf) return shaped(next, pick(schema.anyOf), depth);
  const type = Array.isArray(schema.type) ? pick(schema.type) : schema.type;
  switch (type) {
    case "string":
      return calm && next() < 0.5 ? pick(FILES) : pick(STRINGS);
    case "boolean":
      return next() < 0.5;
    case "integer":
    case "number":
      return pick([0, 1, 2, 3, 10, -1, 1e9]);
    case "array":
      return Array.from({ length: 1 + Math.floor(next() * 3) }, () =>
        shaped(next, schema.items, depth + 1),
      );
    case "object":
      return objectOf(next, depth + 1, schema.properties ?? {}, schema.required);
    default:
      return anyValue(next, depth + 1);
  }
}

/** An object with some of `fields` (the tool's own) and some hostile keys, as JSON.parse makes them. */
function objectOf(
  next: () => number,
  depth: number,
  fields: Record<string, Schema>,
  required: readonly string[] = [],
): unknown {
  const entries: [string, unknown][] = [];
  for (const [key, schema] of Object.entries(fields)) {
    if ((calm && required.includes(key)) || next() < (calm ? 0.4 : 0.7)) {
      entries.push([
        key,
        calm || next() < 0.8 ? shaped(next, schema, depth) : anyValue(next, depth),
      ]);
    }
  }
  const extra = calm || next() < 0.5 ? 0 : 1 + Math.floor(next() * 2);
  for (let i = 0; i < extra; i++) {
    const key = next() < 0.7 ? PROTO_KEYS[Math.floor(next() * PROTO_KEYS.length)]! : "x";
    entries.push([key, anyValue(next, depth)]);
  }
  // Object.fromEntries makes `__proto__` an own key, as JSON.parse on the server side does too.
  return Object.fromEntries(entries);
}

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe.skipIf(!ENGINE_BUILT)("hostile arguments over MCP", { timeout: 3_600_000 }, () => {
  it(`answers ${CALLS} random calls to every tool with a result or a coded error`, async () => {
    const root = mkdtempSync(join(tmpdir(), "splice-fuzz-"));
    roots.push(root);
    writeFileSync(join(root, "a.txt"), "one\ntwo\nthree\n");
    writeFileSync(join(root, "b.json"), '{"name": "x", "list": [1, 2]}\n');
    writeFileSync(join(root, "c.md"), "# Title\n\n## Part\n\nText.\n");
    writeFileSync(join(root, "d.ts"), "export function hello(a: number) {\n  return a + 1;\n}\n");
    const s = await serve(root);
    try {
      const { tools } = await s.client.listTools();
      const shapes = tools.map((t) => ({
        name: t.name,
        fields: (t.inputSchema.properties ?? {}) as Record<string, Schema>,
        required: (t.inputSchema.required ?? []) as string[],
      }));
      const next = random(SEED);
      const tally = new Tally();
      let made = 0;
      const one = async () => {
        while (made < CALLS) {
          const n = made++;
          const tool = shapes[Math.floor(next() * shapes.length)]!;
          calm = next() < 0.4;
          const args =
            next() < 0.05
              ? anyValue(next, 0)
              : (objectOf(next, 0, tool.fields, tool.required) as object);
          if (tool.name === "run" && args && typeof args === "object" && !Array.isArray(args)) {
            (args as Record<string, unknown>).command = COMMANDS[n % COMMANDS.length];
          }
          const result = await s.call(tool.name, args, BOUND_MS);
          tally.add(result, `seed ${SEED} call ${n} ${tool.name}`);
        }
      };
      await Promise.all(Array.from({ length: PARALLEL }, one));
      const failures = tally.failures;
      console.log(
        `${CALLS} fuzzed calls over MCP (seed ${SEED}): ${tally} — exits ${failures.exits}, hangs ${failures.hangs}, uncoded ${failures.uncoded}`,
      );
      expect(tally.uncoded).toEqual([]);
      expect(failures).toEqual({ exits: 0, hangs: 0, uncoded: 0 });
      expect(serving(s)).toEqual({ server: true, engine: true });
      const read = await s.call("read", { targets: [{ path: "a.txt" }] }, 3_000);
      expect(typeof read === "string" ? read : textOf(read)).toMatch(/¶a\.txt#/);
      expect(s.log.text).not.toContain("internal error");
      // Nothing was written where an escaping path leads ("sub/../../outside.txt").
      expect(readdirSync(tmpdir()).includes("outside.txt")).toBe(false);
    } finally {
      const engine = s.engine();
      await s.close();
      if (engine !== undefined && alive(engine)) process.kill(engine, "SIGKILL");
    }
  });

  it("answers JSON 100,000 levels deep, which no SDK client can send, with invalid_input", async () => {
    const root = mkdtempSync(join(tmpdir(), "splice-deep-"));
    roots.push(root);
    writeFileSync(join(root, "a.txt"), "hi\n");
    const { env } = ownEngine();
    const server = spawn(BIN, ["serve", "--root", root], { env, stdio: ["pipe", "pipe", "pipe"] });
    const answers = new Map<number, string>();
    let buffer = "";
    server.stdout.on("data", (chunk: Buffer) => {
      buffer += chunk.toString();
      for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 1);
        const message = JSON.parse(line) as { id?: number };
        if (typeof message.id === "number") answers.set(message.id, line);
      }
    });
    const send = (line: string) => server.stdin.write(`${line}\n`);
    send(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}',
    );
    send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
    const depth = 100_000;
    const call = (id: number, name: string, args: string) =>
      send(
        `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`,
      );
    call(2, "read", `{"path":${"[".repeat(depth)}1${"]".repeat(depth)}}`);
    call(3, "list", `{"path":".","x":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`);
    call(4, "read", '{"path":"a.txt"}');
    try {
      const deadline = Date.now() + 20_000;
      while (!answers.has(4) && Date.now() < deadline) await sleep(50);
      expect(JSON.parse(answers.get(2)!).result._meta["splice/result"].error.code).toBe(
        "invalid_input",
      );
      expect(JSON.parse(answers.get(3)!).result._meta["splice/result"].error.code).toBe(
        "invalid_input",
      );
      expect(answers.get(4)).toContain("1| hi");
      expect(alive(server.pid!)).toBe(true);
    } finally {
      server.stdin.end();
      server.kill("SIGTERM");
    }
  });
});
