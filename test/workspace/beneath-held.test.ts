/**
 * The walk's held folders (beneath.ts): a folder reached by an earlier call
 * is used again only while it is still where that call found it. Each case
 * first makes a call in the folder (so it is held), then moves it, and
 * checks the next call reaches what a fresh walk would, never the moved one.
 */
import {
  closeSync,
  constants,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Beneath, FOLLOW, HELD_MAX, STRONG, WALK_OPEN_MAX } from "../../src/workspace/beneath.js";

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A root with sub/f.txt ("inside") and an outside folder beside it. */
function scene() {
  const base = mkdtempSync(join(tmpdir(), "splice-held-"));
  made.push(base);
  const root = join(base, "root");
  const outside = join(base, "outside");
  mkdirSync(join(root, "sub"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, "sub", "f.txt"), "inside\n");
  const beneath = new Beneath(root);
  const read = () =>
    beneath.at(join(root, "sub", "f.txt"), (dir, name) => readFileSync(`${dir}/${name}`, "utf8"));
  expect(read()).toBe("inside\n"); // the folder is held from here on
  return { root, outside, read };
}

const openDescriptors = () => readdirSync("/proc/self/fd").length;

describe.runIf(STRONG)("a folder held from an earlier walk", () => {
  it("moved out of the root and replaced by a link to it: the call is refused", () => {
    const { root, outside, read } = scene();
    renameSync(join(root, "sub"), join(outside, "sub"));
    writeFileSync(join(outside, "sub", "f.txt"), "OUTSIDE\n");
    symlinkSync(join(outside, "sub"), join(root, "sub"));
    expect(read).toThrow(/not inside|leads outside/);
  });

  it("removed while the walk that reached it ran: never held, the next call reaches the new one", () => {
    const base = mkdtempSync(join(tmpdir(), "splice-held-"));
    made.push(base);
    const root = join(base, "root");
    mkdirSync(join(root, "gone"), { recursive: true });
    const beneath = new Beneath(root);
    const path = join(root, "gone", "f.txt");
    // The folder goes between the walk's open and its hold (rm -rf of a state folder mid-call):
    // its descriptor's path is then "…/gone (deleted)", which would have matched it ever after.
    const missing = beneath.at(path, (dir, name) => {
      rmSync(join(root, "gone"), { recursive: true });
      try {
        return readFileSync(`${dir}/${name}`, "utf8");
      } catch (error) {
        return (error as NodeJS.ErrnoException).code;
      }
    });
    expect(missing).toBe("ENOENT");
    mkdirSync(join(root, "gone"));
    writeFileSync(path, "new\n");
    expect(beneath.at(path, (dir, name) => readFileSync(`${dir}/${name}`, "utf8"))).toBe("new\n");
  });

  it("moved out and a new folder made in its place: the call reaches the new one", () => {
    const { root, outside, read } = scene();
    renameSync(join(root, "sub"), join(outside, "sub"));
    mkdirSync(join(root, "sub"));
    writeFileSync(join(root, "sub", "f.txt"), "new\n");
    expect(read()).toBe("new\n");
  });

  it("removed and made again: the call reaches the new one", () => {
    const { root, read } = scene();
    rmSync(join(root, "sub"), { recursive: true });
    mkdirSync(join(root, "sub"));
    writeFileSync(join(root, "sub", "f.txt"), "again\n");
    expect(read()).toBe("again\n");
  });

  it("reached through a link inside the root: not held, so a retargeted link is followed", () => {
    const { root } = scene();
    mkdirSync(join(root, "a"));
    mkdirSync(join(root, "b"));
    writeFileSync(join(root, "a", "f.txt"), "a\n");
    writeFileSync(join(root, "b", "f.txt"), "b\n");
    symlinkSync("a", join(root, "via"));
    const beneath = new Beneath(root);
    const read = () =>
      beneath.at(join(root, "via", "f.txt"), (dir, name) => readFileSync(`${dir}/${name}`, "utf8"));
    expect(read()).toBe("a\n");
    rmSync(join(root, "via"));
    symlinkSync("b", join(root, "via"));
    expect(read()).toBe("b\n");
  });

  it("holds a bounded number of folders however many are walked", () => {
    const { root } = scene();
    const beneath = new Beneath(root);
    const before = openDescriptors();
    for (let i = 0; i < HELD_MAX + 100; i++) {
      mkdirSync(join(root, `d${i}`));
      beneath.at(join(root, `d${i}`, "x"), (dir, name) => writeFileSync(`${dir}/${name}`, "x"));
    }
    expect(openDescriptors() - before).toBeLessThanOrEqual(HELD_MAX);
  });
});

describe.runIf(STRONG)("a walk's own descriptors", () => {
  it("stay a few however deep the path, and a link's .. climbs back through closed folders", () => {
    const base = mkdtempSync(join(tmpdir(), "splice-walk-"));
    made.push(base);
    const root = join(base, "root");
    const deep = Array(127).fill("d").join("/");
    mkdirSync(join(root, deep), { recursive: true });
    writeFileSync(join(root, deep, "x.txt"), "deep\n");
    writeFileSync(join(root, "d", "d", "top.txt"), "top\n");
    // 125 names up from the deepest folder: two folders below the root, long closed by then.
    symlinkSync(`${"../".repeat(125)}top.txt`, join(root, deep, "up"));
    const beneath = new Beneath(root);
    const before = openDescriptors();
    const during = beneath.at(join(root, deep, "x.txt"), () => openDescriptors());
    // The root and the deepest WALK_OPEN_MAX folders; 128 before the bound.
    expect(during - before).toBeLessThanOrEqual(WALK_OPEN_MAX + 1);
    // The kernel follows no link at the last name; the walk does, `..` by `..`.
    const read = (abs: string) =>
      beneath.at(abs, (dir, name) => {
        let fd: number;
        try {
          fd = openSync(`${dir}/${name}`, constants.O_RDONLY | constants.O_NOFOLLOW);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ELOOP") return FOLLOW;
          throw error;
        }
        try {
          return readFileSync(fd, "utf8");
        } finally {
          closeSync(fd);
        }
      });
    expect(read(join(root, deep, "x.txt"))).toBe("deep\n");
    expect(read(join(root, deep, "up"))).toBe("top\n");
    expect(openDescriptors()).toBeLessThanOrEqual(before + 2); // the walks' folders held for later
  });
});
