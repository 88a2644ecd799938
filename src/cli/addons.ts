/**
 * What `splice lang` lists, adds and removes: the add-on grammars and the
 * two add-on language servers, each an npm package installed into splice's
 * add-on folder with npm itself (util/addons.ts says where splice looks).
 */
import { execFile } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { promisify } from "node:util";
import { grammarCatalog } from "../code/languages.js";
import { ToolError } from "../errors.js";
import { addonDir, findAddon, pinnedVersion } from "../util/addons.js";

const run = promisify(execFile);

export interface Part {
  /** The language id `splice lang add` takes. */
  id: string;
  name: string;
  /** A grammar (reading, outlines, ast edits) or the server that validates edits. */
  part: "grammar" | "server";
  /** Undefined for a grammar built into ast-grep. */
  package?: string;
  /** Installed with splice, or an add-on. */
  addon: boolean;
  /** Why an installed grammar does not load here. */
  problem?: string;
}

const SERVERS: readonly Part[] = [
  {
    id: "typescript",
    name: "TypeScript",
    part: "server",
    package: "@typescript/native-preview",
    addon: true,
  },
  { id: "python", name: "Python", part: "server", package: "pyright", addon: true },
];

/** Every language's grammar, then the add-on servers. */
export function parts(): Part[] {
  const grammars = grammarCatalog().map(
    (g): Part => ({
      id: g.id,
      name: g.name,
      part: "grammar",
      ...(g.package ? { package: g.package } : {}),
      addon: g.addon,
      ...(g.problem ? { problem: g.problem } : {}),
    }),
  );
  return [...grammars, ...SERVERS];
}

/** The add-ons `ids` name ("all": every one), or a usage error naming the unknown id. */
export function addonsNamed(ids: readonly string[]): Part[] {
  const addons = parts().filter((p) => p.addon);
  if (ids.includes("all")) return addons;
  return ids.flatMap((raw) => {
    const id = raw.toLowerCase();
    const found = addons.filter((p) => p.id === id || p.name.toLowerCase() === id);
    if (found.length === 0) {
      const known = parts().find((p) => p.id === id || p.name.toLowerCase() === id);
      const why = known
        ? `${known.name} installs with splice; there is nothing to add.`
        : `"${raw}" is not a language splice knows.`;
      throw new ToolError(
        "invalid_input",
        `${why} Run \`splice lang list\` to see the add-ons, or \`splice lang add all\`.`,
      );
    }
    return found;
  });
}

/** Bytes under a folder, links not followed; the install benchmark measures with it too. */
export function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(path) : lstatSync(path).size;
  }
  return total;
}

const PLATFORM = `${process.platform}-${process.arch}`;

/** An installed package's bytes, with its prebuilt binary for this platform when it has one apart. */
export function installedBytes(dir: string): number {
  const manifest = createRequire(join(dir, "package.json"))("./package.json") as {
    optionalDependencies?: Record<string, string>;
  };
  let total = folderBytes(dir);
  for (const name of Object.keys(manifest.optionalDependencies ?? {})) {
    if (!name.includes(PLATFORM)) continue;
    const native = dependencyFolder(dir, name);
    if (native) total += folderBytes(native);
  }
  return total;
}

function dependencyFolder(dir: string, name: string): string | undefined {
  try {
    return join(createRequire(join(dir, "package.json")).resolve(`${name}/package.json`), "..");
  } catch {
    return undefined;
  }
}

export interface RemoteSize {
  bytes: number;
  /** "unpacked" when the registry reports it, else "download" (the tarballs' length). */
  kind: "unpacked" | "download";
}

const REGISTRY = (process.env.npm_config_registry ?? "https://registry.npmjs.org/").replace(
  /\/?$/,
  "/",
);

interface Manifest {
  dist?: { unpackedSize?: number; tarball?: string };
  optionalDependencies?: Record<string, string>;
}

async function manifest(pkg: string, version: string): Promise<Manifest> {
  const response = await fetch(`${REGISTRY}${pkg.replace("/", "%2f")}/${version}`, {
    signal: AbortSignal.timeout(15_000),
  });
  if (!response.ok) throw new Error(`${response.status}`);
  return (await response.json()) as Manifest;
}

async function distSize(
  dist: Manifest["dist"] = {},
): Promise<{ bytes: number; unpacked: boolean }> {
  if (dist.unpackedSize !== undefined) return { bytes: dist.unpackedSize, unpacked: true };
  const head = dist.tarball
    ? await fetch(dist.tarball, { method: "HEAD", signal: AbortSignal.timeout(15_000) })
    : undefined;
  return { bytes: Number(head?.headers.get("content-length") ?? 0), unpacked: false };
}

/** What installing a version (and its platform binary) costs, by the registry; undefined offline. */
export async function registryBytes(pkg: string, version: string): Promise<RemoteSize | undefined> {
  try {
    const info = await manifest(pkg, version);
    const natives = Object.entries(info.optionalDependencies ?? {}).filter(([name]) =>
      name.includes(PLATFORM),
    );
    const sizes = await Promise.all([
      distSize(info.dist),
      ...natives.map(async ([name, v]) => distSize((await manifest(name, v)).dist)),
    ]);
    const bytes = sizes.reduce((n, s) => n + s.bytes, 0);
    if (bytes === 0) return undefined;
    return { bytes, kind: sizes.every((s) => s.unpacked) ? "unpacked" : "download" };
  } catch {
    return undefined;
  }
}

function versionOf(pkg: string): string {
  const version = pinnedVersion(pkg);
  if (!version) throw new Error(`${pkg} has no pinned version in splice's package.json`);
  return version;
}

/** The add-on folder, made a private npm project so npm installs there and not above it. */
function prepared(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const manifest = join(dir, "package.json");
  if (!existsSync(manifest)) {
    writeFileSync(
      manifest,
      `${JSON.stringify({ name: "splice-addons", private: true }, null, 2)}\n`,
    );
  }
  return dir;
}

async function npm(args: string[]): Promise<void> {
  try {
    await run("npm", args, { timeout: 600_000, maxBuffer: 64 << 20 });
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    const why =
      e.code === "ENOENT"
        ? "npm is not on PATH"
        : (e.stderr ?? e.message).trim().split("\n").slice(-3).join(" ");
    throw new ToolError(
      "io",
      `npm ${args[0]} failed: ${why}. Nothing else was changed; check the network or npm's registry setting, then run the same command again.`,
    );
  }
}

export interface AddResult {
  added: string[];
  /** Already there: beside splice (a project dependency, or a clone's devDependencies) or in the folder. */
  present: string[];
  dir: string;
}

/** Installs the packages of `wanted` that splice cannot find yet, at the versions splice pins. */
export async function addAddons(wanted: readonly Part[], dir = addonDir()): Promise<AddResult> {
  const missing = wanted.filter((p) => !findAddon(p.package!, dir));
  const present = wanted.filter((p) => !missing.includes(p)).map((p) => p.package!);
  if (missing.length > 0) {
    const specs = [...new Set(missing.map((p) => `${p.package}@${versionOf(p.package!)}`))];
    await npm(["install", "--prefix", prepared(dir), "--no-audit", "--no-fund", ...specs]);
    const failed = missing.filter((p) => !findAddon(p.package!, dir));
    if (failed.length > 0) {
      throw new ToolError(
        "io",
        `npm installed ${failed.map((p) => p.package).join(", ")} but splice cannot load it from ${dir}. Remove ${dir} and run the same command again.`,
      );
    }
  }
  return { added: [...new Set(missing.map((p) => p.package!))], present, dir };
}

/** Uninstalls the packages of `wanted` from the add-on folder (ones beside splice are the project's). */
export async function removeAddons(
  wanted: readonly Part[],
  dir = addonDir(),
): Promise<{ removed: string[]; kept: string[]; dir: string }> {
  const inFolder = wanted.filter((p) => findAddon(p.package!, dir)?.from === "addons");
  const kept = wanted.filter((p) => findAddon(p.package!, dir)?.from === "splice");
  const removed = [...new Set(inFolder.map((p) => p.package!))];
  if (removed.length > 0) {
    await npm(["uninstall", "--prefix", dir, "--no-audit", "--no-fund", ...removed]);
  }
  return { removed, kept: kept.map((p) => p.package!), dir };
}
