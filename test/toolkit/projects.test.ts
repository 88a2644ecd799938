import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createToolkit } from "../../src/toolkit/index.js";
import { keepProjectsWarm, openProjectRoots } from "../../src/toolkit/projects.js";
import { Project } from "../helpers/project.js";

const openProjectCount = () => openProjectRoots().length;

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("one root's state per process", () => {
  afterEach(() => keepProjectsWarm(0));

  it("shares the guard, workspace, history store and watch between toolkits on one root", async () => {
    const p = new Project();
    const before = openProjectCount();
    const one = createToolkit({ root: p.root, history: { session: "one" }, watch: true });
    const two = createToolkit({ root: p.root, history: { session: "two" }, watch: true });
    try {
      expect(openProjectCount()).toBe(before + 1);
      expect(two.context.guard).toBe(one.context.guard);
      expect(two.context.workspace).toBe(one.context.workspace);
      // Each keeps its own session: one's reads never vouch for two's edits.
      expect(one.context.history.session).toBe("one");
      expect(two.context.history.session).toBe("two");
      expect(await one.watching()).toBeUndefined();
      expect(await two.watching()).toBeUndefined();
      expect(two.context.rootWatch).toBe(one.context.rootWatch);
      expect(one.context.rootWatch).toBeDefined();
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
    expect(openProjectCount()).toBe(before);
  });

  it("tells every toolkit on the root of an outside change, once each", async () => {
    const p = new Project();
    const one = createToolkit({ root: p.root, history: { session: "one" }, watch: true });
    const two = createToolkit({ root: p.root, history: { session: "two" }, watch: true });
    const heard = { one: 0, two: 0 };
    one.events.on((e) => void (e.type === "outside_changes" && heard.one++));
    two.events.on((e) => void (e.type === "outside_changes" && heard.two++));
    try {
      await Promise.all([one.watching(), two.watching()]);
      writeFileSync(join(p.root, "outside.txt"), "made by an editor\n");
      await until(() => heard.one > 0 && heard.two > 0);
      expect(heard).toEqual({ one: 1, two: 1 });
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it("keeps the root open while one toolkit still uses it, and closing twice releases once", async () => {
    const p = new Project();
    const before = openProjectCount();
    const one = createToolkit({ root: p.root, watch: true });
    const two = createToolkit({ root: p.root, watch: true });
    await Promise.all([one.watching(), two.watching()]);
    await one.close();
    await one.close();
    expect(openProjectCount()).toBe(before + 1);
    expect(two.context.rootWatch).toBeDefined();
    await two.call("write", { targets: [{ path: "a.txt", text: "a\n" }] });
    expect(p.text("a.txt")).toBe("a\n");
    await two.close();
    expect(openProjectCount()).toBe(before);
    expect(two.context.rootWatch).toBeUndefined();
  });

  it("stops the watch when the last toolkit that asked for it closes, though others stay open", async () => {
    const p = new Project();
    const watching = createToolkit({ root: p.root, watch: true });
    const plain = createToolkit({ root: p.root }); // like a helper toolkit nobody closes
    await watching.watching();
    expect(plain.context.rootWatch).toBeDefined();
    await watching.close();
    expect(plain.context.rootWatch).toBeUndefined();
    await plain.call("write", { targets: [{ path: "a.txt", text: "a\n" }] });
    await plain.close();
  });

  it("does not share a root between different guard options or durability", async () => {
    const p = new Project();
    const open = createToolkit({ root: p.root });
    const narrow = createToolkit({ root: p.root, allowlist: ["src/**"] });
    const durable = createToolkit({ root: p.root, durable: "full" });
    try {
      expect(narrow.context.guard).not.toBe(open.context.guard);
      expect(durable.context.workspace).not.toBe(open.context.workspace);
    } finally {
      await Promise.all([open.close(), narrow.close(), durable.close()]);
    }
  });

  it("keeps a root warm after its last toolkit when asked (the engine), then closes it", async () => {
    const p = new Project();
    const before = openProjectCount();
    keepProjectsWarm(150);
    const one = createToolkit({ root: p.root, watch: true });
    await one.watching();
    const watch = one.context.rootWatch;
    await one.close();
    expect(openProjectCount()).toBe(before + 1);
    // A toolkit opened while warm finds the same watch running.
    const again = createToolkit({ root: p.root, watch: true });
    expect(await again.watching()).toBeUndefined();
    expect(again.context.rootWatch).toBe(watch);
    await again.close();
    await until(() => openProjectCount() === before);
  });
});
