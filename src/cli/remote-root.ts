/**
 * Which machine a command works on. Paths written `HOST:PATH`, as scp reads
 * them, are on that host when it is configured (--remote, .splice/config.json):
 * a command whose path arguments are all on one host runs with that host's
 * project as its root (found there as git finds a repository), as
 * `--root HOST:DIR` does. Two machines in one command is a usage error, and
 * so is a host that is not configured: `nobox:/srv` would otherwise be a
 * local folder named `nobox:`.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { STATE_FOLDER } from "../util/state-folder.js";
import { type Remotes, remotePath, transportFor } from "../workspace/remote/hosts.js";
import { projectRootScript } from "../workspace/remote/scripts.js";
import { UsageError } from "./define.js";
import { type ChosenRoot, chooseRoot } from "./root.js";
import { ENGINE_COMMANDS } from "./routing.js";

/** Where the command works, and the remote path arguments as the root's host knows them. */
export interface Placed {
  chosen: ChosenRoot;
  /** The root is on another machine: paths are the root's as typed, not relative to here. */
  onHost: boolean;
  /** Each `HOST:PATH` argument as `HOST:ABSOLUTE` (its folder's links resolved there). */
  paths: ReadonlyMap<string, string>;
}

const NAME = "[A-Za-z0-9_][A-Za-z0-9_.-]*";
/** `nobox:/srv/app`, `nobox:~/app`: a path that means a host (a root: any `nobox:` prefix). */
const LOOKS_REMOTE = new RegExp(`^(${NAME}):[/~]`);
const ROOT_ON_HOST = new RegExp(`^(${NAME}):`);

function shell(word: string): string {
  return /^[\w@%+=:,./~-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** A usage error when `typed` names a host that is not configured (and no local file by that name). */
function refuseUnknownHost(typed: string, remotes: Remotes, cwd: string, root: boolean): void {
  if (remotePath(typed, remotes)) return;
  const host = (root ? ROOT_ON_HOST : LOOKS_REMOTE).exec(typed)?.[1];
  if (host === undefined || existsSync(resolve(cwd, typed))) return;
  const known = Object.keys(remotes);
  const ssh = `ssh -o BatchMode=yes user@${host}`;
  throw new UsageError(
    `splice: ${typed} names the host "${host}", which is not configured${known.length ? ` (configured: ${known.join(", ")})` : ""}. Configure it with --remote ${host}=${shell(ssh)}, or in .splice/config.json as \`{"remotes": {"${host}": "${ssh}"}}\` (docs/remote.md). A local path with a colon is written ./${typed}.`,
  );
}

function machine(typed: string, remotes: Remotes): string | undefined {
  return remotePath(typed, remotes)?.host;
}

/** Two machines in one command: `a` (on `aHost`, or here) and `b`. */
function mixed(a: string, aHost: string | undefined, b: string, remotes: Remotes): UsageError {
  const on = (host: string | undefined) => (host ? `on ${host}` : "on this machine");
  return new UsageError(
    `splice: ${a} is ${on(aHost)} but ${b} is ${on(machine(b, remotes))}; one command works on one machine. Run one command for each, or give every path as HOST:PATH on the same host.`,
  );
}

/**
 * The root and how path arguments reach it: --root as given (HOST:DIR or a
 * local folder), else the host every `HOST:PATH` argument is on, else the
 * local project found from `cwd`.
 */
export async function placeCommand(
  rootFlag: string | undefined,
  pathArgs: readonly string[],
  remotes: Remotes,
  cwd: string,
): Promise<Placed> {
  if (rootFlag !== undefined) refuseUnknownHost(rootFlag, remotes, cwd, true);
  for (const p of pathArgs) refuseUnknownHost(p, remotes, cwd, false);
  const remote = pathArgs.filter((p) => machine(p, remotes) !== undefined);
  const none = new Map<string, string>();
  if (rootFlag !== undefined) {
    const host = machine(rootFlag, remotes);
    // On a remote root every path is the root's; only another host's path is another machine.
    const other = remote.find((p) => machine(p, remotes) !== host);
    if (other) throw mixed(`--root ${rootFlag}`, host, other, remotes);
    if (host) return { chosen: { root: rootFlag, reason: "--root" }, onHost: true, paths: none };
    return { chosen: chooseRoot(rootFlag, cwd), onHost: false, paths: none };
  }
  if (remote.length === 0)
    return { chosen: chooseRoot(undefined, cwd), onHost: false, paths: none };
  const host = machine(remote[0]!, remotes)!;
  const other = remote.find((p) => machine(p, remotes) !== host);
  if (other) throw mixed(remote[0]!, host, other, remotes);
  const local = pathArgs.find((p) => machine(p, remotes) === undefined && p !== "-");
  if (local !== undefined) throw mixed(remote[0]!, host, local, remotes);
  return projectThere(host, remote, remotes);
}

/** One trip: the project the paths are in there, and each path made absolute there. */
async function projectThere(host: string, typed: string[], remotes: Remotes): Promise<Placed> {
  const there = typed.map((p) => remotePath(p, remotes)!.path);
  const result = await transportFor(host, remotes).run(projectRootScript(there));
  const lines = result.stdout.toString("utf8").split("\n");
  const head = /^OK (\S+) (.*)$/.exec(lines[0] ?? "");
  if (result.code !== 0 || !head) {
    throw new UsageError(
      `splice: could not find the project of ${typed.join(", ")} on ${host}: ${(lines[0] || result.stderr).trim()}`,
    );
  }
  const [, marker, root] = head;
  const paths = new Map(typed.map((p, i) => [p, `${host}:${lines[i + 1] ?? there[i]}`]));
  const found = marker === ".git" || marker === STATE_FOLDER ? marker : undefined;
  const chosen: ChosenRoot = {
    root: `${host}:${root}`,
    reason: "HOST:PATH",
    ...(found ? { found } : {}),
  };
  return { chosen, onHost: true, paths };
}

/** The lines of a result (stdout) that suggest a command; the others are the files' own text. */
const SUGGESTS =
  /^(?:\u001b\[[0-9;]*m)*(?:Undo it with|Applied|Undid|Restored|Restoring|Checkpoint)\b/;
/** Lines of stderr that quote a file (`12| text`), never rewritten. */
const QUOTED = /^(?:\u001b\[[0-9;]*m)*\s*\d+\| /;

/**
 * What the command prints, for a root its HOST:PATH arguments chose: each
 * `splice CMD` it suggests (`Undo it with: splice undo ID`) names that root,
 * since the same command typed bare works on the project here. On stdout
 * only the lines that suggest a command are read (a diff or a hit may quote
 * "splice read" from a file); on stderr every line but a quoted file line.
 */
export function onSameRoot(text: string, chosen: ChosenRoot, stream: "out" | "err"): string {
  if (chosen.reason !== "HOST:PATH") return text;
  const named = (line: string) =>
    line.replace(/\bsplice (?=[a-z-]+\b)(?!--root\b)/g, (all, at: number) =>
      ENGINE_COMMANDS.has(/^[a-z-]+/.exec(line.slice(at + all.length))![0])
        ? `splice --root ${chosen.root} `
        : all,
    );
  return text
    .split("\n")
    .map((line) =>
      (stream === "out" ? SUGGESTS.test(line) : !QUOTED.test(line)) ? named(line) : line,
    )
    .join("\n");
}
