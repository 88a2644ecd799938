/**
 * A process that reads a large journal a path at a time (journal-prefix.ts)
 * must answer every query exactly as one that indexed it whole: random
 * histories of reads, writes, rollbacks and deletes over a few paths and
 * sessions, duplicated lines, and totals left at a random point by an
 * earlier process.
 */
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { History } from "../../src/history/history.js";
import { readTotals } from "../../src/history/journal-prefix.js";
import { ageBlobs, bytes, journalLines, tempDir } from "./helpers.js";

const PATHS = ["a.ts", "a.tsx", "src/b.ts", "dir with space/c.md", "é/ü.ts", 'q"uote.ts'];
const SESSIONS = ["cli", "mcp-1", "agent"];
const RUNS = Number(process.env.HISTORY_PROPERTY_RUNS ?? 60);

type Step =
  | { op: "read" | "write" | "rollback" | "delete"; path: number; session: number; v: number }
  | { op: "duplicate" }
  | { op: "checkpoint" };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      op: fc.constantFrom("read", "write", "rollback", "delete"),
      path: fc.nat(PATHS.length - 1),
      session: fc.nat(SESSIONS.length - 1),
      v: fc.nat(5),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ op: "duplicate" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "checkpoint" as const }) },
);

const tagOf = (v: number) => `T00${v}`;

/** Everything a History answers, path-scoped questions first (a global one indexes all). */
function answers(history: History, shas: string[]): unknown {
  const out: unknown[] = [];
  for (const path of PATHS) {
    out.push(
      history.lastSeen(path),
      history.lastRead(path),
      history.versions(path),
      history.latestKnown(path),
      [0, 1, 2, 3, 4, 5].map((v) => history.seenShasForTag(path, tagOf(v))),
      shas.map((sha) => [history.hasSeen(path, sha), history.versionBefore(path, sha)]),
    );
  }
  return out;
}

describe("a journal read a path at a time", () => {
  it("answers every query exactly as a journal indexed whole", () => {
    let fromPrefix = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), fc.nat(2), (steps, asked) => {
        const dir = join(tempDir(), ".splice");
        const writer = History.open({ dir, session: "writer", fsync: false });
        const current = new Map<number, number>(); // path -> version on "disk"
        const shas = new Set<string>();
        let checkpointed = false;
        steps.forEach((s, i) => {
          if (s.op === "duplicate") {
            const lines = existsSync(join(dir, "journal.jsonl")) ? journalLines(dir) : [];
            if (lines.length > 0) appendFileSync(join(dir, "journal.jsonl"), `${lines.at(-1)}\n`);
            return;
          }
          if (s.op === "checkpoint") {
            // An earlier process indexes the journal whole and leaves totals.
            History.open({ dir, session: "other", lazyAbove: 1 }).lastSeen("x");
            checkpointed = true;
            return;
          }
          const as = writer.forSession(SESSIONS[s.session]!);
          const path = PATHS[s.path]!;
          const version = { bytes: bytes(`${path} v${s.v}`), tag: tagOf(s.v) };
          const before = current.get(s.path);
          const old =
            before === undefined
              ? undefined
              : { bytes: bytes(`${path} v${before}`), tag: tagOf(before) };
          if (s.op === "read") {
            const ref = as.recordRead(path, version.bytes, version.tag, i % 3 ? undefined : [1, i]);
            shas.add(ref.sha);
          } else if (s.op === "delete") {
            if (!old) return;
            as.recordWrite({ kind: "delete", path, before: old, backup: `b${i}` });
            current.delete(s.path);
          } else {
            const out = as.recordWrite({
              kind: s.op,
              path,
              ...(old ? { before: old } : {}),
              after: version,
              backup: `b${i >> 1}`,
              note: `${s.op} "${path}"`,
            });
            if (out.after) shas.add(out.after.sha);
            current.set(s.path, s.v);
          }
        });
        const session = SESSIONS[asked]!;
        const whole = History.open({ dir, session });
        const lazy = History.open({ dir, session, lazyAbove: 1 });
        const totalsBefore = readTotals(dir);
        const shaList = [...shas];
        expect(answers(lazy, shaList)).toEqual(answers(whole, shaList));
        if (checkpointed && totalsBefore && totalsBefore.offset > 0) {
          // The answers came from the prefix: nothing indexed it all and saved new totals.
          expect(readTotals(dir)).toEqual(totalsBefore);
          fromPrefix++;
        }
        // A new event through the lazy view, then the whole-journal questions.
        lazy.recordRead(PATHS[0]!, bytes("fresh"), "FFFF");
        whole.lastSeen("x"); // catch up
        expect(answers(lazy, shaList)).toEqual(answers(whole, shaList));
        expect(lazy.backups()).toEqual(whole.backups());
        expect(lazy.stats().events).toBe(whole.stats().events);
        expect(readFileSync(join(dir, "journal.jsonl"), "utf8").length).toBeGreaterThan(0);
      }),
      { numRuns: RUNS },
    );
    expect(fromPrefix).toBeGreaterThan(RUNS / 10); // the property was not vacuous
  }, 120_000);

  it("ignores totals left for a journal that a compaction has replaced since", () => {
    const dir = join(tempDir(), ".splice");
    const history = History.open({ dir, session: "cli", fsync: false, maxEntries: 1000 });
    for (let i = 0; i < 30; i++) history.recordRead(PATHS[i % 3]!, bytes(`v${i}`), tagOf(i % 6));
    History.open({ dir, session: "other", lazyAbove: 1 }).lastSeen("x");
    const before = readTotals(dir)!;
    expect(before.count).toBe(30);
    ageBlobs(dir);
    History.open({ dir, session: "cli", maxEntries: 5 }).collect();
    const lazy = History.open({ dir, session: "cli", lazyAbove: 1 });
    const whole = History.open({ dir, session: "cli" });
    expect(answers(lazy, [])).toEqual(answers(whole, []));
    expect(lazy.stats().events).toBe(whole.stats().events);
    const after = readTotals(dir)!;
    expect([after.ino === before.ino && after.head === before.head, after.count]).toEqual([
      false,
      whole.stats().events,
    ]);
  });
});
