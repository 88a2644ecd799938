/**
 * Where the engine's socket lives, and which engine a command may use. The
 * folder is private to the user (0700, theirs, no link), so no other user's
 * process can reach an engine; the socket's name is a hash of what the
 * engine's answers depend on — splice's build, node's flags, the environment it reads
 * (SPLICE_* settings, HOME, XDG_STATE_HOME, PATH, where language servers and
 * history are found) — so a command never talks to an engine of another
 * version or set up another way: it starts its own.
 */
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The environment an engine is started with and answers for. The serve
 * token is read from each command's own environment, and shapes nothing.
 */
const SHAPING = /^(SPLICE_(?!ENGINE|TOKEN$)\w+|HOME|XDG_STATE_HOME|XDG_CONFIG_HOME|PATH)$/;

/** What the engine process may not keep: its children (language servers, commands) inherit it. */
export function engineEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { SPLICE_TOKEN: _token, ...rest } = env;
  return rest;
}

/** This build of splice: its bundle's file, as written by the last build. */
export function buildId(): string {
  const self = fileURLToPath(import.meta.url);
  const { size, mtimeMs } = statSync(self);
  return `${size}-${Math.round(mtimeMs)}`;
}

/** The hash naming the engine for this build and environment. */
export function engineKey(env: NodeJS.ProcessEnv, build = buildId()): string {
  const shaping = Object.keys(env)
    .filter((name) => SHAPING.test(name))
    .sort()
    .map((name) => `${name}=${env[name]}`);
  return createHash("sha256")
    .update([build, ...process.execArgv, ...shaping].join("\0"))
    .digest("hex")
    .slice(0, 16);
}

/** The user's private folder for engine sockets; made when missing. */
export function engineFolder(env: NodeJS.ProcessEnv): string {
  const runtime = env.XDG_RUNTIME_DIR;
  const uid = process.getuid?.() ?? 0;
  return runtime ? join(runtime, "splice") : join(tmpdir(), `splice-${uid}`);
}

/**
 * The folder, made private when missing; throws with why when it exists and
 * is not private (another user's, a link, readable by others): an engine
 * there could be someone else's.
 */
export function privateFolder(env: NodeJS.ProcessEnv): string {
  const folder = engineFolder(env);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const s = lstatSync(folder);
  const uid = process.getuid?.();
  if (!s.isDirectory()) throw new Error(`${folder} is not a folder`);
  if (uid !== undefined && s.uid !== uid) throw new Error(`${folder} belongs to another user`);
  if ((s.mode & 0o077) !== 0) {
    throw new Error(
      `${folder} can be reached by other users (mode ${(s.mode & 0o777).toString(8)})`,
    );
  }
  return folder;
}

export function socketPath(folder: string, key: string): string {
  return join(folder, `engine-${key}.sock`);
}

/** The engine's log, beside its socket: what it said since it started. */
export function logPath(folder: string, key: string): string {
  return join(folder, `engine-${key}.log`);
}
