/**
 * Arguments as real clients send them: fields a client injects are ignored,
 * other spellings of a field are taken as it (or refused naming it), and
 * nothing is dropped without a word.
 */
import { describe, expect, it } from "vitest";
import { createToolkit, type Toolkit } from "../../src/toolkit/index.js";
import { fieldFor, snakeCase } from "../../src/tools/arguments.js";
import { parseArgs } from "../../src/tools/define.js";
import { Project, rejection } from "../helpers/project.js";

function kit(): { p: Project; kit: Toolkit } {
  const p = new Project();
  p.write("a.txt", "one\ntwo\nthree\n");
  return { p, kit: createToolkit({ root: p.root, lsp: false }) };
}

const tool = (k: Toolkit, name: string) => k.find(name);

describe("fields clients inject", () => {
  it("accepts Gemini CLI's wait_for_previous and n8n's toolCallId on every tool, and ignores them", async () => {
    const { p, kit: k } = kit();
    const read = await k.call("read", {
      targets: [{ path: "a.txt" }],
      wait_for_previous: true,
      toolCallId: "call_1",
    });
    expect(JSON.stringify(read)).toContain("two");
    await k.call("edit", {
      targets: [{ path: "a.txt", edits: [{ old_text: "two", new_text: "2" }] }],
      wait_for_previous: false,
    });
    expect(p.text("a.txt")).toBe("one\n2\nthree\n");
    for (const t of k.tools) {
      expect(() =>
        parseArgs(t, { ...(t.example as object), wait_for_previous: true }),
      ).not.toThrow();
    }
  });

  it("are still unknown below the top level", async () => {
    const { kit: k } = kit();
    const error = await rejection(
      k.call("read", { targets: [{ path: "a.txt", wait_for_previous: true }] }),
    );
    expect(error.message).toContain(
      'targets[0] has unknown field(s) "wait_for_previous" (its fields are "path", "line_range", "symbol", "line", "pages")',
    );
  });
});

describe("other spellings of a field", () => {
  it("names snake_case for camelCase and the synonyms other agents use", () => {
    expect(snakeCase("replaceAll")).toBe("replace_all");
    expect(snakeCase("oldText")).toBe("old_text");
    const edit = new Set(["old_text", "new_text", "replace_all"]);
    expect(fieldFor("old_string", edit)).toBe("old_text");
    expect(fieldFor("newString", edit)).toBe("new_text");
    expect(fieldFor("replaceAll", edit)).toBe("replace_all");
    expect(fieldFor("file_path", new Set(["path"]))).toBe("path");
    // Only where the field exists.
    expect(fieldFor("old_string", new Set(["path"]))).toBeUndefined();
    expect(fieldFor("surprise", edit)).toBeUndefined();
  });

  it("takes Claude Code's edit arguments as splice's, at every depth", async () => {
    const { p, kit: k } = kit();
    await k.call("edit", {
      targets: [
        { file_path: "a.txt", edits: [{ old_string: "o", new_string: "0", replaceAll: true }] },
      ],
    });
    expect(p.text("a.txt")).toBe("0ne\ntw0\nthree\n");
  });

  it("refuses a field given in two spellings, naming the one to keep", async () => {
    const { p, kit: k } = kit();
    const error = await rejection(
      k.call("edit", {
        targets: [
          { path: "a.txt", edits: [{ old_text: "one", old_string: "two", new_text: "1" }] },
        ],
      }),
    );
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain(
      'targets[0].edits[0] has both "old_string" and "old_text", two spellings of one field; send only "old_text"',
    );
    expect(p.text("a.txt")).toBe("one\ntwo\nthree\n");
  });

  it("still refuses an unknown field, listing the real ones", () => {
    const { kit: k } = kit();
    expect(() => parseArgs(tool(k, "history"), { path: "a.txt", depth: 2 })).toThrow(
      'the arguments has unknown field(s) "depth" (its fields are "path", "before", "all_sessions")',
    );
  });
});

describe("numbers written as text", () => {
  it('reads line_range ["1", "2"] and line "2" as numbers', async () => {
    const { kit: k } = kit();
    const args = parseArgs(tool(k, "read"), {
      targets: [
        { path: "a.txt", line_range: ["1", "2"] },
        { path: "a.txt", line: "2" },
      ],
    });
    expect((args as { targets: unknown }).targets).toEqual([
      { path: "a.txt", line_range: [1, 2] },
      { path: "a.txt", line: 2 },
    ]);
    // A string field keeps its digits, also where a number would do.
    const md = parseArgs(tool(k, "md"), {
      action: "table_append",
      path: "a.md",
      heading: "T",
      row: ["5", 5],
    });
    expect((md as { row: unknown }).row).toEqual(["5", 5]);
    expect(parseArgs(tool(k, "search"), { pattern: "42" })).toEqual({ pattern: "42" });
  });
});
