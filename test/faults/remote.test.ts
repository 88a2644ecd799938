/**
 * A remote workspace when things go wrong: the connection drops mid-write
 * (the transport is killed), a file changes there between read and write,
 * a command there outlives its caller. Over a real OpenSSH server on
 * 127.0.0.1, and over sh -c.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RemoteWorkspace } from "../../src/workspace/remote/remote-workspace.js";
import { shQuote, Transport } from "../../src/workspace/remote/transport.js";
import { sshdForFile } from "../helpers/sshd.js";

const sshd = sshdForFile();
const noSshd = sshd.missing;

const sha = (b: Uint8Array | string) => createHash("sha256").update(b).digest("hex");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether process `pid` (of this machine, where "there" is) still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms = 5000): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 50) {
    if (check()) return true;
    await sleep(50);
  }
  return check();
}

describe.skipIf(noSshd)(
  `a remote workspace over ssh, when it fails${noSshd ? ` (skipped: ${noSshd})` : ""}`,
  () => {
    it("leaves the old file or the new one, never a torn one, when the connection drops mid-write", async () => {
      const dir = mkdtempSync(join(tmpdir(), "splice-remote-fault-"));
      const path = join(dir, "big.bin");
      const old = Buffer.alloc(1 << 20, "o");
      writeFileSync(path, old);
      const next = Buffer.alloc(48 << 20, "n");
      const outcomes: string[] = [];
      for (const killAfter of [0.05, 0.15, 0.4, 1]) {
        // The real transport runs in the background and is killed (-9) mid-way: a dropped connection.
        const cut = `${sshd.get().ssh.map(shQuote).join(" ")} "$1" & P=$!; sleep ${killAfter}; kill -9 $P 2>/dev/null; wait $P; exit 255`;
        const ws = new RemoteWorkspace(new Transport("box", ["sh", "-c", cut, "cut"]), {
          confineTo: dir,
        });
        const result = await ws.writeFile(path, next).then(
          () => "written",
          (error: { details?: { reason?: string } }) => error.details?.reason ?? "error",
        );
        const now = readFileSync(path);
        const which = sha(now) === sha(old) ? "old" : sha(now) === sha(next) ? "new" : "torn";
        outcomes.push(`${result}:${which}`);
        expect(which).not.toBe("torn");
        if (which === "new") writeFileSync(path, old);
      }
      // At least one write was cut off; the staged file is cleaned up there once its shell ends.
      expect(outcomes.some((o) => o === "remote_unreachable:old")).toBe(true);
      expect(await until(() => readdirSync(dir).length === 1)).toBe(true);
    }, 60_000);

    it("stops a command there when the connection is lost, and when its stdin ends", async () => {
      const dir = mkdtempSync(join(tmpdir(), "splice-remote-spawn-"));
      const ws = new RemoteWorkspace(new Transport("box", sshd.get().ssh), { confineTo: dir });
      for (const end of ["kill", "stdin"] as const) {
        const pidFile = join(dir, `${end}.pid`);
        const child = await ws.shell.spawn(dir, `sleep 60 & echo $! > ${shQuote(pidFile)}; wait`);
        expect(await until(() => readdirSync(dir).includes(`${end}.pid`))).toBe(true);
        await sleep(100);
        const pid = Number(readFileSync(pidFile, "utf8"));
        expect(alive(pid)).toBe(true);
        if (end === "kill")
          child.kill("SIGKILL"); // the ssh client dies: the connection is gone
        else child.stdin.end(); // a timeout or a cancel
        expect(await until(() => !alive(pid))).toBe(true);
      }
      await ws.transport.close();
    }, 30_000);
  },
);

describe("a remote workspace over sh -c, when it fails", () => {
  it("refuses a compare-and-swap when the file changed there after it was read", async () => {
    const dir = mkdtempSync(join(tmpdir(), "splice-remote-cas-"));
    const ws = new RemoteWorkspace(new Transport("local", ["sh", "-c"]), { confineTo: dir });
    const path = join(dir, "f.txt");
    writeFileSync(path, "v1\n");
    const seen = await ws.readFile(path);
    writeFileSync(path, "someone else\n"); // written there, by another program
    expect(await ws.writeIf(path, Buffer.from("mine\n"), sha(seen))).toBe(false);
    // Also when the change lands while history records (between the two trips).
    writeFileSync(path, "v1\n");
    const refused = await ws.writeIf(path, Buffer.from("mine\n"), sha("v1\n"), {
      beforeReplace: () => writeFileSync(path, "late change\n"),
    });
    expect(refused).toBe(false);
    expect(readFileSync(path, "utf8")).toBe("late change\n");
    expect(readdirSync(dir)).toEqual(["f.txt"]);
  });

  it("stops a command there when its stdin ends", async () => {
    const dir = mkdtempSync(join(tmpdir(), "splice-remote-spawn-"));
    const ws = new RemoteWorkspace(new Transport("local", ["sh", "-c"]), { confineTo: dir });
    const pidFile = join(dir, "pid");
    const child = await ws.shell.spawn(dir, `sleep 60 & echo $! > ${shQuote(pidFile)}; wait`);
    expect(await until(() => readdirSync(dir).includes("pid"))).toBe(true);
    await sleep(100);
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(alive(pid)).toBe(true);
    child.stdin.end();
    expect(await until(() => !alive(pid))).toBe(true);
    expect(await until(() => child.exitCode !== null)).toBe(true);
    expect(child.exitCode).not.toBe(0);
  });
});
