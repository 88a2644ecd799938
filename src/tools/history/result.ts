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
}

export interface HistoryResult {
  path: string;
  /** Tag of the file on disk now, or null when it does not exist. */
  current_hash: string | null;
  versions: VersionEntry[];
}
