/**
 * Deletes racing an outside writer: a child process replaces a file over and
 * over (write a temp file, rename it in, as editors and formatters do) while
 * splice deletes whatever version it last read with removeIf. A delete may
 * remove only the version it compared; the child, holding each version it
 * wrote open, notices any version that vanished before it replaced it itself.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LocalWorkspace } from "../../src/index.js";

/** Writes versions 1, 2, ... of `path`; prints each version that was removed by someone else. */
const WRITER = `
const fs = require("node:fs");
const [path, ms] = process.argv.slice(1);
const until = Date.now() + Number(ms);
let previous;
for (let i = 1; Date.now() < until; i++) {
  const temp = path + ".w" + i;
  const fd = fs.openSync(temp, "w");
  fs.writeSync(fd, "v" + i + "\\n");
  if (previous && fs.fstatSync(previous.fd).nlink === 0) console.log("gone " + previous.i);
  if (previous) fs.closeSync(previous.fd);
  fs.renameSync(temp, path);
  previous = { fd, i };
}
console.log("done");
`;

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe.runIf(process.platform === "linux")("a delete racing an outside writer", () => {
  it("removes only the version it compared, never one written after the compare", async () => {
    const root = mkdtempSync(join(tmpdir(), "splice-delete-race-"));
    dirs.push(root);
    const path = join(root, "f.txt");
    const workspace = new LocalWorkspace({ confineTo: root, durable: false });
    const child = spawn(process.execPath, ["-e", WRITER, path, "2000"], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    const removed = new Set<number>();
    let refused = 0;
    while (!out.includes("done")) {
      const bytes = await workspace.readFile(path).catch(() => undefined);
      if (!bytes) {
        await new Promise((r) => setImmediate(r));
        continue;
      }
      const version = Number(/^v(\d+)/.exec(Buffer.from(bytes).toString())?.[1]);
      if (await workspace.removeIf(path, sha(bytes))) removed.add(version);
      else refused++;
    }
    await exited;
    const gone = [...out.matchAll(/gone (\d+)/g)].map((m) => Number(m[1]));
    // Every version that vanished under the writer is one a delete compared and removed.
    expect(gone.filter((v) => !removed.has(v))).toEqual([]);
    expect(removed.size).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    // Nothing of splice's is left: no file moved aside and forgotten.
    expect(readdirSync(root).filter((n) => n.includes(".splice-"))).toEqual([]);
  }, 20_000);
});
