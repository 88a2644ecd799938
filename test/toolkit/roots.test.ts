/** RootSet: one toolkit per root, calls routed by their footprint paths. */
import { mkdirSync, realpathSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { RootSet } from "../../src/toolkit/roots.js";
import { Project, rejection } from "../helpers/project.js";

interface Read {
  results: { path: string; content: string; file_hash?: string; error?: { code: string } }[];
}

const read = async (set: RootSet, ...paths: string[]) =>
  (await set.call("read", { targets: paths.map((path) => ({ path })) })) as Read;

function twoRoots() {
  const [a, b] = [new Project(), new Project()];
  a.write("same.txt", "in a\n");
  b.write("same.txt", "in b\n");
  b.write("only-b.txt", "b only\n");
  const set = new RootSet([a.root, b.root], { history: { session: "roots-test" } });
  return { a, b, set, realA: realpathSync(a.root), realB: realpathSync(b.root) };
}

describe("RootSet", () => {
  it("validates a call's arguments once, routing and running the parsed call", async () => {
    const { set, realB } = twoRoots();
    const tool = set.tools.find((t) => t.name === "read")!;
    const safeParse = vi.spyOn(tool.input, "safeParse");
    try {
      const { results } = await read(set, join(realB, "only-b.txt"));
      expect(results[0]!.content).toContain("1| b only");
      expect(safeParse).toHaveBeenCalledTimes(1);
    } finally {
      safeParse.mockRestore();
    }
  });

  it("resolves relative paths against the first root", async () => {
    const { set, realA } = twoRoots();
    expect(set.roots[0]).toBe(realA);
    const { results } = await read(set, "same.txt");
    expect(results[0]!.content).toContain("1| in a");
  });

  it("sends an absolute path to the root that holds it", async () => {
    const { set, realB } = twoRoots();
    const { results } = await read(set, join(realB, "only-b.txt"));
    expect(results[0]!.content).toContain("1| b only");
    expect(set.route("read", { targets: [{ path: join(realB, "x") }] })).toBe(set.toolkits[1]);
  });

  it("picks the innermost root when roots nest", () => {
    const outer = new Project();
    mkdirSync(join(outer.root, "inner"));
    const inner = join(realpathSync(outer.root), "inner");
    const set = new RootSet([outer.root, inner], { history: { session: "nest" } });
    expect(set.route("read", { targets: [{ path: join(inner, "f.txt") }] })).toBe(set.toolkits[1]);
    expect(set.route("read", { targets: [{ path: join(outer.root, "f.txt") }] })).toBe(
      set.toolkits[0],
    );
  });

  it("refuses one call that names files in two roots, saying how to split it", async () => {
    const { set, realA, realB } = twoRoots();
    const error = await rejection(read(set, "same.txt", join(realB, "only-b.txt")));
    expect(error.code).toBe("guard");
    expect(error.message).toBe(
      `This call names files in different roots: 'same.txt' is in ${realA} and '${join(realB, "only-b.txt")}' is in ${realB}. One call works in one root: split it into one call per root. Relative paths start at the first root (${realA}); give files in the other roots as absolute paths.`,
    );
    expect(error.details).toMatchObject({ reason: "cross_root", roots: [realA, realB] });
  });

  it("leaves a path in no root to the first root's guard", async () => {
    const { set, realA } = twoRoots();
    const outside = join(realpathSync(new Project().root), "x.txt");
    const error = await rejection(set.call("write", { targets: [{ path: outside, text: "x" }] }));
    expect(error.code).toBe("guard");
    expect(error.message).toContain(`resolves outside the project root ${realA}`);
    // Even beside a path that is in a root: the refusal names the outside path.
    const mixed = await rejection(
      set.call("write", {
        targets: [
          { path: "same.txt", text: "x" },
          { path: outside, text: "x" },
        ],
      }),
    );
    expect(mixed.message).toContain("resolves outside the project root");
  });

  it("shares one session across roots: a read in one vouches for an edit there", async () => {
    const { b, set, realB } = twoRoots();
    const path = join(realB, "only-b.txt");
    const tag = (await read(set, path)).results[0]!.file_hash!;
    await set.call("edit", { targets: [{ path, file_hash: tag, ops: "replace 1:\n+edited" }] });
    expect(b.text("only-b.txt")).toBe("edited\n");
    expect(set.session).toBe("roots-test");
  });

  it("keeps a root named twice once, and routes a linked spelling of a root", async () => {
    const a = new Project();
    a.write("f.txt", "f\n");
    const link = join(new Project().root, "link");
    symlinkSync(a.root, link);
    const set = new RootSet([link, a.root, link], { history: { session: "dup" } });
    expect(set.roots).toEqual([realpathSync(a.root)]);
    // The guard knows the spelling the root was given with, so such paths work.
    const { results } = await read(set, join(link, "f.txt"));
    expect(results[0]!.content).toContain("1| f");
  });

  it("validates before routing: unknown tools and bad arguments are ToolErrors", async () => {
    const { set } = twoRoots();
    expect((await rejection(set.call("nope", {}))).code).toBe("unknown_tool");
    expect((await rejection(set.call("read", { targets: [] }))).code).toBe("invalid_input");
  });
});
