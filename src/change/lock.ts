/**
 * Keeping other splice writers out while a change is read, planned and
 * written: one path (serialized) or several (exclusiveAll, in a fixed order
 * so two batches cannot deadlock).
 */

import type { GuardedPath } from "../guard/path-guard.js";
import { RaceError } from "./commit.js";
import type { ChangeContext } from "./context.js";
import { keptToTheEnd, releasedEarly } from "./lock-scope.js";

/**
 * Runs one read-compute-write step for a path with other splice writers kept
 * out, and runs it again when a program outside splice changed the file in
 * the middle of it. The lock goes once the write has landed (lock-scope.ts):
 * validating the result does not keep other writers waiting.
 */
export function serialized<T>(
  context: ChangeContext,
  input: string | GuardedPath,
  step: () => Promise<T>,
  attempts = 3,
): Promise<T> {
  // A caller that checked the path already (to plan with it) passes what the check gave.
  const file = typeof input === "string" ? context.guard.check(input, "write") : input;
  return retryRaces(
    () => releasedEarly((held) => context.workspace.exclusive(file.real, held), step),
    attempts,
  );
}

/** Runs `attempt` again when a writer outside splice raced it (a RaceError), `attempts` times in all. */
export async function retryRaces<T>(attempt: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof RaceError) || i >= attempts) throw error;
    }
  }
}

/**
 * Holds the writer locks of several paths while `fn` runs, and runs it again
 * (as `serialized` does) when a program outside splice raced it before
 * anything was written: a batch that wrote a file first puts it back and
 * fails with a plain `stale` error instead.
 */
export function exclusiveAll<T>(
  context: ChangeContext,
  inputs: (string | GuardedPath)[],
  fn: () => Promise<T>,
  attempts = 3,
): Promise<T> {
  const real = (p: string | GuardedPath) => {
    if (typeof p !== "string") return [p.real]; // checked by the caller already
    try {
      return [context.guard.check(p, "write").real];
    } catch {
      return []; // refused paths fail later, inside the batch, with their own error
    }
  };
  const reals = [...new Set(inputs.flatMap(real))].sort();
  if (reals.length > 1) context.workspace.expectWrites?.(reals.length);
  const run = (i: number): Promise<T> =>
    i === reals.length ? fn() : context.workspace.exclusive(reals[i]!, () => run(i + 1));
  return retryRaces(() => keptToTheEnd(() => run(0)), attempts);
}
