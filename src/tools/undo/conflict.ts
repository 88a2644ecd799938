/**
 * Why an undo is refused: which files' later changes overlap the session's
 * own, which lines, and who made them — the later backup sessions that touched
 * the file, or a change outside splice when no session explains what the file
 * holds now — and the ways forward: undo those sessions first, or force.
 */
import type { Conflicted } from "../../change/restore-session.js";
import { ToolError, type Voice } from "../../errors.js";
import type { BackupSession } from "../../history/history.js";
import { type NetChange, netChanges, type UndoneFiles } from "../../history/undo-state.js";
import { overlappingSteps, type Step } from "../../text/blame.js";

/** The session outside changes are recorded in (the root watch's; see checkpoint/outside.ts). */
export const OUTSIDE_SESSION = "outside";

/** `HH:MM`, local time, as a person reads a clock. */
export function clock(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

/** One refused file, as `details.conflicts` gives it. */
export interface ConflictReport {
  path: string;
  reason: Conflicted["conflict"]["reason"];
  /** Lines of the file as it is now (1-based, inclusive) that collide. */
  lines?: [number, number][];
  /** Later backup sessions, newest first, still in effect on this file: undo them first. */
  changed_by: string[];
  /** Of those (and any undone since), the ones whose changes overlap the lines, when history could tell. */
  overlapped_by?: string[];
  /**
   * Set when a change outside splice made what the file holds now: HH:MM (local), "deleted", or
   * "earlier" when it came between later sessions.
   */
  outside?: string;
}

function ranges(lines: [number, number][]): string {
  const each = lines.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`));
  return `line${lines.length === 1 && lines[0]![0] === lines[0]![1] ? "" : "s"} ${each.join(", ")}`;
}

const WHAT: Record<ConflictReport["reason"], string> = {
  created: "the session created it, and it changed since",
  deleted: "the session deleted it, and it exists again",
  gone: "it was deleted since",
  opaque: "it is not text and changed since (only a wholesale restore can put it back)",
  unknown_base: "it changed since, and history no longer holds the session's version to merge with",
  overlap: "changed since",
};

/** Explains each conflicted file from the backup sessions newer than `session` (newest first). */
export function explain(
  conflicts: Conflicted[],
  session: BackupSession,
  backups: readonly BackupSession[],
  undone: UndoneFiles,
  read: (sha: string) => readonly string[] | undefined,
): ConflictReport[] {
  const later = backups.slice(
    0,
    backups.findIndex((b) => b.id === session.id),
  );
  return conflicts.map((c) => {
    const touching = later.filter((b) => netChanges(b).has(c.rel));
    const open = touching.filter((b) => !undone.get(b.id)?.has(c.rel));
    // What history last knew the file as: the newest session that touched it, else this one.
    const known = touching[0] ? netChanges(touching[0]).get(c.rel) : c.change;
    let explained = (known?.last.after?.sha ?? null) === c.now;
    let writer: BackupSession | undefined;
    if (!explained && c.now !== null) {
      // A write that raced the session (an edit while a command ran) is older than its record.
      writer = backups.find(
        (b) => b.id !== session.id && netChanges(b).get(c.rel)?.last.after?.sha === c.now,
      );
      if (writer) {
        explained = true;
        if (!open.includes(writer)) open.push(writer);
      }
    }
    const outsideAt = open.find((b) => b.session === OUTSIDE_SESSION)?.at;
    const outside = !explained
      ? c.mtimeMs !== undefined
        ? clock(c.mtimeMs)
        : "deleted"
      : outsideAt !== undefined
        ? clock(Date.parse(outsideAt))
        : undefined;
    const report: ConflictReport = {
      path: c.display,
      reason: c.conflict.reason,
      ...(c.conflict.lines ? { lines: c.conflict.lines } : {}),
      changed_by: open.filter((b) => b.session !== OUTSIDE_SESSION).map((b) => b.id),
      ...(outside !== undefined ? { outside } : {}),
    };
    return c.conflict.reason === "overlap" ? blamed(report, c, touching, read, writer) : report;
  });
}

/**
 * The report with who overlapped the session's lines: its after-version is
 * followed through every later session's change of the file (oldest first)
 * and through the gaps between them, which were changes outside splice. When a
 * version is no longer stored, the report names everyone who touched the file.
 */
function blamed(
  report: ConflictReport,
  c: Conflicted,
  touching: readonly BackupSession[],
  read: (sha: string) => readonly string[] | undefined,
  raced: BackupSession | undefined,
): ConflictReport {
  const lines = (sha: string | undefined) => (sha === undefined ? undefined : read(sha));
  const own = { before: lines(c.change.first.before?.sha), after: lines(c.change.last.after?.sha) };
  if (!own.before || !own.after || !c.lines) return report;
  const steps: Step[] = [];
  const authors: (BackupSession | "outside")[] = [];
  let prev = { sha: c.change.last.after!.sha, lines: own.after };
  const step = (to: { sha: string; lines: readonly string[] }, by: BackupSession | "outside") => {
    steps.push({ from: prev.lines, to: to.lines });
    authors.push(by);
    prev = to;
  };
  for (const b of [...touching].reverse()) {
    const net: NetChange = netChanges(b).get(c.rel)!;
    const from = net.first.before?.sha;
    const to = net.last.after?.sha;
    const fromLines = lines(from);
    const toLines = lines(to);
    if (!from || !to || !fromLines || !toLines) return report;
    if (from !== prev.sha) step({ sha: from, lines: fromLines }, "outside");
    step({ sha: to, lines: toLines }, b);
  }
  // What the file holds now, if no later session left it: a raced write's, else an outside change.
  if (c.now !== null && c.now !== prev.sha)
    step({ sha: c.now, lines: c.lines }, raced ?? "outside");
  const hit = overlappingSteps(own.before, own.after, steps);
  const by = authors.filter((a, i) => hit[i] && a !== "outside") as BackupSession[];
  const outsideHit = authors.some((a, i) => hit[i] && a === "outside");
  const finalGap = authors.at(-1) === "outside" && hit.at(-1) === true;
  const { outside: _, ...rest } = report;
  // An outside change the root's watch kept is a session of its own, with its time.
  const watched = by.filter((b) => b.session === OUTSIDE_SESSION).at(-1);
  const watchedAt = watched ? clock(Date.parse(watched.at)) : "earlier";
  return {
    ...rest,
    overlapped_by: by
      .filter((b) => b.session !== OUTSIDE_SESSION)
      .map((b) => b.id)
      .reverse(),
    ...(outsideHit || watched
      ? { outside: finalGap && c.mtimeMs !== undefined ? clock(c.mtimeMs) : watchedAt }
      : {}),
  };
}

/** How many later sessions a refusal names by id; the rest are counted (details list them all). */
const NAMED = 3;

function sentence(r: ConflictReport, byId: Map<string, BackupSession>): string {
  const what =
    r.reason === "overlap" && r.lines ? `${ranges(r.lines)} ${WHAT.overlap}` : WHAT[r.reason];
  const named = r.overlapped_by ?? r.changed_by;
  const who = named.slice(0, NAMED).map((id) => {
    const tool = byId.get(id)?.tool;
    return `by session ${id}${tool ? ` (${tool})` : ""}`;
  });
  const more = named.length - NAMED;
  if (more > 0) who.push(`by ${more} more later ${more === 1 ? "session" : "sessions"}`);
  if (r.outside !== undefined) {
    who.push(
      r.outside === "deleted"
        ? "deleted outside splice"
        : r.outside === "earlier"
          ? "outside splice"
          : `outside splice at ${r.outside}`,
    );
  }
  return `${r.path}: ${what}${who.length > 0 ? ` — ${who.join(" and ")}` : ""}.`;
}

/** The refusal: nothing was undone; each file, its lines and who changed them; what to do. */
export function conflictError(
  reports: ConflictReport[],
  session: BackupSession,
  backups: readonly BackupSession[],
  path: string | undefined,
): ToolError {
  const byId = new Map(backups.map((b) => [b.id, b]));
  // Newest first, each once, as they must be undone: those whose lines overlap, where history
  // could tell, else every later session still in effect on the file.
  const first = backups.filter((b) =>
    reports.some((r) => (r.overlapped_by ?? r.changed_by).includes(b.id)),
  );
  const ids = first.map((b) => b.id);
  const only = path !== undefined ? { path } : {};
  const force = { backup_session: session.id, ...only, force: true };
  const lower = (s: string) => s.replace(/^\w/, (c) => c.toLowerCase());
  const say = (v: Voice) => {
    const calls = (list: string[]) =>
      list.map((id) => lower(v.call("undo", { backup_session: id }))).join(", then ");
    const undoFirst =
      ids.length === 0
        ? ""
        : ids.length <= NAMED
          ? `Undo the later ${ids.length === 1 ? "session" : "sessions"} first (${calls(ids)}), or `
          : `Undo the ${ids.length} later sessions first, newest first (${calls(ids.slice(0, NAMED))}, and so on; ${lower(v.call("undo", { list: true, all_sessions: true }))} lists them), or `;
    const forced = lower(v.call("undo", force));
    const head = undoFirst === "" ? forced.replace(/^\w/, (c) => c.toUpperCase()) : forced;
    return `${undoFirst}${head} to put back the session's versions wholesale (what the files hold now is backed up first, so that undo can itself be undone).`;
  };
  return new ToolError(
    "conflict",
    `Nothing was undone: undoing session ${session.id} would overwrite later changes. ${reports.map((r) => sentence(r, byId)).join(" ")}`,
    { backup_session: session.id, conflicts: reports, undo_first: ids },
    { tool: "undo", args: force, say },
  );
}
