/**
 * History's own folders swapped for a link to an outside folder while splice
 * works: not one file there may be created, changed or removed. The long
 * version is `npm run bench -- reliability`.
 */
import { describe, expect, it } from "vitest";
import { raceHistory } from "./history-swap.js";

describe.runIf(process.platform === "linux")("history's folder swapped with a link out", () => {
  for (const target of [".splice", ".splice/blobs", ".splice/locks"] as const) {
    it(`changes nothing outside when ${target} is swapped`, async () => {
      const tally = await raceHistory(target, { ms: 1_500 });
      expect(tally.outside).toEqual([]);
      expect(tally.calls).toBeGreaterThan(20);
      expect(tally.swaps).toBeGreaterThan(0);
    }, 20_000);
  }
});
