/**
 * What installing splice costs: `npm pack` of a commit, then `npm install -g`
 * of the tarball into a clean prefix, timed with a warm npm cache (one
 * unmeasured install first), and the size of what landed. The baseline is
 * the last commit before add-on languages (SPLICE_BENCH_INSTALL_BASE names
 * another); the candidate is HEAD. Both are built from a clean checkout
 * (a git worktree), so uncommitted changes are not measured.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { folderBytes } from "../src/cli/addons.js";
import { defineBenchmark, fixed, formatTable, withScratchDir } from "./lib.js";

const REPO = join(import.meta.dirname, "..");
/** The parent of the commit that made the uncommon languages add-ons. */
const BASE = process.env.SPLICE_BENCH_INSTALL_BASE ?? "b4c9a5a";
const TARGET_MB = 150;
const TARGET_S = 60;

const sh = (cmd: string, args: string[], cwd: string) =>
  execFileSync(cmd, args, {
    cwd,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 64 << 20,
  });

/** The tarball of `ref`, built in a worktree that borrows this clone's node_modules for the build. */
function pack(ref: string, dir: string): string {
  const tree = join(dir, `tree-${ref}`);
  sh("git", ["worktree", "add", "--detach", "--force", tree, ref], REPO);
  try {
    sh("ln", ["-s", join(REPO, "node_modules"), join(tree, "node_modules")], tree);
    sh("npm", ["run", "build"], tree);
    const name = sh("npm", ["pack", "--ignore-scripts", "--pack-destination", dir], tree)
      .trim()
      .split("\n")
      .at(-1)!;
    return join(dir, name);
  } finally {
    sh("git", ["worktree", "remove", "--force", tree], REPO);
  }
}

interface Installed {
  seconds: number;
  bytes: number;
  packages: number;
}

function install(tarball: string, prefix: string): Installed {
  mkdirSync(prefix, { recursive: true });
  const started = performance.now();
  sh("npm", ["install", "-g", "--prefix", prefix, "--no-audit", "--no-fund", tarball], prefix);
  const seconds = (performance.now() - started) / 1000;
  const lib = join(prefix, "lib", "node_modules");
  const spliceDir = readdirSync(lib).map((n) => join(lib, n))[0]!;
  const modules = join(spliceDir, "node_modules");
  const packages = readdirSync(modules).reduce(
    (n, name) => n + (name.startsWith("@") ? readdirSync(join(modules, name)).length : 1),
    0,
  );
  const help = sh(join(prefix, "bin", "splice"), ["--help"], prefix);
  if (!help.includes("splice"))
    throw new Error(`the installed splice did not answer --help: ${help}`);
  return { seconds, bytes: folderBytes(spliceDir), packages };
}

defineBenchmark({
  name: "install",
  description:
    "npm pack + npm install -g on a clean prefix (warm cache): size and time, before and after add-on languages",
  async run() {
    await withScratchDir("splice-bench-install-", async (dir) => {
      const rows: string[][] = [];
      for (const [label, ref] of [
        [`before (${BASE})`, BASE],
        ["now (HEAD)", "HEAD"],
      ] as const) {
        const tarball = pack(ref, dir);
        install(tarball, join(dir, `warm-${ref}`)); // fills the cache
        const r = install(tarball, join(dir, `prefix-${ref}`));
        rows.push([
          label,
          fixed(r.bytes / 1024 / 1024, 0),
          String(r.packages),
          fixed(r.seconds, 1),
        ]);
      }
      console.log(
        formatTable(
          [
            { header: "splice" },
            { header: "installed MiB", right: true },
            { header: "top-level packages", right: true },
            { header: "npm install -g s", right: true },
          ],
          rows,
        ),
      );
      console.log(`\ntargets: installed <= ${TARGET_MB} MB, install <= ${TARGET_S} s (warm cache)`);
    });
  },
});
