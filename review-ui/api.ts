/**
 * The page's calls to its server: the token from the page's own address on
 * every request, actions as same-origin JSON POSTs (what the server's guard
 * requires), and the tools' refusals passed on as they were said.
 */

export { diffCounts as counts } from "../src/text/diff-counts.js";

import type { SessionList, SessionSummary } from "../src/change/backup-summary.js";
import type { HistoryResult, VersionEntry } from "../src/tools/history/result.js";

/** One backup session as undo's list gives it. */
export type Session = SessionSummary;
export type SessionFile = SessionSummary["files"][number];
export type { SessionList };
export type Version = VersionEntry;
export type FileHistory = HistoryResult;

/** One file of an undo's result (preview or applied). */
export interface UndoFile {
  path: string;
  action: string;
  diff: string;
  warnings: string[];
}

export interface UndoResult {
  undone: string;
  backup_session?: string;
  applied: boolean;
  files: UndoFile[];
}

export interface RollbackResult {
  path: string;
  file_hash: string;
  applied: boolean;
  changed: boolean;
  backup_session?: string;
  diff: string;
  warnings: string[];
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const token = new URLSearchParams(location.search).get("token") ?? "";
/** The page's own folder (/review/), whichever server mounts it. */
const base = location.pathname.replace(/\/?$/, "/");

async function answer<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => ({}))) as {
    error?: { code: string; message: string };
  };
  if (!response.ok || body.error) {
    const e = body.error ?? { code: "http", message: `The server answered ${response.status}.` };
    throw new ApiError(response.status, e.code, e.message);
  }
  return body as T;
}

function get<T>(path: string): Promise<T> {
  return fetch(`${base}api/${path}`, { headers: { "x-splice-token": token } }).then(answer<T>);
}

function post<T>(path: string, body: Record<string, unknown>): Promise<T> {
  return fetch(`${base}api/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-splice-token": token },
    body: JSON.stringify(body),
  }).then(answer<T>);
}

export const api = {
  /** One page of sessions, newest first: those older than `before`, and the `next` page's cursor. */
  sessions: (page: { before?: string; limit?: number } = {}) => {
    const query = new URLSearchParams();
    if (page.before !== undefined) query.set("before", page.before);
    if (page.limit !== undefined) query.set("limit", String(page.limit));
    return get<SessionList>(`sessions?${query}`);
  },
  history: (path: string) => get<FileHistory>(`history?path=${encodeURIComponent(path)}`),
  undo: (args: { backup_session: string; path?: string; force?: boolean }, preview: boolean) =>
    post<UndoResult>("undo", { ...args, preview }),
  rollback: (args: { path: string; hash: string }, preview: boolean) =>
    post<RollbackResult>("rollback", { ...args, preview }),
  /**
   * Calls `onChange` whenever a backup session appears, with who noticed it
   * (`events`: a tool in the server's process; `watch`: the history folder,
   * written by another process); the browser reconnects by itself.
   */
  events(onChange: (by: string) => void): EventSource {
    const source = new EventSource(`${base}events?token=${encodeURIComponent(token)}`);
    source.addEventListener("sessions", (event) => {
      const { by } = JSON.parse((event as MessageEvent<string>).data) as { by: string };
      onChange(by);
    });
    return source;
  },
};

/** Who made a session: the client's name when it gave one, and the history session. */
export function whoOf(s: Session): string {
  return s.client ? `${s.client} · ${s.session}` : s.session;
}

/**
 * The tool that made a session: as history recorded it, or for a record
 * older than that, the one its note names (`rollback to 1A2B` → rollback).
 */
export function toolOf(s: Session): string {
  if (s.tool !== undefined) return s.tool;
  const word = (s.note ?? "").split(/[ .:]/)[0] ?? "";
  if (word === "replace" || word === "create") return "edit";
  return word || "?";
}
