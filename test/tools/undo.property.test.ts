/**
 * Undo as a revert, against a model (issue #35). Random short sequences of
 * sessions (edits, creates, deletes, moves), writes outside splice and undos
 * (plain or by id, some redone at once) on tiny files whose lines are unique
 * tokens, so "what a change wrote" is a set of tokens. Invariants:
 * - a refused undo is a `conflict` (or nothing left to undo) and changes no byte;
 * - a clean undo takes back exactly the session's own tokens: the file ends as
 *   what it held minus what the session added plus what it removed, so no
 *   later change is lost; a file unchanged since gets its before bytes exactly;
 * - undo then redo with nothing in between gives back the same bytes;
 * - without outside writes or undos by id, undoing newest-first always
 *   succeeds and ends at the first version, byte for byte.
 * Each sequence costs real calls on a real folder (~10-25 ms), so it runs 300
 * by default; test/change/revert.property.test.ts runs 2,000 of the same
 * sequences through the revert engine in memory. SPLICE_PROPERTY_RUNS sets
 * both; `npm run bench -- undo` runs more of these.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { UndoResult } from "../../src/tools/undo/index.js";
import { Project } from "../helpers/project.js";
import {
  applyChange,
  lineSet,
  linesOf,
  type Op,
  opArbitrary,
  textOf,
} from "../helpers/undo-sequences.js";

const PATHS = ["a.txt", "b.txt", "c.txt"] as const;
const RUNS = Number(process.env.SPLICE_PROPERTY_RUNS) || 300;

const op = opArbitrary(PATHS.length, 4);

/** The root's files: path -> text (absent: no file). */
type Tree = Map<string, string>;

/** What a clean revert of (before -> after) into `now` must hold, as tokens. */
function expected(before?: string, after?: string, now?: string): Set<string> {
  const b = lineSet(before);
  const a = lineSet(after);
  const out = new Set([...lineSet(now)].filter((t) => !a.has(t) || b.has(t)));
  for (const t of b) if (!a.has(t)) out.add(t);
  return out;
}

async function sequence(ops: Op[]): Promise<void> {
  const p = new Project();
  let n = 0;
  const fresh = () => `t${n++}`;
  p.write("a.txt", textOf([fresh(), fresh(), fresh()]));
  p.write("b.txt", textOf([fresh(), fresh()]));
  const s = p.splice({ durable: "none", lsp: false });
  const tree = (): Tree => {
    const out: Tree = new Map();
    for (const path of PATHS) {
      if (existsSync(join(p.root, path))) out.set(path, readFileSync(join(p.root, path), "utf8"));
    }
    return out;
  };
  const first = tree();
  /** Each backup session's files: their text before and after it. */
  const sessions = new Map<string, Map<string, { before?: string; after?: string }>>();
  const ids: string[] = [];
  let outside = false;
  let byId = false;

  const record = (id: string | undefined, was: Tree, now: Tree) => {
    if (!id) return;
    const files = new Map<string, { before?: string; after?: string }>();
    for (const path of PATHS) {
      if (was.get(path) !== now.get(path)) {
        files.set(path, { before: was.get(path), after: now.get(path) });
      }
    }
    sessions.set(id, files);
    ids.unshift(id);
  };

  const undo = async (args: Record<string, unknown>) => {
    const was = tree();
    let result: UndoResult;
    try {
      result = (await s.undo(args)) as UndoResult;
    } catch (error) {
      const code = (error as { code?: string }).code;
      expect(["conflict", "not_found"]).toContain(code);
      expect(tree()).toEqual(was);
      return undefined;
    }
    const now = tree();
    const session = sessions.get(result.undone)!;
    for (const [path, { before, after }] of session) {
      if (!result.files.some((f) => f.path === path)) continue; // undone before, alone
      const got = now.get(path);
      if (was.get(path) === after) expect(got).toBe(before);
      else expect(lineSet(got)).toEqual(expected(before, after, was.get(path)));
    }
    // Nothing else moved.
    for (const path of PATHS) {
      if (!session.has(path)) expect(now.get(path)).toBe(was.get(path));
    }
    record(result.backup_session, was, now);
    return { result, was };
  };

  for (const o of ops) {
    const was = tree();
    const path = PATHS["file" in o ? o.file : 0]!;
    if (o.k === "edit") {
      const text = textOf(applyChange(linesOf(was.get(path) ?? ""), o.change, fresh));
      const { results } = await s.write({ targets: [{ path, text }] });
      record(results[0]!.backup_session, was, tree());
    } else if (o.k === "rm" && was.has(path)) {
      const r = (await s.call("file", { action: "delete", path })) as { backup_session?: string };
      record(r.backup_session, was, tree());
    } else if (o.k === "move" && was.has(path) && !was.has(PATHS[o.to]!)) {
      const to = PATHS[o.to]!;
      const r = (await s.call("file", { action: "rename", path, to })) as {
        backup_session?: string;
      };
      record(r.backup_session, was, tree());
    } else if (o.k === "outside") {
      outside = true;
      const lines = applyChange(linesOf(was.get(path) ?? ""), o.change, fresh);
      if (lines.length === 0) rmSync(join(p.root, path), { force: true });
      else writeFileSync(join(p.root, path), textOf(lines));
    } else if (o.k === "undo") {
      if (o.pick !== null) byId = true;
      const id = o.pick === null ? undefined : ids[o.pick % Math.max(1, ids.length)];
      const done = await undo(id ? { backup_session: id } : {});
      if (done && o.redo && done.result.backup_session) {
        const redo = await undo({ backup_session: done.result.backup_session });
        expect(redo).toBeDefined();
        expect(tree()).toEqual(done.was);
      }
    }
  }
  if (!outside && !byId) {
    // Newest first, every undo is clean and the root ends as it began.
    for (;;) {
      try {
        await s.undo({});
      } catch (error) {
        expect((error as { code?: string }).code).toBe("not_found");
        break;
      }
    }
    expect(tree()).toEqual(first);
  }
  rmSync(p.root, { recursive: true, force: true });
}

describe("undo as a revert (property)", () => {
  it(`keeps every later change, redoes exactly and walks back to the start (${RUNS} runs)`, async () => {
    await fc.assert(fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 7 }), sequence), {
      numRuns: RUNS,
    });
  }, 600_000);
});
