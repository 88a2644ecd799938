/**
 * History's staged blobs left by a killed writer: swept by the next blob
 * written in that folder once the writer (pid and start time) is gone, kept
 * while it lives.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sha256 } from "../../src/util/hash.js";
import { startTime } from "../../src/workspace/holder.js";
import { bytes, openHistory } from "./helpers.js";

/** A pid whose process has exited, with the start time it had. */
function deadWriter(): { pid: number; start: string } {
  const child = spawnSync(process.execPath, [
    "-e",
    `const s = require("fs").readFileSync("/proc/self/stat", "utf8"); process.stdout.write(process.pid + " " + s.slice(s.lastIndexOf(")") + 2).split(" ")[19]);`,
  ]);
  const [pid, start] = child.stdout.toString().split(" ");
  return { pid: Number(pid), start: start! };
}

describe.runIf(process.platform === "linux")("a staged blob left by a killed writer", () => {
  it("is removed by the next blob written in its folder, unless its writer lives or it is fresh", async () => {
    const history = openHistory();
    const content = bytes("the next blob\n");
    const fanout = join(history.dir, "blobs", sha256(content).slice(0, 2));
    mkdirSync(fanout, { recursive: true });
    const dead = deadWriter();
    const live = spawn("sleep", ["30"]);
    try {
      const liveStart = startTime(live.pid!)!;
      const old = new Date(Date.now() - 10_000);
      const plant = (name: string, aged = true) => {
        const path = join(fanout, name);
        writeFileSync(path, "half a blob");
        if (aged) utimesSync(path, old, old);
        return path;
      };
      const gone = plant(`.tmp-w-${dead.pid}-${dead.start}-0123456789ab`);
      const reused = plant(`.tmp-w-${live.pid}-${Number(liveStart) - 1}-0123456789ac`);
      const fresh = plant(`.tmp-w-${dead.pid}-${dead.start}-0123456789ad`, false);
      const alive = plant(`.tmp-w-${live.pid}-${liveStart}-0123456789ae`);
      history.putBlob(content);
      expect([gone, reused, fresh, alive].map(existsSync)).toEqual([false, false, true, true]);
      expect(history.getBlob(sha256(content))).toEqual(content);
    } finally {
      live.kill();
    }
  });
});
