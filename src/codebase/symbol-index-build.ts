/**
 * Filling a root's symbol index while a server waits for calls: small
 * batches, a pause between them, and none at all while a call runs, so a
 * call never waits behind the build for more than one batch.
 */
import type { ChangeContext } from "../change/context.js";
import { collectCodeFiles } from "./files.js";
import { symbolIndexFor } from "./symbol-index.js";

const BATCH = 8;
const PAUSE_MS = 5;
const BUSY_WAIT_MS = 100;

export interface BackgroundIndexOptions {
  /** Whether a call is running now (the build waits). */
  busy: () => boolean;
  /** Whether to give up (the server closed). */
  stopped: () => boolean;
}

/** Whether the index was brought up to date for every file; false when stopped or unavailable. */
export async function buildIndexInBackground(
  context: ChangeContext,
  options: BackgroundIndexOptions,
): Promise<boolean> {
  const index = symbolIndexFor(context);
  if (!index) return false;
  const collected = await collectCodeFiles(context, ["."], { maxFiles: 100_000 });
  for (let at = 0; at < collected.files.length; at += BATCH) {
    while (options.busy() && !options.stopped()) await pause(BUSY_WAIT_MS);
    if (options.stopped()) return false;
    await index.lookup(context, collected.files.slice(at, at + BATCH));
    await pause(PAUSE_MS);
  }
  return true;
}

/** A timer that never keeps the process alive. */
const pause = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });
