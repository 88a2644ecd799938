/**
 * The symlink-swap race, shared by the test (bounded) and
 * `npm run bench -- reliability-confine` (long): a scene with a folder `d`
 * inside the root and a link `link` to an outside folder holding the same
 * names with OUTSIDE bytes, and drivers that call splice under `d` while a
 * swapper exchanges the two. An escape is any outside byte or name seen in a
 * result, or any change to the outside folder.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSplice } from "../../src/splice.js";
import type { Workspace } from "../../src/workspace/workspace.js";

export interface SwapScene {
  root: string;
  /** The real folder inside the root that is swapped. */
  folder: string;
  /** The symlink inside the root that leads to `outside`. */
  link: string;
  outside: string;
  /** Every difference between the outside folder now and as it was made. */
  outsideChanges(): string[];
}

const OUTSIDE = "needle OUTSIDE secret\n";

function snapshot(dir: string, prefix = ""): Map<string, string> {
  const all = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const rel = prefix + name;
    if (statSync(path).isDirectory()) {
      all.set(`${rel}/`, "");
      for (const [k, v] of snapshot(path, `${rel}/`)) all.set(k, v);
    } else {
      all.set(rel, readFileSync(path, "utf8"));
    }
  }
  return all;
}

export function swapScene(): SwapScene {
  const base = mkdtempSync(join(tmpdir(), "splice-swap-"));
  const root = join(base, "root");
  const outside = join(base, "outside");
  const folder = join(root, "d");
  mkdirSync(folder, { recursive: true });
  mkdirSync(join(outside, "sub"), { recursive: true });
  for (const name of ["f.txt", "victim.txt", "edit.txt"]) {
    writeFileSync(join(folder, name), `needle inside ${name}\n`);
    writeFileSync(join(outside, name), OUTSIDE);
  }
  writeFileSync(join(outside, "outside-only.txt"), OUTSIDE);
  writeFileSync(join(outside, "sub", "x.txt"), OUTSIDE);
  const link = join(root, "link");
  symlinkSync(outside, link);
  const before = snapshot(outside);
  return {
    root,
    folder,
    link,
    outside,
    outsideChanges() {
      const now = snapshot(outside);
      const changes: string[] = [];
      for (const [k, v] of now) if (before.get(k) !== v) changes.push(`changed or added ${k}`);
      for (const k of before.keys()) if (!now.has(k)) changes.push(`removed ${k}`);
      return changes;
    },
  };
}

export interface RaceTally {
  attempts: number;
  /** Calls that completed. */
  done: number;
  /** Calls refused or failed (the race made the path a link or made it vanish). */
  refused: number;
  /** What leaked: "read", "stat", … with the attempt number. */
  escapes: string[];
  /** Refusals by error code or kind. */
  reasons: Record<string, number>;
  ms: number;
}

function tally(): RaceTally {
  return { attempts: 0, done: 0, refused: 0, escapes: [], reasons: {}, ms: 0 };
}

function refusal(t: RaceTally, error: unknown): void {
  t.refused++;
  const e = error as { kind?: string; code?: string };
  const why = e.kind ?? e.code ?? String(error);
  t.reasons[why] = (t.reasons[why] ?? 0) + 1;
}

/** Where an outside byte or name shows in `value`, with some context; undefined when none does. */
function leaked(value: unknown): string | undefined {
  const text = JSON.stringify(value) ?? "";
  const at = text.search(/OUTSIDE|outside-only/);
  return at === -1 ? undefined : text.slice(Math.max(0, at - 60), at + 40);
}

/**
 * Makes the calls in turn, one an attempt, until `attempts` or `ms` run out,
 * tallying what each answered and what leaked (from refusals too, with `errorsToo`).
 */
async function raceCalls(
  t: RaceTally,
  calls: readonly ((i: number) => Promise<unknown>)[],
  names: readonly string[],
  { attempts, ms, errorsToo }: { attempts: number; ms: number; errorsToo: boolean },
): Promise<void> {
  const start = performance.now();
  while (t.attempts < attempts && performance.now() - start < ms) {
    const i = t.attempts++;
    const k = i % calls.length;
    try {
      const value = await calls[k]!(i);
      t.done++;
      const leak = leaked(value);
      if (leak) t.escapes.push(`${names[k]} #${i}: ${leak}`);
    } catch (error) {
      const leak = errorsToo ? leaked((error as Error).message) : undefined;
      if (leak) t.escapes.push(`${names[k]} #${i} (error): ${leak}`);
      refusal(t, error);
    }
  }
  t.ms = performance.now() - start;
}

/** Workspace calls under the swapped folder, one kind per attempt in turn. */
export async function raceWorkspace(
  scene: SwapScene,
  workspace: Workspace,
  { attempts, ms }: { attempts: number; ms: number },
): Promise<RaceTally> {
  const t = tally();
  const d = scene.folder;
  const calls: ((i: number) => Promise<unknown>)[] = [
    () => workspace.readFile(join(d, "f.txt")).then((b) => Buffer.from(b).toString()),
    () => workspace.stat(join(d, "outside-only.txt")),
    () => workspace.readDir(d).then((entries) => entries.map((e) => e.name)),
    (i) => workspace.writeFile(join(d, `w-${i}.txt`), Buffer.from("written\n")),
    (i) => workspace.writeFile(join(d, "sub", `m-${i}`, "x.txt"), Buffer.from("made\n")),
    () => workspace.remove(join(d, "victim.txt")),
    () => workspace.readFile(join(d, "sub", "x.txt")).then((b) => Buffer.from(b).toString()),
    (i) =>
      workspace.writeIf(join(d, "f.txt"), Buffer.from(`needle inside f.txt\n`), null).then(() => i),
  ];
  const names = ["read", "stat", "readDir", "write", "mkdir", "remove", "read-deep", "writeIf"];
  await raceCalls(t, calls, names, { attempts, ms, errorsToo: false });
  return t;
}

/** Tool calls through a real toolkit under the swapped folder. */
export async function raceTools(
  scene: SwapScene,
  { attempts, ms }: { attempts: number; ms: number },
): Promise<RaceTally> {
  const splice = createSplice({ root: scene.root, durable: false, lsp: false });
  const t = tally();
  const calls: ((i: number) => Promise<unknown>)[] = [
    () => splice.call("read", { targets: [{ path: "d/f.txt" }] }),
    () => splice.call("search", { pattern: "needle", path: "d" }),
    () => splice.call("search", { pattern: "needle" }),
    () => splice.call("list", { path: "d" }),
    (i) => splice.call("write", { targets: [{ path: `d/t-${i}.txt`, text: "tool\n" }] }),
    (i) => splice.call("file", { action: "create", path: `d/n-${i}/c.txt`, text: "new\n" }),
    () =>
      splice.call("edit", {
        targets: [{ path: "d/edit.txt", edits: [{ old_text: "needle", new_text: "needle" }] }],
      }),
    (i) =>
      splice.call("edit", {
        targets: [
          { path: "d/edit.txt", edits: [{ old_text: "edit.txt", new_text: `edit.txt ${i % 2}` }] },
        ],
      }),
    (i) => splice.call("file", { action: "rename", path: `d/t-${i - 4}.txt`, to: `d/r-${i}.txt` }),
    (i) => splice.call("file", { action: "delete", path: `d/r-${i - 1}.txt` }),
  ];
  const names = [
    "read",
    "search d",
    "search",
    "list",
    "write",
    "create",
    "edit",
    "edit2",
    "rename",
    "delete",
  ];
  await raceCalls(t, calls, names, { attempts, ms, errorsToo: true });
  // History blobs are inside the root too: none may hold outside bytes.
  const blobs = join(scene.root, ".splice", "blobs");
  for (const [rel, text] of safeSnapshot(blobs)) {
    if (text.includes("OUTSIDE")) t.escapes.push(`history blob ${rel}`);
  }
  return t;
}

function safeSnapshot(dir: string): Map<string, string> {
  try {
    return snapshot(dir);
  } catch {
    return new Map();
  }
}
