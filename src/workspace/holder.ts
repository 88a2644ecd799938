/**
 * Who holds a lock, in a form another process can check: pid, the process's
 * start time and the host it runs on. A holder on this host is gone only
 * when its pid is gone, or now names a process that started later (a reused
 * pid); a stopped process (Ctrl-Z, SIGSTOP, a debugger) is alive. A holder on
 * another host, or in another pid namespace, cannot be checked that way, so it
 * proves it lives by a heartbeat (file-lock.ts).
 */
import { readFileSync, readlinkSync } from "node:fs";
import { hostname } from "node:os";
import { sha256 } from "../util/hash.js";
import { randomId } from "../util/ids.js";

export interface Holder {
  pid: number;
  /** Start time in clock ticks since boot (/proc/PID/stat field 22); "0" where there is no /proc. */
  start: string;
  /** The host and pid namespace the pid means something in (12 hex). */
  host: string;
  /** Random: makes each process's holder file name its own. */
  token: string;
}

function readOr(read: () => string, fallback: string): string {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/**
 * Pids are comparable only within one boot and one pid namespace: a container
 * sharing the folder sees other pids (or none), so it counts as another host.
 */
function hostId(): string {
  const boot = readOr(() => readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim(), "");
  const pidNamespace = readOr(() => readlinkSync("/proc/self/ns/pid"), "");
  return sha256(`${hostname()}\0${boot}\0${pidNamespace}`).slice(0, 12);
}

/**
 * A process's start time, "0" where the system has no /proc (its pid alone is
 * checked then), or undefined when the process is gone — a zombie too: it has
 * exited and holds nothing.
 */
export function startTime(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ESRCH") return existsWithoutProc(pid) ? "0" : undefined;
    return "0"; // unreadable, not missing: assume it runs
  }
  // The name in parentheses may hold spaces and parentheses; the fields follow the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  if (fields[0] === "Z" || fields[0] === "X") return undefined;
  return fields[19] ?? "0";
}

let procMounted: boolean | undefined;

/** Without /proc (macOS, BSD), signal 0 says whether the pid exists. */
function existsWithoutProc(pid: number): boolean {
  procMounted ??= readOr(() => readFileSync("/proc/self/stat", "utf8"), "") !== "";
  if (procMounted) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

let self: Omit<Holder, "token"> | undefined;

/** This process as a holder, with a fresh token. */
export function newHolder(): Holder {
  self ??= { pid: process.pid, start: startTime(process.pid) ?? "0", host: hostId() };
  return { ...self, token: randomId(4) };
}

/** `pid.start.host.token`: short enough to live inside a symlink's inode (under 60 bytes). */
export function encodeHolder(holder: Holder): string {
  return `${holder.pid}.${holder.start}.${holder.host}.${holder.token}`;
}

export function decodeHolder(text: string): Holder | undefined {
  const m = /^(\d+)\.(\d+)\.([0-9a-f]{12})\.([0-9a-f]+)$/.exec(text);
  if (!m) return undefined;
  return { pid: Number(m[1]), start: m[2]!, host: m[3]!, token: m[4]! };
}

export type Liveness = "alive" | "gone" | "elsewhere";

/**
 * Whether a holder still runs. "elsewhere": on another host or pid namespace,
 * where only its heartbeat can tell. A lock naming this process is alive only
 * while this process holds it (`heldHere`): one it no longer holds was left by
 * a release that failed.
 */
export function liveness(holder: Holder, heldHere: boolean): Liveness {
  const me = newHolder();
  if (holder.host !== me.host) return "elsewhere";
  if (holder.pid === me.pid && holder.start === me.start) return heldHere ? "alive" : "gone";
  const start = startTime(holder.pid);
  if (start === undefined) return "gone";
  return start === holder.start || start === "0" || holder.start === "0" ? "alive" : "gone";
}
