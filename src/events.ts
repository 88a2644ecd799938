/** Typed events tools publish, so hosts can show progress and keep logs. */

export interface FileChange {
  /** Path as shown to the model. */
  path: string;
  /** Absolute path on disk. */
  resolved: string;
  action: string;
  diff: string;
}

/** A file changed outside splice (an editor, a build), as the root watch found it. */
export interface OutsideChange {
  /** Root-relative. */
  path: string;
  kind: "created" | "changed" | "deleted";
}

/** What the root watch found changed outside splice, and what it kept. */
export interface OutsideReport {
  /** The changes, sorted by path; at most 50, `more` past that. */
  changes: OutsideChange[];
  more: number;
  /** Versions kept in history. */
  recorded: number;
  /** Changes named but not kept: too large, past the rate cap, or no copy of what they replaced. */
  notRecorded: number;
  /** The backup session undo takes to put the recorded changes back, when any was. */
  backupSession?: string;
  /** The watch lost track (a burst, an overflow) and the root was walked again to find them. */
  lostTrack: boolean;
}

export type SpliceEvent =
  | { type: "files_read"; paths: string[] }
  | { type: "files_changed"; changes: FileChange[] }
  /** Changes made outside splice, kept in history as versions (see checkpoint/outside.ts). */
  | ({ type: "outside_changes" } & OutsideReport)
  /**
   * Work splice does between calls (recording outside changes, filling the
   * symbol index, flushing) failed; no call was running to carry the error.
   * `task` names the work, `message` what broke and what to do.
   */
  | { type: "background_failure"; task: string; message: string }
  | { type: "files_listed"; path: string; entries: number; truncated: boolean }
  | { type: "search_hits"; pattern: string; path: string; matches: number; files: string[] }
  | {
      type: "exit_status";
      command: string;
      cwd: string;
      exitCode: number | null;
      signal: string | null;
      timedOut: boolean;
      durationMs: number;
    };

export type Listener = (event: SpliceEvent) => void;

export class EventBus {
  readonly #listeners = new Set<Listener>();

  on(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(event: SpliceEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}
