/**
 * A command and a splice edit racing on one file: whichever lands last, every
 * version stays in history, the run's result says what the command did, and
 * undo steps back through them one at a time.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { RunResult } from "../../src/index.js";
import type { UndoResult } from "../../src/tools/undo/index.js";
import { Project, rejection } from "../helpers/project.js";

/** Waits until `rel` exists (the command's signal that it reached a point). */
async function until(p: Project, rel: string): Promise<void> {
  for (let i = 0; i < 400 && !existsSync(join(p.root, rel)); i++) await sleep(10);
  expect(existsSync(join(p.root, rel))).toBe(true);
}

describe.skipIf(process.env.SPLICE_TEST_REMOTE)("a command racing an edit", () => {
  it("the command writes last: undoing it gives back the edit, undoing the edit the original", async () => {
    const p = new Project();
    p.write("f.txt", "original\n");
    const agent = p.splice();
    const person = p.splice({ history: { session: "other" } });
    // The command waits for the edit to land, then overwrites the file.
    const run = agent.run({
      command:
        "touch started; while [ ! -e edited ]; do sleep 0.02; done; printf 'by command\\n' > f.txt",
    }) as Promise<RunResult>;
    await until(p, "started");
    const edit = await person.edit({
      targets: [{ path: "f.txt", edits: [{ old_text: "original", new_text: "edited" }] }],
    });
    writeFileSync(join(p.root, "edited"), "");
    const ran = await run;
    expect(p.text("f.txt")).toBe("by command\n");
    const f = ran.changed_files!.find((c) => c.path === "f.txt");
    expect(f).toEqual({ path: "f.txt", kind: "changed", added: 1, removed: 1 });
    expect(ran.not_restorable).toBeUndefined();

    const back = (await agent.undo({ backup_session: ran.backup_session! })) as UndoResult;
    expect(back.files.find((x) => x.path === "f.txt")!.warnings).toEqual([]);
    expect(p.text("f.txt")).toBe("edited\n");
    await person.undo({ backup_session: edit.results[0]!.backup_session! });
    expect(p.text("f.txt")).toBe("original\n");
  });

  it("the edit lands last: the command's own change is kept, and undoing it warns of the edit", async () => {
    const p = new Project();
    p.write("f.txt", "original\n");
    const agent = p.splice();
    const person = p.splice({ history: { session: "other" } });
    // The command rewrites the file first, then waits while the edit changes it again.
    const run = agent.run({
      command:
        "printf 'by command\\n' > f.txt; touch started; while [ ! -e edited ]; do sleep 0.02; done",
    }) as Promise<RunResult>;
    await until(p, "started");
    await person.edit({
      targets: [
        { path: "f.txt", edits: [{ old_text: "by command", new_text: "by command, then edited" }] },
      ],
    });
    writeFileSync(join(p.root, "edited"), "");
    const ran = await run;
    expect(p.text("f.txt")).toBe("by command, then edited\n");
    expect(ran.changed_files!.find((c) => c.path === "f.txt")).toEqual({
      path: "f.txt",
      kind: "changed",
      added: 1,
      removed: 1,
    });
    expect(ran.not_restorable).toBeUndefined();

    // The edit overlaps the command's line: undoing the command is refused, naming the edit...
    const refused = await rejection(agent.undo({ backup_session: ran.backup_session! }));
    expect(refused.code).toBe("conflict");
    expect(refused.message).toMatch(/f\.txt: line 1 changed since — by session \S+ \(edit\)/);
    expect(p.text("f.txt")).toBe("by command, then edited\n");
    // ...and force puts the original back; the edit made after it is backed up and named.
    const back = (await agent.undo({
      backup_session: ran.backup_session!,
      force: true,
    })) as UndoResult;
    const undone = back.files.find((x) => x.path === "f.txt")!;
    expect(undone.warnings.join(" ")).toContain("changed after session");
    expect(p.text("f.txt")).toBe("original\n");
    // That undo is a session of its own: undoing it brings the edited version back.
    await agent.undo({ backup_session: back.backup_session! });
    expect(p.text("f.txt")).toBe("by command, then edited\n");
  });
});
