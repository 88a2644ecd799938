/**
 * Whether undoing a listed session would revert cleanly now. The list is
 * reloaded by the review page on every change, so it stays cheap: each file is
 * read once a list (its SHA-256 decides the common cases — unchanged since the
 * session, or already back), and a merge is computed only for a file changed
 * since, remembered by the three versions' SHA-256.
 */
import { join } from "node:path";
import type { NetChange } from "../history/undo-state.js";
import { sha256 } from "../util/hash.js";
import type { ChangeContext } from "./context.js";
import { restorable } from "./load.js";
import { planRevert } from "./revert.js";

export type Reverts = "clean" | "conflict" | "undone";

/** What one list call read of the root: path -> its bytes and SHA-256 (null: no file). */
export type Seen = Map<string, { bytes: Uint8Array; sha: string } | null>;

/** Merge verdicts by `after\0before\0now`; bounded, oldest dropped first. */
const VERDICTS = new Map<string, boolean>();
const VERDICTS_MAX = 4096;

async function current(context: ChangeContext, rel: string, seen: Seen) {
  if (seen.has(rel)) return seen.get(rel)!;
  let now: { bytes: Uint8Array; sha: string } | null = null;
  try {
    const path = join(context.guard.root, rel);
    const stat = await context.workspace.stat(path);
    if (stat?.kind === "file" && stat.size <= context.limits.maxFileBytes) {
      const bytes = await context.workspace.readFile(path);
      now = { bytes, sha: sha256(bytes) };
    } else if (stat) {
      // A folder, or too large to merge: only a wholesale restore would do.
      now = { bytes: new Uint8Array(), sha: "" };
    }
  } catch {
    now = { bytes: new Uint8Array(), sha: "" };
  }
  seen.set(rel, now);
  return now;
}

/** Whether one file's change reverts cleanly into what the file holds now. */
async function fileReverts(
  context: ChangeContext,
  rel: string,
  change: NetChange,
  seen: Seen,
): Promise<boolean> {
  const before = change.first.before?.sha ?? null;
  const after = change.last.after?.sha ?? null;
  const now = await current(context, rel, seen);
  const sha = now?.sha ?? null;
  if (sha === after || sha === before) return true;
  if (before === null || after === null || now === null || sha === "") return false;
  const key = `${after}\0${before}\0${sha}`;
  const known = VERDICTS.get(key);
  if (known !== undefined) return known;
  const beforeBytes = context.history.getBlob(before);
  const clean =
    beforeBytes !== undefined &&
    planRevert({
      before,
      after,
      beforeContent: restorable(beforeBytes),
      afterBytes: () => context.history.getBlob(after),
      current: { bytes: now.bytes, sha: now.sha, tag: "", mode: 0, ...docOf(now.bytes) },
      decode: restorable,
    }).kind === "merged";
  VERDICTS.set(key, clean);
  if (VERDICTS.size > VERDICTS_MAX) VERDICTS.delete(VERDICTS.keys().next().value!);
  return clean;
}

function docOf(bytes: Uint8Array) {
  const content = restorable(bytes);
  return "opaque" in content ? { opaque: content.opaque } : { doc: content };
}

/** "undone" when no file is left to undo, else whether every open file reverts cleanly now. */
export async function revertsNow(
  context: ChangeContext,
  open: [string, NetChange][],
  seen: Seen,
): Promise<Reverts> {
  if (open.length === 0) return "undone";
  for (const [rel, change] of open) {
    if (!(await fileReverts(context, rel, change, seen))) return "conflict";
  }
  return "clean";
}
