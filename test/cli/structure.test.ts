/**
 * The shape of src/cli: its modules import in one direction (no circles),
 * only the command list imports the commands, and the heavy halves of serve
 * and agent load only when those commands run.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const CLI = join(import.meta.dirname, "../../src/cli");

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** Each module's static imports inside src/cli, as paths relative to it. */
function graph(): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of files(CLI)) {
    const source = readFileSync(file, "utf8");
    const targets = [...source.matchAll(/^(?:import|export)[^;]*?from "(\.[^"]+)\.js";/gms)]
      .map((m) => resolve(dirname(file), `${m[1]}.ts`))
      .filter((target) => target.startsWith(CLI));
    edges.set(
      relative(CLI, file),
      targets.map((t) => relative(CLI, t)),
    );
  }
  return edges;
}

describe("src/cli", () => {
  const edges = graph();

  it("has no import circle", () => {
    const done = new Set<string>();
    const path: string[] = [];
    const visit = (node: string) => {
      const at = path.indexOf(node);
      if (at >= 0) throw new Error(`import circle: ${[...path.slice(at), node].join(" -> ")}`);
      if (done.has(node)) return;
      path.push(node);
      for (const next of edges.get(node) ?? []) visit(next);
      path.pop();
      done.add(node);
    };
    for (const node of edges.keys()) visit(node);
    expect(done.size).toBe(edges.size);
  });

  it("imports each command from the command list only", () => {
    const commandFiles = [...edges.keys()].filter(
      (f) => f.startsWith("commands/") && f !== "commands/index.ts",
    );
    expect(commandFiles.length).toBeGreaterThan(10);
    const importers = (file: string) =>
      [...edges].filter(([, targets]) => targets.includes(file)).map(([from]) => from);
    for (const file of commandFiles) expect(importers(file), file).toEqual(["commands/index.ts"]);
    expect(importers("commands/index.ts")).toEqual(["main.ts"]);
  });

  it("loads serve's and agent's modules only with await import", () => {
    for (const [from, targets] of edges) {
      expect(targets, from).not.toContain("serve.ts");
      expect(targets, from).not.toContain("agent.ts");
    }
    const serve = readFileSync(join(CLI, "commands/serve.ts"), "utf8");
    const agent = readFileSync(join(CLI, "commands/agent.ts"), "utf8");
    expect(serve).toContain('await import("../serve.js")');
    expect(agent).toContain('await import("../agent.js")');
  });

  it("calls process.exit only where the process's own streams are and where it starts", () => {
    for (const file of files(CLI)) {
      // Anywhere else, in the engine, it would end every client's command.
      if (["io.ts", "start.ts"].includes(relative(CLI, file))) continue;
      expect(readFileSync(file, "utf8"), file).not.toMatch(/process\.exit\(/);
    }
  });
});
