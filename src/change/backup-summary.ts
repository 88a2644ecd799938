/** One backup session as undo's list (and history's, without a path) gives it (no imports: the review page's bundle reads it too). */
export interface SessionSummary {
  backup_session: string;
  at: string;
  session: string;
  /** The program behind the session, when it said (an MCP client's name). */
  client?: string;
  /** Every file of the session is undone (each file's own `undone` shows a partial undo). */
  undone: boolean;
  /**
   * Whether undoing it now would revert cleanly, or be refused because a later
   * change overlaps its lines (`force` restores wholesale), or nothing is left to undo.
   */
  reverts?: "clean" | "conflict" | "undone";
  /** This session undoes another (undoing it redoes that); a redo is a change again. */
  is_undo: boolean;
  /** The session this one undid (for an undo or a redo). */
  undoes?: string;
  /** The tool whose call made it, as history recorded it; absent in older records (see `note`). */
  tool?: string;
  /** What wrote its first change, as history noted it (`edit`, `write`, `rollback to 1A2B`, …). */
  note?: string;
  files: {
    path: string;
    action: "created" | "modified" | "deleted";
    diff: string;
    undone: boolean;
  }[];
  /** Files this call may not read (outside a confined folder, blocked): counted, not shown. */
  hidden_files?: number;
}

/** One page of undo's list: sessions newest first, and `next` to pass as `before` while older ones remain. */
export interface SessionList {
  sessions: SessionSummary[];
  next?: string;
}
