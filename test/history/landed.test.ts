import { describe, expect, it } from "vitest";
import { History } from "../../src/history/history.js";
import { journalLines, tempDir } from "./helpers.js";

const bytes = (s: string) => new TextEncoder().encode(s);

function pendingWrite(history: History, from: string, to: string, backup: string): string {
  return history.recordWrite({
    pending: true,
    kind: "write",
    path: "f.txt",
    before: { bytes: bytes(from), tag: "AAAA" },
    after: { bytes: bytes(to), tag: "BBBB" },
    backup,
  }).id;
}

describe("completion marks", () => {
  it("a pending change is a change once it is marked landed, or a later event names what it wrote", () => {
    const history = History.open({ dir: tempDir(), session: "s" });
    history.landed(pendingWrite(history, "v1", "v2", "b1"));
    pendingWrite(history, "v2", "v3", "b2"); // killed before its rename: no mark
    expect(history.backups().map((b) => b.id)).toEqual(["b1"]);
    // Another process saw v3 on disk: it died after the rename, before its mark.
    const other = History.open({ dir: history.dir, session: "t" });
    other.recordRead("f.txt", bytes("v3"), "BBBB");
    expect(history.backups().map((b) => b.id)).toEqual(["b2", "b1"]);
  });

  it("a compaction folds the marks into their events and keeps a change that never landed none", () => {
    const dir = tempDir();
    const history = History.open({ dir, session: "s", maxEntries: 3 });
    history.landed(pendingWrite(history, "v1", "v2", "b1"));
    pendingWrite(history, "v2", "v3", "b2");
    history.landed(pendingWrite(history, "v2", "v4", "b3"));
    history.collect();
    expect(journalLines(dir).some((l) => l.startsWith('{"landed"'))).toBe(false);
    const fresh = History.open({ dir, session: "s" });
    expect(fresh.backups().map((b) => b.id)).toEqual(["b3", "b1"]);
  });
});
