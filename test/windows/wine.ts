/**
 * splice's Windows build run under Wine: the prefix, Node's Windows binary
 * and the win32 install come from scripts/windows/setup.sh, run once per
 * test file (it is idempotent and quick when nothing changed). Projects
 * live on the Wine drive C:, so splice sees real Windows paths.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { it } from "vitest";

const SETUP = fileURLToPath(new URL("../../scripts/windows/setup.sh", import.meta.url));

export interface Wine {
  wine: string;
  env: NodeJS.ProcessEnv;
  /** node.exe, and splice's bin as Windows paths: argv for Wine. */
  argv: string[];
  /** The Linux folder of the Wine drive C:. */
  driveC: string;
}

let prepared: Wine | undefined;

/** Runs setup.sh (the build is the npm script's: SPLICE_WINE_SKIP_BUILD) and reads what it printed. */
export function wine(): Wine {
  if (prepared) return prepared;
  const out = execFileSync("bash", [SETUP], {
    encoding: "utf8",
    env: { ...process.env, SPLICE_WINE_SKIP_BUILD: "1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const vars = new Map<string, string>();
  for (const line of out.trim().split("\n")) {
    const eq = line.indexOf("=");
    if (/^[A-Z_]+=/.test(line)) vars.set(line.slice(0, eq), line.slice(eq + 1));
  }
  const value = (key: string): string => {
    const found = vars.get(key);
    if (!found) throw new Error(`setup.sh printed no ${key}; it printed: ${out}`);
    return found;
  };
  const env = {
    ...process.env,
    WINEPREFIX: value("WINEPREFIX"),
    WINEDEBUG: "-all",
    WINEDLLOVERRIDES: "mscoree,mshtml=",
    SPLICE_ENGINE: "0",
  };
  const splice = join(value("SPLICE_STAGE"), "node_modules/splice-tools/bin/splice");
  const ready: Wine = {
    wine: value("WINE"),
    env,
    argv: [value("NODE_EXE"), toWindows(splice)],
    driveC: join(value("WINEPREFIX"), "drive_c"),
  };
  prepared = ready;
  return ready;
}

/** A Linux path as Wine's Z: drive (the whole Linux tree) names it. */
export function toWindows(linux: string): string {
  return `Z:${linux.replaceAll("/", "\\")}`;
}

export interface WinProject {
  /** The folder as Linux sees it. */
  linux: string;
  /** The same folder as Windows names it: C:\splice-win-XXXX. */
  win: string;
  put(rel: string, text: string): void;
}

/** A fresh folder on the Wine drive C:. */
export function winProject(): WinProject {
  const { driveC } = wine();
  const linux = mkdtempSync(join(driveC, "splice-win-"));
  return {
    linux,
    win: `C:\\${basename(linux)}`,
    put(rel, text) {
      const at = join(linux, rel);
      mkdirSync(dirname(at), { recursive: true });
      writeFileSync(at, text);
    },
  };
}

/**
 * A long-running splice under Wine (serve) spoken to through pipes: Node's
 * `stdio: "pipe"` are socket pairs, which Wine's node.exe cannot use as its
 * stdin and stdout (EBADF), so `cat` stands between them and real pipes.
 */
export function pipedSplice(args: string[]): { command: string; args: string[] } {
  const w = wine();
  const line = 'cat | "$0" "$@" 2>/dev/null | cat';
  return { command: "sh", args: ["-c", line, w.wine, ...w.argv, ...args] };
}

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * One `splice` command under Wine, in-process (SPLICE_ENGINE=0) unless
 * `engine`. Output always goes to pipes: Wine's console is the limit.
 */
export function splice(
  args: string[],
  options: { cwd?: string; input?: string; engine?: boolean } = {},
): Ran {
  const w = wine();
  const env = options.engine ? { ...w.env, SPLICE_ENGINE: undefined } : w.env;
  // Files, not pipes: Wine hands a Linux pipe to node.exe as a handle its
  // stdout and stderr streams cannot open (EBADF).
  const dir = mkdtempSync(join(tmpdir(), "splice-wine-io-"));
  const [input, out, err] = ["in", "out", "err"].map((name) => join(dir, name)) as [
    string,
    string,
    string,
  ];
  writeFileSync(input, options.input ?? "");
  const fds = [openSync(input, "r"), openSync(out, "w"), openSync(err, "w")];
  try {
    const ran = spawnSync(w.wine, [...w.argv, ...args], {
      cwd: options.cwd,
      env,
      stdio: fds,
      timeout: 100_000,
    });
    return {
      status: ran.status,
      stdout: readFileSync(out, "utf8"),
      stderr: readFileSync(err, "utf8"),
    };
  } finally {
    for (const fd of fds) closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A test that fails today for a real Windows bug, named in its title: `it.fails`,
 * so a fix turns the lane red until the mark goes. SPLICE_WINE_SHOW_FAILS=1
 * runs them as plain tests, to read why each one fails.
 */
export function knownBug(title: string, test: () => unknown): void {
  (process.env.SPLICE_WINE_SHOW_FAILS === "1" ? it : it.fails)(title, test);
}
