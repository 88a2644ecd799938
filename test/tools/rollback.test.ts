import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HistoryResult } from "../../src/tools/history/index.js";
import { numbered, Project, rejection } from "../helpers/project.js";

describe("rollback and history", () => {
  it("goes back to the version before the current one, and can undo itself", async () => {
    const p = new Project();
    p.write("f.txt", "one\n");
    const s = p.splice();
    const first = (await s.read({ targets: [{ path: "f.txt" }] })).results[0]!.file_hash!;
    const second = (await s.write({ targets: [{ path: "f.txt", text: "two\n" }] })).results[0]!
      .file_hash;
    const back = await s.rollback({ path: "f.txt", hash: "" });
    expect(p.text("f.txt")).toBe("one\n");
    expect(back).toMatchObject({
      file_hash: first,
      replaced_hash: second,
      changed: true,
      warnings: [],
    });
    await s.rollback({ path: "f.txt", hash: back.replaced_hash! });
    expect(p.text("f.txt")).toBe("two\n");
  });

  it("restores a version by tag, byte for byte with BOM and CRLF", async () => {
    const p = new Project();
    const original = "\uFEFFa\r\nb\r\nc";
    p.write("w.txt", original);
    const s = p.splice();
    const tag = (await s.read({ targets: [{ path: "w.txt" }] })).results[0]!.file_hash!;
    await s.edit({ targets: [{ path: "w.txt", file_hash: tag, ops: "delete 2" }] });
    await s.write({ targets: [{ path: "w.txt", text: "other\n" }] });
    await s.rollback({ path: "w.txt", hash: tag });
    expect(p.bytes("w.txt").toString()).toBe(original);
  });

  it("recreates a deleted file", async () => {
    const p = new Project();
    p.write("gone.txt", "keep me\n");
    const s = p.splice();
    await s.read({ targets: [{ path: "gone.txt" }] });
    rmSync(join(p.root, "gone.txt"));
    const result = await s.rollback({ path: "gone.txt", hash: "" });
    expect(p.text("gone.txt")).toBe("keep me\n");
    expect(result.replaced_hash).toBeNull();
    expect(result.warnings).toContain("gone.txt did not exist; the rollback recreates it.");
  });

  it("warns when the file was changed outside splice, and backs that content up first", async () => {
    const p = new Project();
    p.write("f.txt", "v1\n");
    const s = p.splice();
    await s.read({ targets: [{ path: "f.txt" }] });
    await s.write({ targets: [{ path: "f.txt", text: "v2\n" }] });
    writeFileSync(join(p.root, "f.txt"), "outside\n");
    const result = await s.rollback({ path: "f.txt", hash: "" });
    expect(result.warnings[0]).toContain("modified outside splice");
    expect(p.text("f.txt")).toBe("v2\n");
    await s.rollback({ path: "f.txt", hash: result.replaced_hash! });
    expect(p.text("f.txt")).toBe("outside\n");
  });

  it("refuses an unknown tag and says how to list versions", async () => {
    const p = new Project();
    p.write("f.txt", numbered(2));
    const error = await rejection(p.splice().rollback({ path: "f.txt", hash: "FFFF" }));
    expect(error.code).toBe("not_found");
    expect(error.message).toContain('Call history with {"path": "f.txt"}');
  });

  it("lists versions newest first and marks the current one", async () => {
    const p = new Project();
    p.write("f.txt", "v1\n");
    const s = p.splice();
    await s.read({ targets: [{ path: "f.txt" }] });
    await s.write({ targets: [{ path: "f.txt", text: "v2\n" }] });
    const h = (await s.history({ path: "f.txt" })) as HistoryResult;
    expect(h.versions.map((v) => v.current)).toEqual([true, false]);
    expect(h.current_hash).toBe(h.versions[0]!.file_hash);
  });

  it("names what wrote each version: the tool, the session and its program, and the backup session that undoes it", async () => {
    const p = new Project();
    p.write("f.txt", "v1\n");
    const s = p.splice({ history: { session: "mcp-one" } });
    s.context.history.nameClient("demo-client");
    await s.read({ targets: [{ path: "f.txt" }] });
    const wrote = await s.edit({ path: "f.txt", edits: [{ old_text: "v1", new_text: "v2" }] });
    await p.splice({ history: { session: "other" } }).rollback({ path: "f.txt", hash: "" });
    const [now, edited, original] = ((await s.history({ path: "f.txt" })) as HistoryResult)
      .versions;
    // The file is back at v1: the rollback made it most recently, after git or an editor first did.
    expect(now).toMatchObject({ current: true, made_by: { tool: "rollback", session: "other" } });
    expect(edited!.made_by).toEqual({
      at: expect.any(String),
      tool: "edit",
      session: "mcp-one",
      client: "demo-client",
      backup_session: wrote.results[0]!.backup_session,
    });
    expect(original).toBeUndefined();
  });

  it("without a path lists the calls that can be undone, as undo's list does, and writes nothing", async () => {
    const p = new Project();
    p.write("f.txt", "v1\n");
    const s = p.splice({ history: { session: "mcp-one" } });
    await s.read({ targets: [{ path: "f.txt" }] });
    await s.edit({ path: "f.txt", edits: [{ old_text: "v1", new_text: "v2" }] });
    await s.write({ targets: [{ path: "g.txt", text: "g\n" }] });
    const before = [p.text("f.txt"), p.text("g.txt"), s.backups().length];
    const listed = await s.history({});
    expect(listed).toEqual(await s.undo({ list: true }));
    expect("sessions" in listed && listed.sessions.map((x) => x.files[0]!.path)).toEqual([
      "g.txt",
      "f.txt",
    ]);
    const page = await s.history({
      before: "sessions" in listed ? listed.sessions[0]!.backup_session : "",
    });
    expect("sessions" in page && page.sessions.map((x) => x.files[0]!.path)).toEqual(["f.txt"]);
    expect([p.text("f.txt"), p.text("g.txt"), s.backups().length]).toEqual(before);
    // Read-only: a host that asks before anything that may write lists without asking.
    expect(s.tools.find((t) => t.name === "history")?.annotations?.readOnlyHint).toBe(true);
  });

  it("lists versions of a file that is now binary or too large, none of them current", async () => {
    const p = new Project();
    p.write("f.txt", "v1\n");
    const s = p.splice({ max_file_bytes: 1000 });
    await s.write({ targets: [{ path: "f.txt", text: "v2\n" }] });
    for (const now of [Buffer.from([0x76, 0, 0x33]), "x".repeat(5000)]) {
      p.write("f.txt", now);
      const h = (await s.history({ path: "f.txt" })) as HistoryResult;
      expect(h.versions.map((v) => v.current)).toEqual([false, false]);
      expect(h.current_hash).toMatch(/^[0-9A-F]{4}$/);
    }
  });

  it("survives a new process: history is on disk", async () => {
    const p = new Project();
    p.write("f.txt", "v1\n");
    await p.splice().read({ targets: [{ path: "f.txt" }] });
    await p.splice().write({ targets: [{ path: "f.txt", text: "v2\n" }] });
    await p.splice({ history: { session: "fresh" } }).rollback({ path: "f.txt", hash: "" });
    expect(p.text("f.txt")).toBe("v1\n");
  });

  it("restores over content that became binary or too large, backing it up first", async () => {
    const p = new Project();
    p.write("f.txt", "original\n");
    const s = p.splice({ max_file_bytes: 1000 });
    await s.write({ targets: [{ path: "f.txt", text: "edited\n" }] });
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]);
    p.write("f.txt", png);
    const back = await s.rollback({ path: "f.txt", hash: "" });
    expect(p.text("f.txt")).toBe("edited\n");
    expect(back.diff).toContain("not shown: it contains a NUL byte");
    await s.rollback({ path: "f.txt", hash: back.replaced_hash! });
    expect(p.bytes("f.txt")).toEqual(png);
    p.write("f.txt", "x".repeat(5000));
    const large = await s.rollback({ path: "f.txt", hash: "" });
    expect(large.diff).toContain("over the 1000 bytes limit");
    expect(p.bytes("f.txt")).toEqual(png);
    await s.rollback({ path: "f.txt", hash: large.replaced_hash! });
    expect(p.text("f.txt")).toBe("x".repeat(5000));
  });

  it("warns when a tag names two versions, and says how to reach the older", async () => {
    const p = new Project();
    // Different content, same 4-hex tag (CA06): a collision found by search.
    const older = "original precious content\n";
    const newer = "other 105935\n";
    p.write("a.txt", older);
    const s = p.splice();
    expect((await s.read({ targets: [{ path: "a.txt" }] })).results[0]!.file_hash).toBe("CA06");
    const replaced = await s.write({ targets: [{ path: "a.txt", text: newer }] });
    expect(replaced.results[0]!.file_hash).toBe("CA06");
    await s.write({ targets: [{ path: "a.txt", text: "third\n" }] });
    const back = await s.rollback({ path: "a.txt", hash: "CA06" });
    expect(p.text("a.txt")).toBe(newer);
    const session = replaced.results[0]!.backup_session!;
    expect(back.warnings).toHaveLength(1);
    expect(back.warnings[0]).toContain("Tag CA06 also names an older, different version of a.txt");
    expect(back.warnings[0]).toContain(
      `call undo with {"backup_session": "${session}", "path": "a.txt"}`,
    );
    await s.undo({ backup_session: session, path: "a.txt" });
    expect(p.text("a.txt")).toBe(older);
  });
});
