/**
 * Which calls of one model reply may run side by side: calls whose
 * footprints are disjoint, where reads never conflict with reads. Order is
 * kept wherever it matters: a call runs after every earlier call it
 * conflicts with.
 */

import { EVERYTHING } from "../tools/define.js";

/** Root-relative "/" paths; "*" means anything (a shell command). */
export interface ResolvedFootprint {
  reads: string[];
  writes: string[];
}

function overlaps(a: string, b: string): boolean {
  if (a === EVERYTHING || b === EVERYTHING || a === "" || b === "") return true;
  return a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

function conflicts(a: ResolvedFootprint, b: ResolvedFootprint): boolean {
  const touches = (writes: string[], other: ResolvedFootprint) =>
    writes.some((w) => [...other.reads, ...other.writes].some((p) => overlaps(w, p)));
  return touches(a.writes, b) || touches(b.writes, a);
}

/**
 * Groups calls into waves: every call in a wave may run concurrently, and
 * waves run in order. Returns the indexes of the calls in each wave.
 */
export function scheduleWaves(footprints: ResolvedFootprint[]): number[][] {
  const wave: number[] = [];
  for (let i = 0; i < footprints.length; i++) {
    let w = 0;
    for (let j = 0; j < i; j++) {
      if (conflicts(footprints[i]!, footprints[j]!)) w = Math.max(w, wave[j]! + 1);
    }
    wave.push(w);
  }
  const waves: number[][] = [];
  wave.forEach((w, i) => {
    waves[w] ??= [];
    waves[w].push(i);
  });
  return waves;
}
