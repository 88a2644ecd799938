import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createToolkit } from "../../src/toolkit/index.js";
import type { FileOpResult } from "../../src/tools/file/index.js";
import { fileTool } from "../../src/tools/file/index.js";
import type { UndoResult } from "../../src/tools/undo/index.js";
import { Project, rejection } from "../helpers/project.js";

const call = (p: Project, args: Record<string, unknown>) =>
  p.splice().call("file", args) as Promise<FileOpResult>;
const exists = (p: Project, rel: string) => existsSync(join(p.root, rel));

describe("file: create, append, prepend", () => {
  it("creates a file with its folders and refuses an existing one", async () => {
    const p = new Project();
    const r = await call(p, { action: "create", path: "src/deep/new.ts", text: "export {};\n" });
    expect(r).toMatchObject({
      action: "file.create",
      path: "src/deep/new.ts",
      applied: true,
      changed: true,
    });
    expect(r.header).toMatch(/^¶src\/deep\/new\.ts#[0-9A-F]{4}$/);
    expect(p.text("src/deep/new.ts")).toBe("export {};\n");
    const e = await rejection(
      call(p, { action: "create", path: "src/deep/new.ts", text: "other\n" }),
    );
    expect(e.code).toBe("exists");
    expect(e.message).toContain("create never replaces a file");
    expect(p.text("src/deep/new.ts")).toBe("export {};\n");
  });

  it("appends and prepends lines in the file's own style", async () => {
    const p = new Project();
    p.write("crlf.txt", "\uFEFFb\r\nc");
    await call(p, { action: "append", path: "crlf.txt", text: "d\n" });
    const r = await call(p, { action: "prepend", path: "crlf.txt", text: "a" });
    expect(p.bytes("crlf.txt").toString()).toBe("\uFEFFa\r\nb\r\nc\r\nd\r\n");
    expect(r.diff).toContain("+a");
    const e = await rejection(call(p, { action: "append", path: "missing.txt", text: "x" }));
    expect(e.code).toBe("not_found");
    expect(e.message).toContain('use action "create"');
  });

  it("warns when appending to a file without a final line break", async () => {
    const p = new Project();
    p.write("n.txt", "last");
    const r = await call(p, { action: "append", path: "n.txt", text: "more\n" });
    expect(p.text("n.txt")).toBe("last\nmore\n");
    expect(r.warnings[0]).toContain("did not end with a line break");
  });
});

describe("file: rename and move", () => {
  it("renames into a new folder, keeps bytes and mode, and undo restores both ends", async () => {
    const p = new Project();
    p.write("bin/tool.sh", "#!/bin/sh\r\necho hi\r\n", 0o755);
    const r = await call(p, { action: "rename", path: "bin/tool.sh", to: "scripts/new/tool.sh" });
    expect(r).toMatchObject({
      action: "file.rename",
      path: "bin/tool.sh",
      dest_path: "scripts/new/tool.sh",
      changed: true,
    });
    expect(r.diff).toContain("rename from bin/tool.sh\nrename to scripts/new/tool.sh");
    expect(exists(p, "bin/tool.sh")).toBe(false);
    expect(p.bytes("scripts/new/tool.sh").toString()).toBe("#!/bin/sh\r\necho hi\r\n");
    expect(p.mode("scripts/new/tool.sh")).toBe(0o755);
    const undone = (await p.splice().undo({})) as UndoResult;
    expect(undone.undone).toBe(r.backup_session);
    expect(p.bytes("bin/tool.sh").toString()).toBe("#!/bin/sh\r\necho hi\r\n");
    expect(exists(p, "scripts/new/tool.sh")).toBe(false);
  });

  it("moves into an existing folder or a path ending with /, keeping the name", async () => {
    const p = new Project();
    p.write("a.txt", "a\n");
    p.write("b.txt", "b\n");
    mkdirSync(join(p.root, "dir"));
    await call(p, { action: "move", path: "a.txt", to: "dir" });
    await call(p, { action: "move", path: "b.txt", to: "other/" });
    expect(p.text("dir/a.txt")).toBe("a\n");
    expect(p.text("other/b.txt")).toBe("b\n");
  });

  it("refuses to overwrite unless asked; with overwrite the replaced file is backed up", async () => {
    const p = new Project();
    p.write("a.txt", "a\n");
    p.write("b.txt", "b\n");
    const e = await rejection(call(p, { action: "rename", path: "a.txt", to: "b.txt" }));
    expect(e.code).toBe("exists");
    expect(p.text("a.txt")).toBe("a\n");
    expect(p.text("b.txt")).toBe("b\n");
    const r = await call(p, { action: "rename", path: "a.txt", to: "b.txt", overwrite: true });
    expect(p.text("b.txt")).toBe("a\n");
    expect(r.warnings[0]).toContain("Replaced b.txt");
    await p.splice().undo({ backup_session: r.backup_session! });
    expect(p.text("a.txt")).toBe("a\n");
    expect(p.text("b.txt")).toBe("b\n");
  });

  it("checks both ends with the guard", async () => {
    const p = new Project();
    p.write("a.txt", "a\n");
    const out = join(tmpdir(), "splice-outside");
    symlinkSync(tmpdir(), join(p.root, "escape"));
    expect(
      (await rejection(call(p, { action: "rename", path: "a.txt", to: "../outside.txt" }))).code,
    ).toBe("guard");
    expect(
      (await rejection(call(p, { action: "rename", path: "a.txt", to: "escape/x.txt" }))).code,
    ).toBe("guard");
    expect((await rejection(call(p, { action: "rename", path: "a.txt", to: ".git/x" }))).code).toBe(
      "guard",
    );
    expect(existsSync(out)).toBe(false);
    expect(p.text("a.txt")).toBe("a\n");
  });

  it("refuses folders and binary files, pointing at the run tool", async () => {
    const p = new Project();
    mkdirSync(join(p.root, "dir"));
    p.write("img.bin", Buffer.from([0, 1, 2]));
    const dir = await rejection(call(p, { action: "rename", path: "dir", to: "dir2" }));
    expect(dir.code).toBe("is_directory");
    expect(dir.message).toContain("run tool");
    expect((await rejection(call(p, { action: "delete", path: "img.bin" }))).code).toBe("binary");
  });
});

describe("file: delete", () => {
  it("deletes with a backup; undo brings the file back byte for byte", async () => {
    const p = new Project();
    p.write("gone.txt", "keep\r\nme");
    const r = await call(p, { action: "delete", path: "gone.txt" });
    expect(r).toMatchObject({
      action: "file.delete",
      removed: 1,
      applied: true,
      header: "¶gone.txt (deleted)",
    });
    expect(r.diff).toContain("-keep");
    expect(exists(p, "gone.txt")).toBe(false);
    await p.splice().undo({});
    expect(p.bytes("gone.txt").toString()).toBe("keep\r\nme");
  });

  it("previews and checks without deleting", async () => {
    const p = new Project();
    p.write("x.txt", "x\n");
    const r = await call(p, { action: "delete", path: "x.txt", mode: "preview" });
    expect(r).toMatchObject({ applied: false, removed: 0 });
    expect(
      (await rejection(call(p, { action: "delete", path: "x.txt", mode: "check" }))).code,
    ).toBe("check_failed");
    expect(p.text("x.txt")).toBe("x\n");
  });

  it("refuses to delete or move a path that is a link, changing nothing; a folder link is fine", async () => {
    const p = new Project();
    p.write("shared/config.json", "{}\n");
    symlinkSync("shared/config.json", join(p.root, "config.json"));
    symlinkSync("shared", join(p.root, "via"));
    for (const args of [
      { action: "delete", path: "config.json" },
      { action: "rename", path: "config.json", to: "other.json" },
      { action: "move", path: "config.json", to: "shared/", mode: "preview" },
    ]) {
      const error = await rejection(call(p, args));
      expect(error.code).toBe("is_link");
      expect(error.message).toMatch(
        /config\.json is a symbolic link to shared\/config\.json, so it was not (deleted|moved).*use its own path, shared\/config\.json.*run tool/,
      );
    }
    const patch = "*** Begin Patch\n*** Delete File: config.json\n*** End Patch\n";
    expect((await rejection(p.splice().call("patch", { patch }))).code).toBe("is_link");
    expect(p.text("shared/config.json")).toBe("{}\n");
    expect(p.text("config.json")).toBe("{}\n"); // the link still leads there
    // Through a folder link the last name is a plain file: deleted, and undo restores it.
    await call(p, { action: "delete", path: "via/config.json" });
    expect(exists(p, "shared/config.json")).toBe(false);
  });

  it("refuses a delete whose folder became a link out of the root after the guard ran", async () => {
    const p = new Project();
    const outside = mkdtempSync(join(tmpdir(), "splice-out-"));
    p.write("dir/f.txt", "inside\n");
    writeFileSync(join(outside, "f.txt"), "outside\n");
    const kit = createToolkit({ root: p.root, history: { session: "test" } });
    const { workspace } = kit.context;
    const removeIf = workspace.removeIf.bind(workspace);
    // Another process swaps the folder between the guard's check and the unlink.
    workspace.removeIf = async (path, sha) => {
      renameSync(join(p.root, "dir"), join(p.root, "dir.orig"));
      symlinkSync(outside, join(p.root, "dir"));
      return removeIf(path, sha);
    };
    const error = await rejection(kit.call("file", { action: "delete", path: "dir/f.txt" }));
    expect(error).toMatchObject({ code: "guard" });
    expect(error.message).toMatch(/dir\/f\.txt was not deleted: its folder now resolves outside/);
    expect(readFileSync(join(outside, "f.txt"), "utf8")).toBe("outside\n");
  });

  it("has a manual with every action", () => {
    for (const action of ["create", "append", "prepend", "rename", "move", "delete"]) {
      expect(fileTool.manual).toContain(`"${action}"`);
    }
  });
});
