/**
 * Puts a finished build in place of the last: `next` becomes `dist` by two
 * renames (the old tree aside, the new one in), so a running or linked
 * `splice` finds either the whole old tree or the whole new one, never a
 * half-built one. A tree left aside by a build that died is removed first.
 */
import { existsSync, renameSync, rmSync } from "node:fs";

export function swapDist(next, dist = "dist") {
  if (!existsSync(next)) throw new Error(`swapDist: ${next} is not there`);
  const old = `${dist}.old`;
  rmSync(old, { recursive: true, force: true });
  if (existsSync(dist)) renameSync(dist, old);
  renameSync(next, dist);
  rmSync(old, { recursive: true, force: true });
}
