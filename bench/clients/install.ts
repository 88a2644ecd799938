/**
 * Pinned client versions, installed on demand with npm into a cache folder
 * outside the repository (~/.cache/splice-clients/<client>@<version>, or
 * $SPLICE_CLIENTS_CACHE), so `npm ci` and `npm test` never fetch them.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

const INSTALL_TIMEOUT_MS = 10 * 60_000;

export function cacheRoot(): string {
  return process.env.SPLICE_CLIENTS_CACHE ?? join(homedir(), ".cache", "splice-clients");
}

export interface Installed {
  /** The package's bin, ready to spawn. */
  bin: string;
  dir: string;
}

/** Installs `pkg@version` once; fails with what to try when npm cannot. */
export async function ensureInstalled(
  pkg: string,
  version: string,
  bin: string,
): Promise<Installed> {
  const dir = join(cacheRoot(), `${pkg.replace(/^@/, "").replace("/", "-")}@${version}`);
  const path = join(dir, "node_modules", ".bin", bin);
  if (existsSync(path)) return { bin: path, dir };
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), '{ "private": true }\n');
  const args = ["install", "--no-audit", "--no-fund", "--no-save", `${pkg}@${version}`];
  const outcome = await new Promise<string | undefined>((resolve) => {
    execFile("npm", args, { cwd: dir, timeout: INSTALL_TIMEOUT_MS }, (error, _stdout, stderr) =>
      resolve(error ? `${error.message.split("\n")[0]}\n${stderr.trim().slice(-1500)}` : undefined),
    );
  });
  if (outcome !== undefined || !existsSync(path)) {
    throw new Error(
      `Could not install ${pkg}@${version} into ${dir} (npm ${args.join(" ")}): ${outcome ?? `no ${bin} after install`}. Check that the npm registry is reachable (npm ping), or remove ${dir} and try again.`,
    );
  }
  return { bin: path, dir };
}
