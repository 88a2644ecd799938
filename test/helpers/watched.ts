/**
 * A splice watching its root, with every `outside_changes` event it tells
 * collected; closed after each test.
 */
import { afterEach, expect } from "vitest";
import type { SpliceEvent } from "../../src/events.js";
import type { Splice } from "../../src/splice.js";
import type { Project } from "./project.js";

export type Outside = Extract<SpliceEvent, { type: "outside_changes" }>;

const open: Splice[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

export async function watched(p: Project): Promise<{ s: Splice; told: Outside[] }> {
  const s = p.splice({ watch: true });
  open.push(s);
  const told: Outside[] = [];
  s.events.on((e) => {
    if (e.type === "outside_changes") told.push(e);
  });
  expect(await s.watching()).toBeUndefined();
  return { s, told };
}
