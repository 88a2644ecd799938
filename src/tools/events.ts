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
  | { type: "files_changed"; changes: FileChange[] };

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
