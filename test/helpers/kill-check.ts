/** One kill point checked end to end on a fresh project: see kill-steps.ts. */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { LOCK_TIMING } from "../../src/workspace/file-lock.js";
import { sweepTemps } from "../../src/workspace/temp.js";
import {
  type Killed,
  type KillPoint,
  type StepOutcome,
  stepOf,
  writeKilledAt,
} from "./kill-steps.js";
import { Project } from "./project.js";

export const V1 = "v1\n";
export const V2 = "v2 the version before\n";
export const V3 = "v3 the version being written when the writer is killed\n";

/** A project whose f.txt went v1 -> v2 by splice; the killed writer writes v3. */
export async function seeded(): Promise<Project> {
  const p = new Project();
  p.write("f.txt", V1);
  await p.splice().write({ targets: [{ path: "f.txt", text: V2 }] });
  return p;
}

const temps = (dir: string) => readdirSync(dir).filter((n) => /\.splice-.*\.tmp$/.test(n));

/** Tries at one point before its kill is taken as landing elsewhere for good. */
const ATTEMPTS = 8;

export async function killAndCheck(point: KillPoint): Promise<StepOutcome> {
  // A libuv wake-up before the point shifts strace's count onto the call before
  // it: that kill is not the one asked for, so it runs again on a fresh project.
  let p: Project;
  let killed: Killed;
  let attempt = 0;
  do {
    p = await seeded();
    killed = await writeKilledAt(p.root, "f.txt", V3, point);
  } while (
    ++attempt < ATTEMPTS &&
    !killed.finished &&
    (killed.at === undefined || stepOf(killed.at) !== stepOf(point.line))
  );
  const after = p.text("f.txt");
  const torn = after !== V2 && after !== V3;
  // A dead writer's temp file is swept by the next write once a few seconds old
  // (and a folder at most once a minute per process): the sweep a minute on.
  sweepTemps(p.root, Date.now() + 61_000);
  const giveUp = LOCK_TIMING.giveUpMs;
  LOCK_TIMING.giveUpMs = 2_000; // a lock that outlived its killed holder shows here
  let phantom = false;
  let blocked: string | undefined;
  try {
    await p.splice().undo({});
    phantom = p.text("f.txt") !== (after === V3 ? V2 : V1);
  } catch (error) {
    blocked = (error as Error).message;
  } finally {
    LOCK_TIMING.giveUpMs = giveUp;
  }
  // Holder files are not locks: a gone writer's blocks nothing and is swept (locks.test.ts).
  const locks = readdirSync(join(p.root, ".splice", "locks")).filter(
    (name) => !name.endsWith(".holder"),
  );
  const leftovers = [...temps(p.root), ...historyTemps(join(p.root, ".splice", "blobs"))];
  return { point, killed, torn, phantom, leftovers, locks, blocked };
}

/** History's own staged blobs (`.tmp-…`) under blobs/. */
function historyTemps(blobs: string): string[] {
  if (!existsSync(blobs)) return [];
  return readdirSync(blobs).flatMap((d) =>
    readdirSync(join(blobs, d))
      .filter((n) => n.startsWith(".tmp-"))
      .map((n) => `.splice/blobs/${d}/${n}`),
  );
}
