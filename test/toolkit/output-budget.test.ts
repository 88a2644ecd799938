/**
 * What one result shows the model stays within the output budget (24,000
 * bytes by default: what Claude Code, Codex and Gemini CLI all pass to their
 * models whole), says at its start that it was cut, and ends with how to see
 * the rest, where a client that trims a long result's middle still keeps it
 * (issue #39). Measured as hosts send it: renderResult's text, in UTF-8 bytes.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { OUTPUT_BUDGET } from "../../src/change/context.js";
import { createMcpServer } from "../../src/hosts/mcp/server.js";
import { createToolkit, renderResult, type ToolkitOptions } from "../../src/toolkit/index.js";
import { fitToBudget } from "../../src/toolkit/render-result.js";
import { Project } from "../helpers/project.js";

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

/** A line of code-like text, about 60 bytes with its number. */
const codeLine = (i: number) => `  const value${i} = compute(${i}, "some text to make it longer");`;

function project(files: Record<string, string>): Project {
  const p = new Project();
  for (const [rel, text] of Object.entries(files)) p.write(rel, text);
  return p;
}

async function shown(
  p: Project,
  name: string,
  args: unknown,
  options: Partial<ToolkitOptions> = {},
): Promise<string[]> {
  const kit = createToolkit({ root: p.root, lsp: false, ...options });
  try {
    const text = renderResult(name, await kit.call(name, args));
    expect(bytes(text), `${name} shows ${bytes(text)} bytes`).toBeLessThanOrEqual(
      options.outputBudget ?? OUTPUT_BUDGET,
    );
    return text.split("\n");
  } finally {
    await kit.close();
  }
}

const lines = (n: number) => `${Array.from({ length: n }, (_, i) => codeLine(i + 1)).join("\n")}\n`;

describe("read", () => {
  it.each([2_000, 10_000])(
    "of %d lines: stops at the budget and ends with the line_range to read on",
    async (n) => {
      const p = project({ "big.ts": lines(n) });
      const out = await shown(p, "read", { path: "big.ts" });
      const last =
        /^\[showing lines 1\.\.(\d+) of (\d+); read the rest with line_range "(\d+)\.\.(\d+)"\]$/.exec(
          out.at(-1)!,
        );
      expect(last, out.at(-1)).not.toBeNull();
      const [, end, total, next] = last!.map(Number);
      expect(total).toBe(n);
      expect(next).toBe(end! + 1);
      expect(end).toBeGreaterThan(300);
      expect(out[1]).toBe(`[lines 1..${end} of ${n} shown; the last line says how to read on]`);
      expect(out.at(-2)).toBe(`${end}| ${codeLine(end!)}`);
      // The continuation reads on from there, within the budget again.
      const rest = await shown(p, "read", { path: "big.ts", line_range: `${next}..${n}` });
      expect(rest[2]).toBe(`${next}| ${codeLine(next!)}`);
    },
  );

  it("shows a whole file that fits, with no notice", async () => {
    const p = project({ "small.ts": lines(100) });
    const out = await shown(p, "read", { path: "small.ts" });
    expect(out).toHaveLength(101);
    expect(out.at(-1)).toBe(`100| ${codeLine(100)}`);
  });

  it("shares the budget between targets and names the ones left out", async () => {
    const p = project({ "a.ts": lines(150), "b.ts": lines(150), "c.ts": lines(150), "d.ts": "" });
    const out = await shown(p, "read", {
      targets: [{ path: "a.ts" }, { path: "b.ts" }, { path: "c.ts" }, { path: "d.ts" }],
    });
    // c.ts takes what is left, and says how to read on; d.ts is named, not shown.
    expect(out).toContainEqual(
      expect.stringMatching(/^\[showing lines 1\.\.\d+ of 150; read the rest/),
    );
    expect(out.at(-1)).toMatch(
      /^\[not shown: 1 more target\(s\) \(d\.ts\); this read reached what one result shows \(10,000 lines, 24,000 bytes\)\. Read them in another call/,
    );
  });

  it("shows more with a host's bigger budget (outputBudget)", async () => {
    const p = project({ "big.ts": lines(2_000) });
    const out = await shown(p, "read", { path: "big.ts" }, { outputBudget: 200_000 });
    expect(out.at(-1)).toBe(`2000| ${codeLine(2_000)}`);
  });
});

describe("search", () => {
  it("with 1,000 matches: stops at the budget and ends with where to search on", async () => {
    const files: Record<string, string> = {};
    for (let f = 0; f < 20; f++) files[`src/m${String(f).padStart(2, "0")}.ts`] = lines(50);
    const p = project(files);
    const out = await shown(p, "search", { pattern: "compute(", limit: 1_000 });
    const [, of] = /^\[(\d+) of 1000 matches shown; the last line says how to see the rest\]$/.exec(
      out[0]!,
    )!;
    expect(Number(of)).toBeGreaterThan(100);
    expect(out.at(-1)).toMatch(
      new RegExp(
        `^\\[showing ${of} of 1000 matches \\(in \\d+ of 20 files\\): the rest does not fit in one result\\. The next file with matches is src/m\\d\\d\\.ts: search it with "path", or narrow the search with "path", "glob"`,
      ),
    );
  });
});

describe("run", () => {
  it("with 1 MB of output: keeps its start and end and ends with where the whole of it is", async () => {
    const p = new Project();
    const out = await shown(p, "run", { command: "seq 1 160000" });
    expect(out[0]).toBe("$ seq 1 160000");
    expect(out[1]).toMatch(
      /^\[output cut to its start and end, of [\d.]+ (KiB|MiB); the last line says where the rest is\]$/,
    );
    expect(out).toContain("160000");
    expect(out.at(-2)).toMatch(/^\[exit 0 after [\d.]+ s\]$/);
    expect(out.at(-1)).toMatch(
      /^\[the whole output \([\d.]+ (KiB|MiB)\) is in \.splice\/runs\/[\w-]+\.log; view parts of it with run, e\.g\. "grep -n -i error \.splice\/runs\/[\w-]+\.log"\]$/,
    );
  });

  it("cuts a larger max_output_bytes to what fits one result", async () => {
    const p = new Project();
    await shown(p, "run", { command: "seq 1 160000", max_output_bytes: 1_000_000 });
  });
});

describe("list and outline of a folder", () => {
  it("list: stops at the budget and names the next entry", async () => {
    const p = new Project();
    mkdirSync(join(p.root, "many"));
    for (let i = 0; i < 3_000; i++) {
      writeFileSync(join(p.root, "many", `a-rather-long-file-name-number-${i}.txt`), "");
    }
    const out = await shown(p, "list", { path: "many", limit: 5_000 });
    expect(out[0]).toBe("[listing cut short; the last line says how to see the rest]");
    expect(out.at(-1)).toMatch(
      /^\[showing [\d,]+ of 3,000 entries: the rest does not fit in one result \(the next is many\/a-rather-long-file-name-number-\d+\.txt\); to see more, list a deeper path such as "many", use a smaller depth or a lower limit\]$/,
    );
  });

  it("outline: stops at the budget and names the next file", async () => {
    const files: Record<string, string> = {};
    for (let f = 0; f < 300; f++) {
      files[`src/module-${String(f).padStart(3, "0")}.ts`] = Array.from(
        { length: 8 },
        (_, i) => `export function someRatherLongFunctionName${i}(a: number) { return a; }`,
      ).join("\n");
    }
    const p = project(files);
    const out = await shown(p, "outline", { path: "src" });
    expect(out[0]).toBe("[outline cut short; the last line says how to see the rest]");
    expect(out.at(-1)).toMatch(
      /^\[outline stopped at [\d,]+ bytes after \d+ of 300 files; outline a subfolder or a file for the rest, the next being src\/module-\d+\.ts\]$/,
    );
  });
});

describe("big diffs", () => {
  it("a patch of 400 files: cut after its first files, ending with how to see the rest", async () => {
    const files: Record<string, string> = {};
    let patch = "";
    for (let f = 0; f < 400; f++) {
      const name = `src/file-with-a-long-name-${f}.ts`;
      files[name] = "const a = 1;\nconst b = 2;\n";
      patch += `--- a/${name}\n+++ b/${name}\n@@ -1,2 +1,2 @@\n-const a = 1;\n+const a = 10;\n const b = 2;\n`;
    }
    const p = project(files);
    const out = await shown(p, "patch", { patch });
    expect(out[0]).toMatch(
      /^\[cut to 24,000 bytes of [\d.]+ KiB; the end says how to see the rest\]$/,
    );
    expect(out.join("\n")).toMatch(
      /\n\[… [\d.]+ KiB \([\d,]+ lines\) not shown here; narrow the call/,
    );
  });

  it("an edit shown whole (resultDiff full) of a big file", async () => {
    const p = project({ "big.ts": lines(3_000) });
    const before = lines(3_000);
    const after = before.replaceAll("compute(", "calculate(");
    const out = await shown(
      p,
      "edit",
      { path: "big.ts", old_text: before.trimEnd(), new_text: after.trimEnd() },
      { resultDiff: "full" },
    );
    expect(out[0]).toMatch(/^\[cut to 24,000 bytes of/);
    expect(out.at(-1)).toMatch(/^\[/);
  });
});

describe("fitToBudget", () => {
  it("keeps a text that fits as it is", () => {
    expect(fitToBudget("a\nb", 10)).toBe("a\nb");
  });

  it("keeps the start and the closing notices, and says both where and how much was cut", () => {
    const text = [
      "header",
      ...Array.from({ length: 1_000 }, (_, i) => `line ${i}`),
      "[read on with X]",
    ].join("\n");
    const fitted = fitToBudget(text, 5_000);
    expect(bytes(fitted)).toBeLessThanOrEqual(5_000);
    const out = fitted.split("\n");
    expect(out[0]).toMatch(
      /^\[cut to 5,000 bytes of [\d.]+ KiB; the end says how to see the rest\]$/,
    );
    expect(out[1]).toBe("header");
    expect(out.at(-2)).toMatch(/^\[… [\d.]+ KiB \([\d,]+ lines\) not shown here; narrow the call/);
    expect(out.at(-1)).toBe("[read on with X]");
  });

  it("shows part of a single line longer than the budget, at a character boundary", () => {
    const fitted = fitToBudget("é".repeat(10_000), 4_000);
    expect(bytes(fitted)).toBeLessThanOrEqual(4_000);
    expect(fitted.split("\n")[1]).toMatch(/^é+$/);
  });
});

describe("outputBudget", () => {
  it("refuses a budget too small for a page of lines", () => {
    expect(() => createToolkit({ root: new Project().root, outputBudget: 100 })).toThrow(
      "outputBudget must be a whole number of bytes, at least 4000; got 100.",
    );
  });

  it("reaches an MCP client as the text it sends, within the server's budget", async () => {
    const p = project({ "big.ts": lines(2_000) });
    const server = createMcpServer({ root: p.root, clientRoots: false, outputBudget: 8_000 });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.server.connect(serverSide);
    const client = new Client({ name: "budget", version: "1" });
    await client.connect(clientSide);
    try {
      const result = await client.callTool({ name: "read", arguments: { path: "big.ts" } });
      const text = (result.content as { text: string }[]).map((c) => c.text).join("\n");
      expect(bytes(text)).toBeLessThanOrEqual(8_000);
      expect(text.split("\n").at(-1)).toMatch(/^\[showing lines 1\.\.\d+ of 2000; read the rest/);
    } finally {
      await client.close();
      await server.release();
    }
  });
});
