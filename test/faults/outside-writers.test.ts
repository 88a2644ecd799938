/**
 * Programs other than splice writing a file while splice edits it: every
 * outside write either survives on disk or is kept in history and named in
 * the edit's result. Never silently lost.
 */
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LocalWorkspace, type SpliceEvent } from "../../src/index.js";
import { identify, sha256 } from "../../src/util/hash.js";
import { Project } from "../helpers/project.js";
import { raceOutsideWriter } from "./outside-race.js";

describe("compare-and-swap at the rename", () => {
  it("refuses when another program wrote the file while history was recording", async () => {
    const p = new Project();
    const path = p.write("a.txt", "old\n");
    const workspace = new LocalWorkspace({ confineTo: p.root, durable: false });
    const written = await workspace.writeIf(
      path,
      Buffer.from("new\n"),
      sha256(Buffer.from("old\n")),
      {
        beforeReplace: () => writeFileSync(path, "outside\n"),
      },
    );
    expect(written).toBe(false);
    expect(readFileSync(path, "utf8")).toBe("outside\n");
  });

  it("refuses a create when another program made the file meanwhile", async () => {
    const p = new Project();
    const path = join(p.root, "new.txt");
    const workspace = new LocalWorkspace({ confineTo: p.root, durable: false });
    const written = await workspace.writeIf(path, Buffer.from("mine\n"), null, {
      beforeReplace: () => writeFileSync(path, "theirs\n"),
    });
    expect(written).toBe(false);
    expect(readFileSync(path, "utf8")).toBe("theirs\n");
  });

  it("loses none of 300 outside writes timed into running edits", async () => {
    const tally = await raceOutsideWriter({ rounds: 300, maxDelayUs: 3000 });
    expect(tally.lost).toEqual([]);
    expect(tally.survived + tally.recovered + tally.recoveredLate).toBe(300);
    // The writes really raced the edits: some edits were refused, some landed first.
    expect(tally.refused).toBeGreaterThan(0);
    expect(tally.landedFirst).toBeGreaterThan(0);
  }, 60_000);
});

describe("an outside write into the replaced file after the write's last look", () => {
  /** A program that opened the file before the rename (an editor's in-place save) writes once the write has returned. */
  class LateWriter extends LocalWorkspace {
    late = "";
    override async writeIf(...args: Parameters<LocalWorkspace["writeIf"]>): Promise<boolean> {
      const [path, bytes, expected, options = {}] = args;
      let fd: number | undefined;
      const done = await super.writeIf(path, bytes, expected, {
        ...options,
        beforeReplace: async () => {
          await options.beforeReplace?.();
          fd = openSync(path, "r+");
        },
      });
      writeSync(fd!, this.late, 0);
      closeSync(fd!);
      return done;
    }
  }

  it("is handed to the caller once it settles, after the write returned", async () => {
    const p = new Project();
    const path = p.write("a.txt", "old\n");
    const workspace = new LateWriter({ confineTo: p.root, durable: false });
    workspace.late = "late\n";
    const late = new Promise<string>((resolve) => {
      void workspace.writeIf(path, Buffer.from("new\n"), sha256(Buffer.from("old\n")), {
        onDisplacedLate: (bytes) => resolve(Buffer.from(bytes).toString()),
      });
    });
    expect(await late).toBe("late\n");
    expect(readFileSync(path, "utf8")).toBe("new\n");
  });

  it("is kept in history and told as a change outside splice, restorable by its tag", async () => {
    const p = new Project();
    p.write("a.txt", "keep me\n");
    const workspace = new LateWriter({ confineTo: p.root });
    workspace.late = "theirs\n";
    const splice = p.splice({ lsp: false, workspace });
    const told = new Promise<SpliceEvent>((resolve) =>
      splice.events.on((e) => e.type === "outside_changes" && resolve(e)),
    );
    const result = (await splice.call("edit", {
      targets: [{ path: "a.txt", edits: [{ old_text: "keep me", new_text: "kept" }] }],
    })) as { results: { warnings: string[] }[] };
    expect(result.results[0]!.warnings).toEqual([]);
    expect(await told).toMatchObject({
      changes: [{ path: "a.txt", kind: "changed" }],
      recorded: 1,
    });
    // "theirs\n" overwrote the start of "keep me\n" in place: the old file now holds both.
    const theirs = Buffer.from("theirs\n\n");
    await splice.call("rollback", { path: "a.txt", hash: identify(theirs).tag });
    expect(p.text("a.txt")).toBe("theirs\n\n");
  });
});

describe("an outside write the rename replaced", () => {
  it("is kept in history and named in the edit's result, with the rollback that restores it", async () => {
    const p = new Project();
    p.write("a.txt", "keep me\n");
    const theirs = Buffer.from("keep me\ntheirs\n");
    // The disk reports what the rename took off it: another program's bytes.
    class Displacing extends LocalWorkspace {
      override async writeIf(...args: Parameters<LocalWorkspace["writeIf"]>): Promise<boolean> {
        const [path, bytes, expected, options = {}] = args;
        const done = await super.writeIf(path, bytes, expected, options);
        await options.onDisplaced?.(theirs);
        return done;
      }
    }
    const splice = p.splice({ lsp: false, workspace: new Displacing({ confineTo: p.root }) });
    const result = (await splice.call("edit", {
      targets: [{ path: "a.txt", edits: [{ old_text: "keep me", new_text: "kept" }] }],
    })) as { results: { warnings: string[] }[] };
    const { tag } = identify(theirs);
    expect(result.results[0]!.warnings.join("\n")).toContain(
      `Another program wrote a.txt while this write landed, and this write replaced it; that version is kept in history as tag ${tag}: restore it with rollback {"path": "a.txt", "hash": "${tag}"}`,
    );
    await splice.call("rollback", { path: "a.txt", hash: tag });
    expect(p.text("a.txt")).toBe("keep me\ntheirs\n");
  });
});
