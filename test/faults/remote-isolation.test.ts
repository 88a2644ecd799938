/**
 * A transport that isolates what it runs, the way `docker exec` and
 * `kubectl exec` put a command in a container: `unshare --fork --pid
 * --mount-proc --kill-child sh -c` runs the far side in a PID namespace of
 * its own. A command there that slips out of its process group (setsid) is
 * still stopped when the transport ends: the namespace's first process goes
 * and the kernel takes every other one with it. Over plain `sh -c` the same
 * escaped process lives on — which is what the isolating transport adds.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RemoteWorkspace } from "../../src/workspace/remote/remote-workspace.js";
import { Transport } from "../../src/workspace/remote/transport.js";

const UNSHARE = ["unshare", "--fork", "--pid", "--mount-proc", "--kill-child", "sh", "-c"];

/** Why this machine cannot make PID namespaces (not root, no user namespaces), or undefined. */
function cannotUnshare(): string | undefined {
  const probe = spawnSync(UNSHARE[0]!, [...UNSHARE.slice(1), "true"], { encoding: "utf8" });
  if (probe.error) return `unshare is not installed (${probe.error.message})`;
  if (probe.status !== 0) return `unshare cannot make a PID namespace here: ${probe.stderr.trim()}`;
  return undefined;
}

const missing = cannotUnshare();

/** The pids here of processes whose command line holds `marker`. */
function running(marker: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").includes(marker)) pids.push(Number(name));
    } catch {
      // gone while listing
    }
  }
  return pids;
}

async function until(check: () => boolean, ms = 5000): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 50) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** Starts a command there that leaves a `sleep` outside its own group, and waits until it runs. */
async function escapee(transport: readonly string[], marker: string) {
  const root = mkdtempSync(join(tmpdir(), "splice-isolation-"));
  const ws = new RemoteWorkspace(new Transport("box", transport), { confineTo: root });
  const child = await ws.shell.spawn(
    root,
    `setsid sleep ${marker} </dev/null >/dev/null 2>&1 & echo started; wait`,
  );
  await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
  expect(await until(() => running(`sleep\0${marker}`).length === 1)).toBe(true);
  return child;
}

describe.skipIf(missing)(
  `an isolating transport (unshare)${missing ? ` (skipped: ${missing})` : ""}`,
  () => {
    it("stops a command that left its group when the transport's stdin ends", async () => {
      const marker = "313.25";
      const child = await escapee(UNSHARE, marker);
      child.stdin.end();
      expect(await until(() => running(`sleep\0${marker}`).length === 0)).toBe(true);
    });

    it("stops it when the transport itself is killed (a lost connection)", async () => {
      const marker = "313.5";
      const child = await escapee(UNSHARE, marker);
      child.kill("SIGKILL");
      expect(await until(() => running(`sleep\0${marker}`).length === 0)).toBe(true);
    });

    it("is what plain sh -c lacks: there the escaped command outlives the transport", async () => {
      const marker = "313.75";
      const child = await escapee(["sh", "-c"], marker);
      child.stdin.end();
      await new Promise((r) => child.once("close", r));
      const left = running(`sleep\0${marker}`);
      expect(left).toHaveLength(1);
      for (const pid of left) process.kill(pid, "SIGKILL");
    });
  },
);
