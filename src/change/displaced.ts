/**
 * Another program's version that a write replaced in the instant it landed:
 * kept in history, and named in the result or told as an outside change.
 */
import type { GuardedPath } from "../guard/path-guard.js";
import { identify } from "../util/hash.js";
import type { ChangeContext } from "./context.js";

/**
 * Another program wrote the file in the instant between the last compare
 * and the rename, so the rename took its version off the disk: it is kept in
 * history (as a version this session saw) and the result names it.
 */
export function keepDisplaced(
  context: ChangeContext,
  file: GuardedPath,
  outside: Uint8Array,
): string {
  const tag = keepOutside(context, file, outside);
  if (tag === undefined) {
    return `Another program wrote ${file.display} while this write landed, and this write replaced it; its version (${outside.length} bytes) could not be saved in history.`;
  }
  return `Another program wrote ${file.display} while this write landed, and this write replaced it; that version is kept in history as tag ${tag}: restore it with rollback {"path": ${JSON.stringify(file.display)}, "hash": "${tag}"}, or merge it in by hand.`;
}

/** Keeps another program's version in history (as one this session saw); its tag, or undefined when it could not. */
function keepOutside(
  context: ChangeContext,
  file: GuardedPath,
  outside: Uint8Array,
): string | undefined {
  const { sha, tag } = identify(outside);
  try {
    context.history.recordRead(file.rel, outside, tag, undefined, sha);
    return tag;
  } catch {
    return undefined;
  }
}

/**
 * Another program wrote into the replaced file just after the write looked
 * at it last (it had opened it before the rename), when the result had gone:
 * its version is kept in history all the same, and told as a change made
 * outside splice (a host shows it; history lists it with its tag).
 */
export function keepDisplacedLate(
  context: ChangeContext,
  file: GuardedPath,
  outside: Uint8Array,
): void {
  const recorded = keepOutside(context, file, outside) === undefined ? 0 : 1;
  context.events.emit({
    type: "outside_changes",
    changes: [{ path: file.rel, kind: "changed" }],
    more: 0,
    recorded,
    notRecorded: 1 - recorded,
    lostTrack: false,
  });
}
