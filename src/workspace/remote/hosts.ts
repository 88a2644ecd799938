/**
 * Remote hosts by name, and paths written `HOST:PATH` the way scp reads
 * them. A name only counts once it is configured (a `remotes` option, a
 * `--remote NAME=COMMAND` flag, or `remotes` in `.splice/config.json`), so
 * a local file name with a colon in it stays local.
 */
import { readFileSync } from "node:fs";
import { ToolError } from "../../errors.js";
import { configFileOf } from "../../util/state-folder.js";
import { Transport } from "./transport.js";

/** Host name → transport command line (or its words). */
export type Remotes = Readonly<Record<string, string | readonly string[]>>;

const HOST_PATH = /^([A-Za-z0-9_][A-Za-z0-9_.-]*):(.*)$/s;

export interface RemotePath {
  host: string;
  path: string;
}

/** `box:/srv/app` as host and path, when `box` is a configured remote; else undefined. */
export function remotePath(path: string, remotes: Remotes | undefined): RemotePath | undefined {
  const m = HOST_PATH.exec(path);
  if (!m || !remotes || !Object.hasOwn(remotes, m[1]!)) return undefined;
  return { host: m[1]!, path: m[2] === "" ? "." : m[2]! };
}

/** `NAME=COMMAND` as given to --remote. */
export function parseRemoteFlag(value: string): [string, string] {
  const eq = value.indexOf("=");
  const name = eq === -1 ? "" : value.slice(0, eq);
  const command = eq === -1 ? "" : value.slice(eq + 1).trim();
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(name) || command === "") {
    throw new ToolError(
      "invalid_input",
      `--remote needs NAME=COMMAND, e.g. --remote box='ssh -o BatchMode=yes dev@box', not "${value}".`,
      { reason: "bad_remote", value },
    );
  }
  return [name, command];
}

/** The `remotes` of the project's config file (`configFileOf`), or none when there is no such file. */
export function projectRemotes(root: string): Remotes {
  const file = configFileOf(root);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return {};
  }
  let remotes: unknown;
  try {
    remotes = (JSON.parse(text) as { remotes?: unknown }).remotes ?? {};
  } catch (error) {
    throw badConfig(file, `it is not valid JSON (${(error as Error).message})`);
  }
  if (typeof remotes !== "object" || remotes === null || Array.isArray(remotes)) {
    throw badConfig(file, `"remotes" must map host names to commands`);
  }
  for (const [name, command] of Object.entries(remotes)) {
    if (typeof command !== "string" && !Array.isArray(command)) {
      throw badConfig(file, `the command of "${name}" must be a string or a list of words`);
    }
  }
  return remotes as Remotes;
}

function badConfig(file: string, why: string): ToolError {
  return new ToolError(
    "invalid_input",
    `${file} could not be used: ${why}. Write it as \`{"remotes": {"box": "ssh -o BatchMode=yes dev@box"}}\`.`,
    { path: file, reason: "bad_config" },
  );
}

const transports = new Map<string, Transport>();

/** One transport per host and command in this process: they share its connection and its limit. */
export function transportFor(host: string, remotes: Remotes): Transport {
  const command = remotes[host];
  if (command === undefined) {
    const known = Object.keys(remotes);
    throw new ToolError(
      "invalid_input",
      `No remote host is named "${host}"${known.length ? ` (known: ${known.join(", ")})` : ""}. Name it first: --remote ${host}='ssh -o BatchMode=yes user@${host}', a "remotes" option, or "remotes" in .splice/config.json.`,
      { host, reason: "unknown_host" },
    );
  }
  const key = `${host}\0${typeof command === "string" ? command : command.join("\0")}`;
  let transport = transports.get(key);
  if (!transport) {
    transport = new Transport(host, command);
    transports.set(key, transport);
  }
  return transport;
}
