/**
 * Versions made durable in history ahead of a write, in the background
 * (HistoryOptions.relaxed): a write that replaces one of them need not sync
 * its backup again. The queue is bounded, so reads cannot pile up fsyncs.
 */

/** A read's version larger than this is not synced ahead (a write replacing it syncs it then). */
const PREFETCH_MAX_FILE = 1024 * 1024;
/** Bytes of read versions waiting for their background fsync at most; past it reads sync nothing ahead. */
const PREFETCH_MAX_PENDING = 8 * 1024 * 1024;
/** How many durable versions are remembered (the oldest is forgotten first). */
const DURABLE_REMEMBERED = 4096;

export class SyncedAhead {
  /**
   * `path\0sha` of versions durable in history (the blob synced, and a
   * journal line naming it for that path): true, or the round syncing them.
   */
  readonly #durable = new Map<string, true | Promise<void>>();
  #pendingBytes = 0;

  /** Whether `sha` of `path` is durable: true, the round that makes it so, or undefined. */
  state(path: string, sha: string): true | Promise<void> | undefined {
    return this.#durable.get(`${path}\0${sha}`);
  }

  /** Whether a version of `size` bytes fits the background queue and is not durable already. */
  hasRoomFor(path: string, sha: string, size: number): boolean {
    return (
      size <= PREFETCH_MAX_FILE &&
      this.#pendingBytes + size <= PREFETCH_MAX_PENDING &&
      !this.#durable.has(`${path}\0${sha}`)
    );
  }

  /** `path`'s version `sha` counts as durable once `round` (syncing `bytes`) is done. */
  track(path: string, sha: string, round: Promise<void>, bytes: number): void {
    const key = `${path}\0${sha}`;
    this.#pendingBytes += bytes;
    this.#remember(key, round);
    round.then(
      () => {
        this.#pendingBytes -= bytes;
        if (this.#durable.get(key) === round) this.#remember(key, true);
      },
      () => {
        this.#pendingBytes -= bytes;
        if (this.#durable.get(key) === round) this.#durable.delete(key);
      },
    );
  }

  #remember(key: string, state: true | Promise<void>): void {
    this.#durable.delete(key);
    this.#durable.set(key, state);
    if (this.#durable.size > DURABLE_REMEMBERED) {
      this.#durable.delete(this.#durable.keys().next().value as string);
    }
  }
}
