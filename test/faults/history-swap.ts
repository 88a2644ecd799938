/**
 * History's own folder swapped for a link, shared by the test (bounded) and
 * `npm run bench -- reliability` (long): `.splice`, `.splice/blobs` or
 * `.splice/locks` is exchanged (renameat2 RENAME_EXCHANGE when a C compiler
 * is there) with a link to an outside folder holding look-alike history
 * files, while splice reads, writes, edits and deletes in the project. An
 * escape is any file created, changed or removed in the outside folder.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSplice } from "../../src/splice.js";
import { startSwapper } from "./swapper.js";

export type HistoryTarget = ".splice" | ".splice/blobs" | ".splice/locks";

export interface HistoryTally {
  target: HistoryTarget;
  calls: number;
  /** Calls that failed (refused while the name was the link, or its error). */
  refused: number;
  swaps: number;
  atomic: boolean;
  /** Every difference between the outside folder now and as it was made. */
  outside: string[];
}

const OUTSIDE = "OUTSIDE history look-alike\n";

/** Names, bytes and times: a touch counts as a change too. */
function snapshot(dir: string, prefix = ""): Map<string, string> {
  const all = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const rel = prefix + name;
    const st = statSync(path);
    if (st.isDirectory()) {
      all.set(`${rel}/`, "");
      for (const [k, v] of snapshot(path, `${rel}/`)) all.set(k, v);
    } else {
      all.set(rel, `${st.mtimeMs} ${readFileSync(path, "utf8")}`);
    }
  }
  return all;
}

function diff(before: Map<string, string>, now: Map<string, string>): string[] {
  const changes: string[] = [];
  for (const [k, v] of now) if (before.get(k) !== v) changes.push(`changed or added ${k}`);
  for (const k of before.keys()) if (!now.has(k)) changes.push(`removed ${k}`);
  return changes;
}

/** An outside folder that looks like the swapped one: a journal, a fan-out folder, a lock folder. */
function lookAlike(dir: string): void {
  mkdirSync(join(dir, "blobs", "00"), { recursive: true });
  mkdirSync(join(dir, "locks"), { recursive: true });
  mkdirSync(join(dir, "00"), { recursive: true });
  for (const name of [
    "journal.jsonl",
    ".gitignore",
    "lock",
    "blobs/00/x",
    "00/x",
    "locks/x.lock",
  ]) {
    writeFileSync(join(dir, name), OUTSIDE);
  }
}

export async function raceHistory(
  target: HistoryTarget,
  { ms, calls: most = Number.POSITIVE_INFINITY }: { ms: number; calls?: number },
): Promise<HistoryTally> {
  const base = mkdtempSync(join(tmpdir(), "splice-hswap-"));
  try {
    const root = join(base, "root");
    const outside = join(base, "outside");
    mkdirSync(root);
    mkdirSync(outside);
    lookAlike(outside);
    writeFileSync(join(root, "a.txt"), "one\n");
    const splice = createSplice({ root, lsp: false, durable: true, history: { session: "race" } });
    // History and its folders exist before the race starts.
    await splice.call("write", { targets: [{ path: "a.txt", text: "zero\n" }] });
    mkdirSync(join(root, ".splice", "locks"), { recursive: true });
    const link = join(root, ".splice-link");
    symlinkSync(outside, link);
    const before = snapshot(outside);
    const swapper = await startSwapper(join(root, target), link);
    const tally: HistoryTally = {
      target,
      calls: 0,
      refused: 0,
      swaps: 0,
      atomic: swapper.atomic,
      outside: [],
    };
    const steps = [
      () => splice.call("read", { targets: [{ path: "a.txt" }] }),
      (i: number) => splice.call("write", { targets: [{ path: "a.txt", text: `v${i}\n` }] }),
      () => splice.call("read", { targets: [{ path: "a.txt" }] }),
      (i: number) => splice.call("write", { targets: [{ path: `n/${i}.txt`, text: "new\n" }] }),
      (i: number) => splice.call("file", { action: "delete", path: `n/${i - 1}.txt` }),
    ];
    const until = Date.now() + ms;
    try {
      for (let i = 0; Date.now() < until && tally.calls < most; i++) {
        tally.calls++;
        try {
          await steps[i % steps.length]!(i);
        } catch {
          tally.refused++;
        }
      }
    } finally {
      tally.swaps = await swapper.stop();
    }
    tally.outside = diff(before, snapshot(outside));
    return tally;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
