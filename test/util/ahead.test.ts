import { describe, expect, it } from "vitest";
import { Ahead } from "../../src/util/ahead.js";

/** A promise and the hands that settle it. */
function deferred() {
  let resolve!: () => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

const state = async (p: Promise<unknown>) =>
  Promise.race([p.then(() => "done"), new Promise((go) => setTimeout(() => go("waiting"), 20))]);

describe("Ahead", () => {
  it("lets work run ahead up to its limit, then waits until enough of it settles", async () => {
    const ahead = new Ahead(10);
    const a = deferred();
    const b = deferred();
    const c = deferred();
    expect(await state(ahead.admit(a.promise, 6))).toBe("done");
    const second = ahead.admit(b.promise, 6);
    expect(await state(second)).toBe("waiting");
    a.resolve();
    expect(await state(second)).toBe("done");
    expect(ahead.weight).toBe(6);
    const third = ahead.admit(c.promise, 5);
    expect(await state(third)).toBe("waiting");
    b.reject(new Error("a failed piece settles too"));
    expect(await state(third)).toBe("done");
    expect(ahead.weight).toBe(5);
  });

  it("admits one piece heavier than the limit, and waits for it alone", async () => {
    const ahead = new Ahead(10);
    const big = deferred();
    const admitted = ahead.admit(big.promise, 25);
    expect(await state(admitted)).toBe("waiting");
    big.resolve();
    expect(await state(admitted)).toBe("done");
    expect(ahead.weight).toBe(0);
  });
});
