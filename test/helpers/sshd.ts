/**
 * A real OpenSSH server on 127.0.0.1 for the remote-workspace tests: a
 * random port, a throwaway host key and user key, its own sshd_config, run
 * in the foreground as a child of the test.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";

export const SSHD = ["/usr/sbin/sshd", "/usr/local/sbin/sshd"].find((p) => existsSync(p));

/** Why the ssh tests cannot run here, or undefined when they can (under CI they must). */
export function sshdMissing(): string | undefined {
  if (SSHD && hasSsh()) return undefined;
  const why = "openssh-server (sshd) or openssh-client (ssh, ssh-keygen) is not installed";
  if (process.env.CI)
    throw new Error(`${why}, and CI must run the ssh tests (.ci/run installs it)`);
  return why;
}

function hasSsh(): boolean {
  try {
    execFileSync("ssh", ["-V"], { stdio: "ignore" });
    execFileSync("ssh-keygen", ["-?"], { stdio: "ignore" });
    return true;
  } catch (error) {
    // ssh-keygen -? exits 1 after printing its usage: it is there.
    return (error as NodeJS.ErrnoException).code !== "ENOENT";
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export interface Sshd {
  /** The transport's words: `ssh -i KEY -p PORT ... user@127.0.0.1`. */
  ssh: string[];
  port: number;
  stop(): Promise<void>;
}

export async function startSshd(): Promise<Sshd> {
  const dir = mkdtempSync(join(tmpdir(), "splice-sshd-"));
  const key = (name: string) => {
    execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", join(dir, name)]);
    return join(dir, name);
  };
  const hostKey = key("host_key");
  const userKey = key("user_key");
  writeFileSync(join(dir, "authorized_keys"), readFileSync(`${userKey}.pub`));
  const port = await freePort();
  const user = userInfo().username;
  const config = join(dir, "sshd_config");
  writeFileSync(
    config,
    [
      `Port ${port}`,
      "ListenAddress 127.0.0.1",
      `HostKey ${hostKey}`,
      `AuthorizedKeysFile ${join(dir, "authorized_keys")}`,
      `PidFile ${join(dir, "sshd.pid")}`,
      "StrictModes no",
      "UsePAM no",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "PermitRootLogin prohibit-password",
      `AllowUsers ${user}`,
      "MaxSessions 20",
      "MaxStartups 20:30:60",
      "LogLevel ERROR",
      "",
    ].join("\n"),
  );
  // sshd started by root wants its privilege-separation folder.
  if (process.getuid?.() === 0) mkdirSync("/run/sshd", { recursive: true });
  const child: ChildProcess = spawn(SSHD!, ["-D", "-e", "-f", config], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  child.stderr?.on("data", (c: Buffer) => {
    log += c.toString();
  });
  const ssh = [
    "ssh",
    "-i",
    userKey,
    "-p",
    String(port),
    "-o",
    "BatchMode=yes",
    "-o",
    "StrictHostKeyChecking=no",
    "-o",
    "UserKnownHostsFile=/dev/null",
    "-o",
    "LogLevel=ERROR",
    `${user}@127.0.0.1`,
  ];
  // Up once a bare command goes through.
  for (let i = 0; ; i++) {
    try {
      execFileSync(ssh[0]!, [...ssh.slice(1), "true"], { stdio: "ignore", timeout: 5000 });
      break;
    } catch {
      if (i > 50 || child.exitCode !== null) {
        child.kill();
        throw new Error(`sshd did not come up on port ${port}: ${log}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    ssh,
    port,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill();
      }),
  };
}

/**
 * One sshd for a test file, started before its tests and stopped after them
 * (none where sshd is missing: `missing` says why, for the skip).
 */
export function sshdForFile(): { missing: string | undefined; get: () => Sshd } {
  const missing = sshdMissing();
  let sshd: Sshd | undefined;
  beforeAll(async () => {
    if (!missing) sshd = await startSshd();
  }, 30_000);
  afterAll(async () => {
    await sshd?.stop();
  });
  return {
    missing,
    get: () => {
      if (!sshd) throw new Error("sshd is not running (sshdForFile's beforeAll has not run)");
      return sshd;
    },
  };
}
