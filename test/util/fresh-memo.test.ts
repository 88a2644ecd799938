import { describe, expect, it } from "vitest";
import { freshMemo } from "../../src/util/fresh-memo.js";

describe("freshMemo", () => {
  it("keeps an answer for its time, then asks again", () => {
    let t = 0;
    let asked = 0;
    const answers = ["missing", "installed"];
    const lookup = freshMemo(
      5_000,
      (key: string) => `${key}: ${answers[asked++ % 2]}`,
      () => t,
    );
    expect(lookup("tsgo")).toBe("tsgo: missing");
    t = 4_999;
    expect(lookup("tsgo")).toBe("tsgo: missing");
    expect(asked).toBe(1);
    t = 5_000;
    expect(lookup("tsgo")).toBe("tsgo: installed");
    expect(asked).toBe(2);
  });

  it("keeps answers per key and forgets the oldest past its bound", () => {
    let asked = 0;
    const lookup = freshMemo(60_000, (key: string) => {
      asked++;
      return key.length;
    });
    for (let i = 0; i < 300; i++) lookup(`k${i}`);
    expect(asked).toBe(300);
    lookup("k299"); // kept
    expect(asked).toBe(300);
    lookup("k0"); // forgotten: the first of 300 past a bound of 256
    expect(asked).toBe(301);
  });
});
