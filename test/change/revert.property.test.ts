/**
 * The revert engine (change/revert.ts) over random sequences, in memory:
 * sessions (edits, creates, deletes, moves) and outside writes change a few
 * tiny files whose lines are unique tokens; undos revert a session's files
 * all together or refuse, and redos revert the undo. The same invariants as
 * test/tools/undo.property.test.ts, which runs fewer sequences through the
 * real toolkit on real folders; this one runs SPLICE_PROPERTY_RUNS (default
 * 2,000) sequences in about a second.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { restorable } from "../../src/change/load.js";
import { planRevert } from "../../src/change/revert.js";
import { renderDocument } from "../../src/text/document.js";
import { sha256 } from "../../src/util/hash.js";
import {
  applyChange,
  lineSet,
  linesOf,
  type Op,
  opArbitrary,
  textOf,
} from "../helpers/undo-sequences.js";

const PATHS = ["a", "b", "c"] as const;
const RUNS = Number(process.env.SPLICE_PROPERTY_RUNS) || 2_000;
const encoder = new TextEncoder();

const op = opArbitrary(PATHS.length, 6);

type Tree = Map<string, string>;
type Net = Map<string, { before?: string; after?: string }>;
interface Session {
  id: number;
  files: Net;
  /** The session this one undid. */
  undoes?: number;
}

const sha = (text?: string) => (text === undefined ? null : sha256(text));

/** One file's revert as undo plans it; undefined: a conflict. */
function revertFile(before?: string, after?: string, now?: string): { text?: string } | undefined {
  const content = before === undefined ? undefined : restorable(encoder.encode(before));
  const current =
    now === undefined
      ? undefined
      : {
          bytes: encoder.encode(now),
          sha: sha256(now),
          tag: "",
          mode: 0,
          doc: restorable(encoder.encode(now)) as never,
        };
  const plan = planRevert({
    before: sha(before),
    after: sha(after),
    beforeContent: content,
    afterBytes: () => (after === undefined ? undefined : encoder.encode(after)),
    current,
    decode: restorable,
  });
  if (plan.kind === "conflict") return undefined;
  if (plan.kind === "exact") return before === undefined ? {} : { text: before };
  if (plan.kind === "nothing") return now === undefined ? {} : { text: now };
  return { text: renderDocument(plan.doc) };
}

function run(ops: Op[]): void {
  let n = 0;
  const fresh = () => `t${n++}`;
  const tree: Tree = new Map([
    ["a", textOf([fresh(), fresh(), fresh()])],
    ["b", textOf([fresh(), fresh()])],
  ]);
  const first = new Map(tree);
  const sessions: Session[] = []; // newest first
  const undone = new Set<number>();
  let outside = false;
  let byId = false;

  const commit = (was: Tree, undoes?: number): Session | undefined => {
    const files: Net = new Map();
    for (const p of PATHS) {
      if (was.get(p) !== tree.get(p)) files.set(p, { before: was.get(p), after: tree.get(p) });
    }
    if (files.size === 0) return undefined;
    const s: Session = { id: sessions.length, files, ...(undoes !== undefined ? { undoes } : {}) };
    sessions.unshift(s);
    return s;
  };

  /** Reverts `s` whole, or refuses; checks what it kept. */
  const undo = (s: Session): Session | undefined => {
    const was = new Map(tree);
    const out = new Map<string, { text?: string }>();
    for (const [p, { before, after }] of s.files) {
      const r = revertFile(before, after, tree.get(p));
      if (!r) return undefined; // refused whole: tree untouched
      out.set(p, r);
    }
    for (const [p, r] of out) {
      if (r.text === undefined) tree.delete(p);
      else tree.set(p, r.text);
      const { before, after } = s.files.get(p)!;
      const now = was.get(p);
      if (now === after) expect(r.text).toBe(before);
      else {
        // What it held, minus the session's own tokens, plus those it removed.
        const a = lineSet(after);
        const b = lineSet(before);
        const want = new Set([...lineSet(now)].filter((t) => !a.has(t) || b.has(t)));
        for (const t of b) if (!a.has(t)) want.add(t);
        expect(lineSet(r.text)).toEqual(want);
      }
    }
    undone.add(s.id);
    if (s.undoes !== undefined) undone.delete(s.undoes);
    return commit(was, s.id);
  };

  const newest = () => sessions.find((s) => s.undoes === undefined && !undone.has(s.id));

  for (const o of ops) {
    const was = new Map(tree);
    const path = PATHS["file" in o ? o.file : 0]!;
    if (o.k === "edit") {
      tree.set(path, textOf(applyChange(linesOf(tree.get(path) ?? ""), o.change, fresh)));
      commit(was);
    } else if (o.k === "rm" && tree.has(path)) {
      tree.delete(path);
      commit(was);
    } else if (o.k === "move" && tree.has(path) && !tree.has(PATHS[o.to]!)) {
      tree.set(PATHS[o.to]!, tree.get(path)!);
      tree.delete(path);
      commit(was);
    } else if (o.k === "outside") {
      outside = true;
      const lines = applyChange(linesOf(tree.get(path) ?? ""), o.change, fresh);
      if (lines.length === 0) tree.delete(path);
      else tree.set(path, textOf(lines));
    } else if (o.k === "undo") {
      if (o.pick !== null) byId = true;
      const open = sessions.filter((s) => !undone.has(s.id));
      const target = o.pick === null ? newest() : open[o.pick % Math.max(1, open.length)];
      if (!target) continue;
      const u = undo(target);
      if (!u) expect(tree).toEqual(was);
      else if (o.redo) {
        expect(undo(u)).toBeDefined();
        expect(tree).toEqual(was);
      }
    }
  }
  if (!outside && !byId) {
    for (let s = newest(); s; s = newest()) expect(undo(s)).toBeDefined();
    expect(tree).toEqual(first);
  }
}

describe("revert engine (property)", () => {
  it(`keeps every later change, redoes exactly and walks back to the start (${RUNS} runs)`, () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 10 }), (ops) => run(ops)),
      { numRuns: RUNS },
    );
  });
});
