/**
 * The bounded kill-at-every-step suite: a writer killed (SIGKILL, by strace)
 * at a sample of its steps. `npm run bench -- reliability` kills it at every
 * step and prints the counts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAndCheck, seeded, V3 } from "../helpers/kill-check.js";
import { type KillPoint, killPoints, stepOf, straceAvailable } from "../helpers/kill-steps.js";

const HAVE_STRACE = straceAvailable();
if (!HAVE_STRACE) {
  console.warn("kill-steps.test.ts skipped: strace is not installed (apt-get install -y strace).");
}

/** One step of each kind, by what it touches. */
const SAMPLE: [string, RegExp][] = [
  ["taking the lock", /^\d+ +link(at)?\(".*\.holder"/],
  [
    "staging the temp file",
    /^\d+ +(openat\(.*\.f\.txt\.splice-.*O_CREAT|rename\(".*\.tmp-s-[^"]*", ".*\.f\.txt\.splice-)/,
  ],
  ["writing the temp file", /^\d+ +write\(\d+, "v3/],
  ["appending the journal line", /^\d+ +write\(\d+, "\{\\"id/],
  ["the rename into place", /^\d+ +rename\(".*\.f\.txt\.splice-/],
  ["letting the lock go", /^\d+ +unlink\(".*\.lock"/],
];

describe.runIf(HAVE_STRACE)("a writer killed at a step of its write", { timeout: 60_000 }, () => {
  let points: KillPoint[] = [];
  beforeAll(async () => {
    points = await killPoints((await seeded()).root, "f.txt", V3);
  }, 60_000);

  for (const [step, pattern] of SAMPLE) killedAt(step, pattern, () => points);

  // Killed after its rename, before the journal's completion mark: the change
  // landed, and undo must take it back, not the change before it.
  it("after the rename, before its completion mark: undo reaches the killed write", async () => {
    const renamed = points.findIndex((p) => /^\d+ +rename\(".*\.f\.txt\.splice-/.test(p.line));
    // The mark's own write: the journal stays open between appends, so no call names it then.
    const point = points.slice(renamed).find((p) => /^\d+ +write\(\d+, "\{\\"landed/.test(p.line));
    expect(point).toBeDefined();
    expect((await killAndCheck(point!)).phantom).toBe(false);
  });
});

// With SPLICE_DURABLE=full the write fsyncs before its rename: killed at the first one.
describe.runIf(HAVE_STRACE)(
  "a full-durability writer killed at its first fsync",
  { timeout: 60_000 },
  () => {
    let points: KillPoint[] = [];
    const before = process.env.SPLICE_DURABLE;
    beforeAll(async () => {
      process.env.SPLICE_DURABLE = "full"; // inherited by the traced and the killed writers
      points = await killPoints((await seeded()).root, "f.txt", V3);
    }, 60_000);
    afterAll(() => {
      if (before === undefined) delete process.env.SPLICE_DURABLE;
      else process.env.SPLICE_DURABLE = before;
    });
    killedAt("the first fsync", /fsync\(/, () => points);
  },
);

function killedAt(step: string, pattern: RegExp, pointsOf: () => KillPoint[]): void {
  it(`${step}: no torn file, no phantom change, no temp file or lock left, the next write goes on`, async () => {
    const points = pointsOf();
    const point = points.find((p) => pattern.test(p.line));
    expect(
      point,
      `no step matched ${pattern} in:\n${points.map((p) => p.line).join("\n")}`,
    ).toBeDefined();
    const outcome = await killAndCheck(point!);
    expect(outcome.killed).toMatchObject({ began: true, finished: false });
    expect(stepOf(outcome.killed.at ?? "(none)")).toBe(stepOf(point!.line));
    expect(outcome.torn).toBe(false);
    expect(outcome.blocked).toBeUndefined();
    expect(outcome.phantom).toBe(false);
    expect(outcome.leftovers.filter((n) => !n.startsWith(".splice/"))).toEqual([]);
    expect(outcome.locks).toEqual([]);
  });
}
