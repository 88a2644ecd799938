/**
 * A plan's dry run: the real tools, run on an overlay of the workspace and a
 * history that remembers in memory, so later steps see what earlier ones
 * would have written and nothing reaches the disk or the journal.
 */
import { createHash } from "node:crypto";
import { EventBus } from "../../events.js";
import type { History } from "../../history/history.js";
import type { VersionRef, WriteRecord } from "../../history/types.js";
import { OverlayWorkspace } from "../../workspace/overlay.js";
import type { ToolContext } from "../define.js";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** `real` as seen by a dry run: its versions and sessions, plus what the dry run records. */
export function dryRunHistory(real: History): History {
  const blobs = new Map<string, Uint8Array>();
  const seen = new Map<string, { sha: string; tag: string }[]>();
  const remember = (path: string, sha: string, tag: string) => {
    const list = seen.get(path) ?? [];
    list.push({ sha, tag });
    seen.set(path, list);
  };
  const put = (bytes: Uint8Array, known?: string) => {
    const sha = known ?? sha256(bytes);
    blobs.set(sha, bytes);
    return sha;
  };
  const ref = (v: { bytes: Uint8Array; tag: string; sha?: string }): VersionRef => ({
    sha: put(v.bytes, v.sha),
    tag: v.tag,
    size: v.bytes.length,
  });
  const overrides = {
    putBlob: (bytes: Uint8Array, _durable?: boolean, knownSha?: string) => put(bytes, knownSha),
    getBlob: (sha: string) => blobs.get(sha) ?? real.getBlob(sha),
    recordRead: (
      path: string,
      bytes: Uint8Array,
      tag: string,
      _range?: unknown,
      knownSha?: string,
    ) => {
      const version = ref({ bytes, tag, ...(knownSha ? { sha: knownSha } : {}) });
      remember(path, version.sha, tag);
      return version;
    },
    recordWrite: (e: WriteRecord) => {
      const out: { before?: VersionRef; after?: VersionRef } = {};
      if (e.before) out.before = ref(e.before);
      if (e.after) {
        out.after = ref(e.after);
        remember(e.path, out.after.sha, out.after.tag);
      }
      return out;
    },
    hasSeen: (path: string, sha: string) =>
      (seen.get(path)?.some((v) => v.sha === sha) ?? false) || real.hasSeen(path, sha),
    seenShasForTag: (path: string, tag: string) => [
      ...new Set([
        ...(seen.get(path) ?? []).filter((v) => v.tag === tag).map((v) => v.sha),
        ...real.seenShasForTag(path, tag),
      ]),
    ],
    lastSeen: (path: string) => seen.get(path)?.at(-1) ?? real.lastSeen(path),
  };
  return Object.assign(Object.create(real) as History, overrides);
}

/** A context whose writes land in an overlay; no events, no language servers. */
export function dryRunContext(context: ToolContext): {
  context: ToolContext;
  overlay: OverlayWorkspace;
} {
  const overlay = new OverlayWorkspace(context.workspace);
  const { validator: _validator, ...rest } = context;
  return {
    overlay,
    context: {
      ...rest,
      workspace: overlay,
      history: dryRunHistory(context.history),
      events: new EventBus(),
      backup: "dry-run",
    },
  };
}
