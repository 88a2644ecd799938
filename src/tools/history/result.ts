/** What the history tool gives (no imports: the review page's bundle reads it too). */
export interface VersionEntry {
  file_hash: string;
  at: string;
  kind: string;
  /** The newest event replaced this version (its `at`, `kind` and `note` are of that event). */
  replaced: boolean;
  session: string;
  size: number;
  note?: string;
  current: boolean;
  /** What wrote this version; absent for one splice did not write (git, an editor). */
  made_by?: VersionMaker;
}

/** The change that wrote a version. */
export interface VersionMaker {
  at: string;
  /** The tool whose call wrote it; absent in records older than tools were recorded. */
  tool?: string;
  session: string;
  /** The program behind the session, when it said (an MCP client's name). */
  client?: string;
  /** The backup session that undoes it. */
  backup_session?: string;
}

export interface HistoryResult {
  path: string;
  /** Tag of the file on disk now, or null when it does not exist. */
  current_hash: string | null;
  versions: VersionEntry[];
}
