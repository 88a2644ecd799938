import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RaceError } from "../../src/change/commit.js";
import type { ChangeContext } from "../../src/change/context.js";
import { exclusiveAll, serialized } from "../../src/change/lock.js";
import { doneWithDisk } from "../../src/change/lock-scope.js";
import { LocalWorkspace } from "../../src/workspace/local.js";

/** Just what the locks use: a guard that passes paths through and a real local workspace. */
function lockContext(): ChangeContext {
  const dir = mkdtempSync(join(tmpdir(), "splice-locks-"));
  return {
    guard: { check: (path: string) => ({ real: join(dir, path) }) },
    workspace: new LocalWorkspace({ lockDir: join(dir, "locks") }),
  } as unknown as ChangeContext;
}

function gate(): { open: () => void; opened: Promise<void> } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe("serialized", () => {
  it("lets the lock go once the step is done with the disk (validation runs unlocked)", async () => {
    const context = lockContext();
    const validating = gate();
    const order: string[] = [];
    const first = serialized(context, "f", async () => {
      order.push("first wrote");
      doneWithDisk();
      await validating.opened; // a language server taking its time
      order.push("first validated");
      return 1;
    });
    const second = serialized(context, "f", async () => {
      order.push("second wrote");
      return 2;
    });
    expect(await second).toBe(2);
    validating.open();
    expect(await first).toBe(1);
    expect(order).toEqual(["first wrote", "second wrote", "first validated"]);
  });

  it("holds the lock to the end of a step that never says it is done, and after a failure lets go", async () => {
    const context = lockContext();
    const order: string[] = [];
    const first = serialized(context, "f", async () => {
      await new Promise((r) => setTimeout(r, 20));
      order.push("first");
      throw new Error("boom");
    });
    const second = serialized(context, "f", async () => {
      order.push("second");
    });
    await expect(first).rejects.toThrow("boom");
    await second;
    expect(order).toEqual(["first", "second"]);
  });
});

describe("exclusiveAll", () => {
  it("keeps every lock to the end: a commit inside cannot let one go early", async () => {
    const context = lockContext();
    const order: string[] = [];
    const batch = exclusiveAll(context, ["a", "b"], async () => {
      doneWithDisk();
      await new Promise((r) => setTimeout(r, 30));
      order.push("batch");
    });
    await new Promise((r) => setTimeout(r, 5));
    await serialized(context, "b", async () => {
      order.push("single");
    });
    await batch;
    expect(order).toEqual(["batch", "single"]);
  });

  it("runs the batch again when a writer outside splice raced it, as serialized does", async () => {
    const context = lockContext();
    let runs = 0;
    const result = await exclusiveAll(context, ["a", "b"], async () => {
      runs++;
      if (runs < 3) throw new RaceError("a");
      return "done";
    });
    expect(result).toBe("done");
    expect(runs).toBe(3);
    await expect(
      exclusiveAll(context, ["a"], async () => {
        throw new RaceError("a");
      }),
    ).rejects.toBeInstanceOf(RaceError);
  });
});
