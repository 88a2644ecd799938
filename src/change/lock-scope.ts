/**
 * How long a writer lock is held. A single-path step (`serialized`) needs
 * its lock from the read to the rename, not while a language server checks
 * the result (up to 10 s): once its write has landed, the step goes on
 * without the lock. A batch (`exclusiveAll`) keeps its locks to the end, as
 * a later file's failure puts the earlier ones back under them.
 */
import { AsyncLocalStorage } from "node:async_hooks";

interface Scope {
  /** Lets the lock go; a no-op in a batch. */
  release: () => void;
}

const scope = new AsyncLocalStorage<Scope>();
const KEEP: Scope = { release: () => {} };

/** Called once a step is done with the disk: the lock, if the step may drop it early, is released. */
export function doneWithDisk(): void {
  scope.getStore()?.release();
}

/**
 * Whether the step running now drops its lock once its write has landed
 * (releasedEarly, not a batch): a workspace may then let the lock go in the
 * same trip as the write.
 */
export function releasedWithWrite(): boolean {
  const current = scope.getStore();
  return current !== undefined && current !== KEEP;
}

/**
 * Runs `step` under a lock that `hold(fn)` takes for as long as `fn` runs,
 * letting the lock go early when the step calls `doneWithDisk`.
 */
export function releasedEarly<T>(
  hold: (fn: () => Promise<void>) => Promise<void>,
  step: () => Promise<T>,
): Promise<T> {
  let result: Promise<T> | undefined;
  const held = hold(() => {
    let release!: () => void;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    result = scope.run({ release }, step);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    return Promise.race([done, settled]);
  });
  return held.then(() => result!);
}

/** Runs `fn` keeping its locks to the end, whatever steps inside it call. */
export function keptToTheEnd<T>(fn: () => Promise<T>): Promise<T> {
  return scope.run(KEEP, fn);
}
