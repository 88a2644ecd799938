import { describe, expect, it } from "vitest";
import { cliMessage } from "../../src/cli/advice.js";
import { supportedLanguageNames } from "../../src/code/languages.js";
import type { ToolError } from "../../src/errors.js";
import { readTool } from "../../src/tools/read/index.js";
import { FIXTURES, span } from "../code/fixtures.js";
import { Project } from "../helpers/project.js";

/** The numbered lines of read output, as [number, text]. */
function numbered(content: string): [number, string][] {
  return content.split("\n").flatMap((l) => {
    const m = /^(\d+)\| (.*)$/.exec(l);
    return m ? [[Number(m[1]), m[2]!] as [number, string]] : [];
  });
}

function linesOf(source: string, [start, end]: [number, number]): [number, string][] {
  return span(source, [start, end]).map((text, i) => [start + i, text]);
}

describe.each(Object.entries(FIXTURES))("read by syntax in %s", (_name, fx) => {
  const setup = () => {
    const p = new Project();
    p.write(fx.file, fx.source);
    return { p, splice: p.splice() };
  };

  it("shows a member by its qualified name with its real line numbers", async () => {
    const { splice } = setup();
    const { results } = await splice.read({
      targets: [{ path: fx.file, symbol: fx.member.symbol }],
    });
    expect(results).toHaveLength(1);
    const r = results[0]!;
    expect(r.error).toBeUndefined();
    expect(r.content.split("\n")[0]).toBe(r.header);
    expect(r.content).toContain(
      `: ${fx.member.lines[0] === fx.member.lines[1] ? "line" : "lines"} `,
    );
    expect(numbered(r.content)).toEqual(linesOf(fx.source, fx.member.lines));
    expect(r.definitions?.map((d) => d.lines)).toEqual([fx.member.lines]);
  });

  it("finds a top-level definition", async () => {
    const { splice } = setup();
    const { results } = await splice.read({ targets: [{ path: fx.file, symbol: fx.top.symbol }] });
    const defs = results.flatMap((r) => r.definitions ?? []);
    expect(defs).toContainEqual(
      expect.objectContaining({ lines: fx.top.lines, kind: fx.top.kind }),
    );
  });

  it("shows every definition of a duplicated name", async () => {
    const { splice } = setup();
    const { results } = await splice.read({
      targets: [{ path: fx.file, symbol: fx.duplicated.symbol }],
    });
    expect(results).toHaveLength(1);
    expect(results[0]!.definitions?.map((d) => d.lines)).toEqual(fx.duplicated.lines);
    const shown = new Set(numbered(results[0]!.content).map(([n]) => n));
    for (const [start, end] of fx.duplicated.lines) {
      expect(shown.has(start) && shown.has(end)).toBe(true);
    }
  });

  it("shows the innermost block around a line", async () => {
    const { splice } = setup();
    const { results } = await splice.read({
      targets: [{ path: fx.file, line: fx.lineInBlock.line }],
    });
    expect(numbered(results[0]!.content)).toEqual(linesOf(fx.source, fx.lineInBlock.block));
    expect(results[0]!.content).toContain(`(around line ${fx.lineInBlock.line})`);
  });

  it("finds the symbol in a folder", async () => {
    const { p, splice } = setup();
    p.write("other/readme.txt", `${fx.member.symbol}\n`);
    const { results } = await splice.read({ targets: [{ path: ".", symbol: fx.member.symbol }] });
    expect(results.map((r) => [r.path, r.definitions?.map((d) => d.lines)])).toEqual([
      [fx.file, [fx.member.lines]],
    ]);
  });
});

function bigClass(methods: number, bodyLines: number): string {
  const out = ["export class Big {"];
  for (let m = 0; m < methods; m++) {
    out.push(`  method${m}(a: number): number {`);
    for (let i = 0; i < bodyLines; i++) out.push(`    a = a + ${i};`);
    out.push("    return a;", "  }");
  }
  out.push("}");
  return `${out.join("\n")}\n`;
}

describe("read by syntax", () => {
  it("elides the large nested blocks of a long class, keeping its outline", async () => {
    const p = new Project();
    const source = bigClass(40, 20);
    p.write("big.ts", source);
    const { results } = await p.splice().read({ targets: [{ path: "big.ts", symbol: "Big" }] });
    const content = results[0]!.content;
    expect(numbered(content).length).toBeLessThanOrEqual(200);
    expect(content).toContain("2|   method0(a: number): number {");
    expect(content).toContain(
      '[lines 3..24 elided (method method0); read them with line_range "3..24"]',
    );
    expect(content).toContain("922| }");
  });

  it("never elides the line asked for", async () => {
    const p = new Project();
    const source = bigClass(40, 20);
    p.write("big.ts", source);
    const lines = source.split("\n");
    // A line in the class body between methods resolves to the class; line 1 too.
    const { results } = await p.splice().read({ targets: [{ path: "big.ts", line: 1 }] });
    expect(results[0]!.content).toContain("1| export class Big {");
    const inMethod = await p.splice().read({ targets: [{ path: "big.ts", line: 500 }] });
    expect(inMethod.results[0]!.content).toContain(`500| ${lines[499]}`);
  });

  it("never elides the line asked for, even deep in a long function", async () => {
    const p = new Project();
    const body = Array.from(
      { length: 30 },
      (_, i) => `    if x > ${i}:\n${"        x -= 1\n".repeat(10)}`,
    );
    p.write("long.py", `def long(x):\n${body.join("")}    return x\n`);
    const { results } = await p.splice().read({ targets: [{ path: "long.py", line: 150 }] });
    const content = results[0]!.content;
    expect(content).toContain("150|         x -= 1");
    expect(content).toMatch(
      /\[lines \d+\.\.\d+ elided \(if statement\); read them with line_range "\d+\.\.\d+"\]/,
    );
  });

  it("lists many definitions instead of showing them", async () => {
    const p = new Project();
    for (let i = 0; i < 7; i++)
      p.write(`src/m${i}.ts`, `export function run() {\n  return ${i};\n}\n`);
    const { results } = await p.splice().read({ targets: [{ path: "src", symbol: "run" }] });
    expect(results).toHaveLength(1);
    const lines = results[0]!.content.split("\n");
    expect(lines[0]).toBe(
      '[7 definitions match "run" — more than 5, so they are listed, not shown. Read one with its path and line_range, or name it more exactly (Class.method, or a file instead of a folder).]',
    );
    expect(lines[1]).toBe("src/m0.ts:1..3 function run — function run()");
    expect(results[0]!.file_hash).toBeUndefined();
  });

  it("respects .gitignore and skips dependency folders in a folder search", async () => {
    const p = new Project();
    p.write(".gitignore", "generated/\n");
    p.write("generated/a.ts", "export function target() {}\n");
    p.write("node_modules/x/a.ts", "export function target() {}\n");
    p.write("src/a.ts", "export function target() {}\n");
    const { results } = await p.splice().read({ targets: [{ path: ".", symbol: "target" }] });
    expect(results.map((r) => r.path)).toEqual(["src/a.ts"]);
  });

  it("says what is near when a symbol is not found", async () => {
    const p = new Project();
    p.write(FIXTURES.typescript!.file, FIXTURES.typescript!.source);
    const { results } = await p.splice().read({
      targets: [{ path: FIXTURES.typescript!.file, symbol: "Greter" }],
    });
    expect(results[0]!.error).toEqual({
      code: "not_found",
      message: 'No definition of "Greter" in src/greet.ts. Near names: Greeter.',
    });
    const folder = await p.splice().read({ targets: [{ path: "src", symbol: "greetr" }] });
    expect(folder.results[0]!.error?.message).toBe(
      'No definition of "greetr" in 1 file under src. Near names: Greeter, greet.',
    );
  });

  it("refuses a language it does not parse, naming the ones it does", async () => {
    const p = new Project();
    p.write("notes.txt", "hello\n");
    const { results } = await p
      .splice()
      .read({ targets: [{ path: "notes.txt", symbol: "hello" }] });
    expect(results[0]!.error).toEqual({
      code: "invalid_input",
      message: `notes.txt is not in a language splice parses (it goes by the file extension). The supported languages are: ${supportedLanguageNames()}.`,
    });
  });

  it("takes symbol over line_range over line, and says so", async () => {
    const p = new Project();
    const fx = FIXTURES.python!;
    p.write(fx.file, fx.source);
    const splice = p.splice();
    const bySymbol = await splice.read({
      targets: [{ path: fx.file, symbol: "Store.save", line_range: "1..2", line: 3 }],
    });
    expect(bySymbol.results[0]!.warnings).toEqual([
      "A symbol wins over a line range and a line; they were ignored.",
    ]);
    expect(numbered(bySymbol.results[0]!.content)[0]![0]).toBe(16);
    const byRange = await splice.read({
      targets: [{ path: fx.file, line_range: "1..2", line: 13 }],
    });
    expect(byRange.results[0]!.warnings).toEqual([
      "A line range wins over a line; the line was ignored.",
    ]);
    expect(numbered(byRange.results[0]!.content).map(([n]) => n)).toEqual([1, 2]);
  });

  it("reads a folder only with a symbol", async () => {
    const p = new Project();
    p.write("src/a.ts", "export const a = 1;\n");
    const { results } = await p.splice().read({ targets: [{ path: "src" }] });
    expect(results[0]!.error?.code).toBe("is_directory");
    expect(results[0]!.error?.message).toContain(
      'Call read with {"targets": [{"path":"src","symbol":"Name"}]} to search the folder for a definition.',
    );
    const thrown = (results[0]!.error as { thrown?: ToolError }).thrown!;
    expect(cliMessage(thrown)).toContain(
      "Run splice read src --symbol Name to search the folder for a definition.",
    );
  });

  it("vouches for an edit with the tag it showed", async () => {
    const p = new Project();
    const fx = FIXTURES.go!;
    p.write(fx.file, fx.source);
    const splice = p.splice();
    const { results } = await splice.read({ targets: [{ path: fx.file, symbol: "Server.Stop" }] });
    const edit = await splice.edit({
      targets: [
        {
          path: fx.file,
          file_hash: results[0]!.file_hash!,
          ops: 'replace 16:\n+\ts.name = "stopped"',
        },
      ],
    });
    expect(edit.results[0]!.applied).toBe(true);
    expect(p.text(fx.file)).toContain('\ts.name = "stopped"\n');
  });

  it("documents symbol, line and the elision notice", () => {
    expect(readTool.manual).toContain('"symbol"');
    expect(readTool.manual).toContain('"line"');
    expect(readTool.manual).toContain("elided (method parse); read them with line_range");
  });
});

describe("read by syntax: caps", () => {
  it("stops a folder search once more definitions were found than a list shows", async () => {
    const p = new Project();
    for (let i = 0; i < 60; i++) {
      p.write(
        `src/m${String(i).padStart(2, "0")}.ts`,
        "export function run() {}\n// parseInt run\n",
      );
    }
    const { results } = await p.splice().read({ targets: [{ path: "src", symbol: "run" }] });
    expect(results).toHaveLength(1);
    expect(results[0]!.warnings[0]).toMatch(
      /^The search stopped after \d+ definitions of "run" \(the list shows 50\); more files may define it\./,
    );
    expect(results[0]!.content).toContain("src/m00.ts:1 function run — function run() {}");
  });
});

describe("read by syntax over many files", () => {
  it("searches a large folder through ripgrep's candidates", async () => {
    const p = new Project();
    for (let i = 0; i < 250; i++) {
      p.write(`pkg/m${String(i).padStart(3, "0")}.py`, `def helper_${i}():\n    return ${i}\n`);
    }
    p.write("pkg/z/target.py", "class Target:\n    def run(self):\n        return 1\n");
    p.write("pkg/mention.py", "# Target is mentioned here only\n");
    const { results } = await p.splice().read({ targets: [{ path: "pkg", symbol: "Target.run" }] });
    expect(results.map((r) => [r.path, r.definitions?.map((d) => d.lines)])).toEqual([
      ["pkg/z/target.py", [[2, 3]]],
    ]);
  });
});
