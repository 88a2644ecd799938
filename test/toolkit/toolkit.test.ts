import { readdirSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import { clip, QUOTE_MAX } from "../../src/errors.js";
import { createToolkit } from "../../src/toolkit/index.js";
import { renderResult } from "../../src/toolkit/render-result.js";
import { numbered, Project, rejection } from "../helpers/project.js";

describe("createToolkit", () => {
  it("tells its listeners of its events, and each toolkit keeps its own bus", async () => {
    const p = new Project();
    const heard: string[] = [];
    const listener = (e: { type: string }) => heard.push(e.type);
    const one = createToolkit({ root: p.root, listeners: [listener] });
    const two = createToolkit({ root: p.root, listeners: [listener] });
    const own: string[] = [];
    two.events.on((e) => own.push(e.type));
    await one.call("write", { targets: [{ path: "a.txt", text: "a\n" }] });
    expect(heard).toEqual(["files_changed"]);
    expect(own).toEqual([]);
    await Promise.all([one.close(), two.close()]);
  });

  it("takes a call parsed once through describe, preview, schedule and run", async () => {
    const p = new Project();
    p.write("a.txt", "one\n");
    const kit = createToolkit({ root: p.root });
    const safeParse = vi.spyOn(kit.find("edit").input, "safeParse");
    try {
      const call = kit.parse("edit", {
        targets: [{ path: "a.txt", edits: [{ old_text: "one", new_text: "two" }] }],
      });
      expect(kit.describe(call)).toMatchObject({ name: "edit", subject: "a.txt" });
      expect(await kit.preview(call)).toContain("+two");
      expect(kit.schedule([call, call])).toEqual([[0], [1]]);
      await kit.run(call);
      expect(p.text("a.txt")).toBe("two\n");
      expect(safeParse).toHaveBeenCalledTimes(1);
    } finally {
      safeParse.mockRestore();
      await kit.close();
    }
  });

  it("describes a call for approval prompts, validating its arguments", () => {
    const p = new Project();
    const kit = createToolkit({ root: p.root });
    expect(kit.describe("read", { targets: [{ path: "a.ts" }, { path: "b.ts" }] })).toEqual({
      name: "read",
      kind: "read",
      needs_approval: false,
      subject: "a.ts, b.ts",
      summary: "read a.ts, b.ts",
    });
    expect(kit.describe("rollback", { path: "a.ts", hash: "" })).toMatchObject({
      needs_approval: true,
      summary: "rollback a.ts to the previous version",
    });
    expect(() => kit.describe("edit", { targets: [] })).toThrow(/Invalid arguments for edit/);
  });

  it("without fsync (durable: false) still writes atomically, keeps history and undoes", async () => {
    const p = new Project();
    p.write("f.txt", numbered(3));
    const kit = createToolkit({ root: p.root, durable: false });
    const read = (await kit.call("read", { targets: [{ path: "f.txt" }] })) as {
      results: { file_hash: string }[];
    };
    const edited = (await kit.call("edit", {
      targets: [{ path: "f.txt", file_hash: read.results[0]!.file_hash, ops: "delete 2" }],
    })) as { results: { backup_session: string }[] };
    expect(p.text("f.txt")).toBe("line 1\nline 3\n");
    await kit.call("undo", { backup_session: edited.results[0]!.backup_session });
    expect(p.text("f.txt")).toBe(numbered(3));
    expect(readdirSync(p.root).filter((f) => f.includes(".splice-"))).toEqual([]); // no temp files
  });

  it("keeps a history folder placed inside the root out of every tool's reach", async () => {
    const p = new Project();
    p.write("a.txt", "v1\n");
    const kit = createToolkit({ root: p.root, history: { dir: `${p.root}/hist` } });
    await kit.call("write", { targets: [{ path: "a.txt", text: "v2\n" }] });
    const blocked = /inside 'hist', which holds splice's own history/;
    const read = (await kit.call("read", { targets: [{ path: "hist/journal.jsonl" }] })) as {
      results: { error?: { message: string } }[];
    };
    expect(read.results[0]!.error?.message).toMatch(blocked);
    const write = kit.call("write", { targets: [{ path: "hist/journal.jsonl", text: "" }] });
    expect((await rejection(write)).message).toMatch(blocked);
    await kit.call("undo", {});
    expect(p.text("a.txt")).toBe("v1\n");
  });

  it("says the history folder is unusable, and changes nothing, when it cannot be written", async () => {
    const p = new Project();
    p.write("a.txt", "v1\n");
    // Files where history's folders belong: every write into them fails, even for root.
    p.write(".splice/blobs", "not a folder");
    p.write(".splice/locks", "not a folder");
    const kit = createToolkit({ root: p.root });
    // A read is answered all the same: its version is known in memory only, and it says so.
    const read = (await kit.call("read", { targets: [{ path: "a.txt" }] })) as {
      results: { content: string }[];
      warnings: string[];
    };
    expect(read.results[0]!.content).toContain("1| v1");
    expect(read.warnings.join("\n")).toMatch(
      /splice could not keep this read in its history \((ENOTDIR|EEXIST) in .*\.splice\): .*edits and writes are refused until that folder can be written again/,
    );
    const calls = [
      kit.call("write", { targets: [{ path: "a.txt", text: "v2\n" }] }),
      kit.call("file", { action: "delete", path: "a.txt" }),
    ];
    for (const call of calls) {
      const error = await rejection(call);
      expect(error.code).toBe("io");
      expect(error.message).toMatch(
        /^splice could not use its history folder .*\.splice \((ENOTDIR|EEXIST) on .*no file was changed without its backup\. Make sure that folder is writable/,
      );
    }
    expect(p.text("a.txt")).toBe("v1\n");
  });

  it("previews an edit as its diff without writing", async () => {
    const p = new Project();
    p.write("f.txt", numbered(3));
    const kit = createToolkit({ root: p.root });
    const read = (await kit.call("read", { targets: [{ path: "f.txt" }] })) as {
      results: { file_hash: string }[];
    };
    const args = {
      targets: [{ path: "f.txt", file_hash: read.results[0]!.file_hash, ops: "delete 2" }],
    };
    expect(await kit.preview("edit", args)).toContain("-line 2");
    expect(p.text("f.txt")).toBe(numbered(3));
  });

  it("schedules a listing of the root after an earlier write anywhere", () => {
    const p = new Project();
    const kit = createToolkit({ root: p.root });
    const waves = kit.schedule([
      { name: "write", args: { targets: [{ path: "src/a.ts", text: "x" }] } },
      { name: "list", args: { path: "." } },
      { name: "run", args: { command: "true" } },
    ]);
    expect(waves).toEqual([[0], [1], [2]]);
  });

  it("schedules calls of one reply into waves by footprint", () => {
    const p = new Project();
    const kit = createToolkit({ root: p.root });
    const waves = kit.schedule([
      { name: "read", args: { targets: [{ path: "a.txt" }] } },
      { name: "write", args: { targets: [{ path: "./a.txt", text: "x" }] } },
      { name: "read", args: { targets: [{ path: "b.txt" }] } },
      { name: "read", args: { targets: [{ path: "a.txt" }] } },
    ]);
    expect(waves).toEqual([[0, 2], [1], [3]]);
  });

  it("offers the minimal set and names the real tools for an unknown one", async () => {
    const p = new Project();
    const kit = createToolkit({ root: p.root, tools: "minimal" });
    expect(kit.tools.map((t) => t.name)).toEqual(["read", "list", "search", "edit", "run", "help"]);
    const error = await rejection(kit.call("write", {}));
    expect(error.code).toBe("unknown_tool");
    expect(error.message).toContain("The tools are: read, list, search, edit, run, help.");
  });
});

describe("echoed input", () => {
  const big = `${"y".repeat(1_000_000)}.ts`;
  const clipped = `${"y".repeat(200)}…(1000003 characters)…${"y".repeat(97)}.ts`;

  it("is clipped to a few hundred characters, with its full length, in what the model reads", async () => {
    const p = new Project();
    const kit = createToolkit({ root: p.root });
    const read = await kit.call("read", { targets: [{ path: big }] });
    const text = renderResult("read", read);
    expect(text.length).toBeLessThan(1_000);
    expect(text).toContain(
      `[${clipped}: invalid_input: Path '${clipped}' is too long: it is 1,000,003 bytes long`,
    );

    const field = await rejection(kit.call("read", { targets: [{ path: "a.ts", [big]: 1 }] }));
    expect(field.message).toContain(`targets[0] has unknown field(s) "${clipped}" (its fields are`);
    expect(field.message.length).toBeLessThan(1_000);
    p.write("a.ts", "x\n");
    const range = await kit.call("read", { targets: [{ path: "a.ts", line_range: big }] });
    expect(renderResult("read", range).length).toBeLessThan(1_000);
    const pattern = await kit.call("search", { pattern: "y".repeat(16_000) });
    expect(renderResult("search", pattern).length).toBeLessThan(1_000);
    const tool = await rejection(kit.call(big, {}));
    expect(tool.message).toMatch(
      /^There is no tool named "y{200}…\(1000003 characters\)…y{97}\.ts"\./,
    );
  });

  it("is left whole when short", () => {
    expect(clip("src/main.ts")).toBe("src/main.ts");
    expect(clip("x".repeat(QUOTE_MAX))).toBe("x".repeat(QUOTE_MAX));
  });
});

describe("the call wrapper", () => {
  it("opens one backup session per call: a call's writes undo together, two calls apart", async () => {
    const p = new Project();
    p.write("a.txt", "a\n");
    p.write("b.txt", "b\n");
    const kit = createToolkit({ root: p.root, history: { session: "t" } });
    const both = (await kit.call("write", {
      targets: [
        { path: "a.txt", text: "A\n" },
        { path: "b.txt", text: "B\n" },
      ],
    })) as { results: { backup_session?: string }[] };
    const [first, second] = both.results.map((r) => r.backup_session);
    expect(first).toMatch(/^\d{8}-\d{6}-[0-9a-f]{6}$/);
    expect(second).toBe(first);
    const again = (await kit.call("write", { targets: [{ path: "a.txt", text: "AA\n" }] })) as {
      results: { backup_session?: string }[];
    };
    expect(again.results[0]!.backup_session).not.toBe(first);
  });
});

describe("library options", () => {
  it("takes camelCase names, and the snake_case names of earlier releases as aliases", async () => {
    const p = new Project();
    p.write("big.txt", "x".repeat(2000));
    p.write("key.pem", "secret\n");
    for (const options of [
      { maxFileBytes: 1000, readBlocklist: ["*.txt"] },
      { max_file_bytes: 1000, read_blocklist: ["*.txt"] },
    ]) {
      const kit = createToolkit({ root: p.root, ...options });
      expect(kit.context.limits.maxFileBytes).toBe(1000);
      // The block list replaces the default secret patterns: *.pem reads, *.txt does not.
      const read = (await kit.call("read", {
        targets: [{ path: "key.pem" }, { path: "big.txt" }],
      })) as { results: { error?: { code: string }; content: string }[] };
      expect(read.results[0]!.content).toContain("secret");
      expect(read.results[1]!.error?.code).toBe("guard");
    }
  });

  it("prefers the camelCase name when both are given", () => {
    const p = new Project();
    const kit = createToolkit({ root: p.root, maxLines: 10, max_lines: 99, hiddenEnv: ["A"] });
    expect(kit.context.limits.maxLines).toBe(10);
    expect(kit.context.hiddenEnv).toEqual(["A"]);
  });
});
