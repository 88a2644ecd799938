/** Typed events tools publish, so hosts can show progress and keep logs. */

export interface FileChange {
  /** Path as shown to the model. */
  path: string;
  /** Absolute path on disk. */
  resolved: string;
  action: string;
  diff: string;
}

export type SpliceEvent =
  | { type: "files_read"; paths: string[] }
  | { type: "files_changed"; changes: FileChange[] }
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
