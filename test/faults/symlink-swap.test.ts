/**
 * A folder inside the root swapped with a symlink to an outside folder, by a
 * real child process, while splice reads and writes under it: not one byte
 * may be read from or written to the outside folder. The long version is
 * `npm run bench -- reliability-confine`.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LocalWorkspace } from "../../src/index.js";
import { STRONG } from "../../src/workspace/beneath.js";
import { raceTools, raceWorkspace, swapScene } from "./swap-race.js";
import { startSwapper } from "./swapper.js";

describe.runIf(process.platform === "linux")("a folder swapped with a link out of the root", () => {
  it("lets no read, stat, list, write, mkdir or delete through in 10,000 attempts", async () => {
    const scene = swapScene();
    const workspace = new LocalWorkspace({ confineTo: scene.root, durable: false });
    const swapper = await startSwapper(scene.folder, scene.link);
    let tally: Awaited<ReturnType<typeof raceWorkspace>>;
    try {
      tally = await raceWorkspace(scene, workspace, { attempts: 10_000, ms: 12_000 });
    } finally {
      await swapper.stop();
    }
    const outside = scene.outsideChanges();
    expect({ escapes: tally.escapes, outside }).toEqual({ escapes: [], outside: [] });
    expect(tally.attempts).toBeGreaterThanOrEqual(10_000);
    // The race was live: some calls met the link and were refused.
    expect(tally.refused).toBeGreaterThan(0);
    if (STRONG) expect(tally.done).toBeGreaterThan(0);
  }, 30_000);

  it("lets no outside byte into a read, search, write, edit or file result", async () => {
    const scene = swapScene();
    const swapper = await startSwapper(scene.folder, scene.link);
    let tally: Awaited<ReturnType<typeof raceTools>>;
    try {
      tally = await raceTools(scene, { attempts: 600, ms: 8_000 });
    } finally {
      await swapper.stop();
    }
    expect({ escapes: tally.escapes, outside: scene.outsideChanges() }).toEqual({
      escapes: [],
      outside: [],
    });
    expect(tally.refused).toBeGreaterThan(0);
  }, 30_000);
});

describe("the swap helper itself", () => {
  it.runIf(process.platform === "linux")(
    "really exposes the outside folder to a plain read",
    async () => {
      // Without confinement the same race reads outside bytes: the test above can fail.
      const base = mkdtempSync(join(tmpdir(), "splice-swap-plain-"));
      const root = join(base, "root");
      const outside = join(base, "outside");
      mkdirSync(join(root, "d"), { recursive: true });
      mkdirSync(outside);
      writeFileSync(join(root, "d", "f.txt"), "inside\n");
      writeFileSync(join(outside, "f.txt"), "OUTSIDE\n");
      symlinkSync(outside, join(root, "link"));
      const plain = new LocalWorkspace({ durable: false });
      const swapper = await startSwapper(join(root, "d"), join(root, "link"));
      let leaked = 0;
      try {
        for (let i = 0; i < 20_000 && leaked === 0; i++) {
          const bytes = await plain.readFile(join(root, "d", "f.txt")).catch(() => undefined);
          if (bytes && Buffer.from(bytes).toString() === "OUTSIDE\n") leaked++;
        }
      } finally {
        await swapper.stop();
      }
      expect(leaked).toBeGreaterThan(0);
      expect(readdirSync(outside).sort()).toEqual(["f.txt"]);
      expect(readFileSync(join(root, "d", "f.txt"), "utf8")).toBe("inside\n");
    },
    30_000,
  );
});
