import { describe, expect, it } from "vitest";
import { randomId } from "../../src/util/ids.js";

describe("randomId", () => {
  it("gives that many random bytes as hex, beyond one UUID's worth too", () => {
    for (const bytes of [1, 3, 6, 8, 15, 16, 40]) {
      const ids = Array.from({ length: 200 }, () => randomId(bytes));
      for (const id of ids) expect(id).toMatch(new RegExp(`^[0-9a-f]{${bytes * 2}}$`));
      if (bytes >= 6) expect(new Set(ids).size).toBe(ids.length);
    }
    // No fixed digit: the UUID's version ("4") and variant digits are left out.
    const seen = Array.from({ length: 16 }, () => new Set<string>());
    for (let i = 0; i < 2000; i++) {
      for (const [k, c] of [...randomId(8)].entries()) seen[k]!.add(c);
    }
    for (const digits of seen) expect(digits.size).toBe(16);
  });
});
