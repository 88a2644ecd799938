/**
 * Add-ons: npm packages splice can use but does not install by default
 * (grammars beyond the common languages, the TypeScript native and Python
 * language servers). One is found, in order, where splice itself resolves
 * packages (so a project that depends on `@ast-grep/lang-swift` next to
 * splice gets it), then in splice's add-on folder, where `splice lang add`
 * installs. The versions splice was tested with are its package.json's
 * optional peerDependencies.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

const PACKAGE_JSON = new URL("../../package.json", import.meta.url);
const fromSplice = createRequire(PACKAGE_JSON);

/** Where `splice lang add` installs: $SPLICE_ADDONS, else the user's data folder. */
export function addonDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SPLICE_ADDONS) return env.SPLICE_ADDONS;
  const data = env.XDG_DATA_HOME || join(homedir(), ".local", "share");
  return join(data, "splice", "addons");
}

export interface FoundAddon {
  /** The package's folder. */
  dir: string;
  /** Where it was found: beside splice (its dependencies or the project's), or in the add-on folder. */
  from: "splice" | "addons";
}

function packageFolder(require: NodeJS.Require, pkg: string): string | undefined {
  try {
    return dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    return undefined;
  }
}

/** An add-on package's folder, or undefined when it is installed nowhere splice looks. */
export function findAddon(pkg: string, dir = addonDir()): FoundAddon | undefined {
  const beside = packageFolder(fromSplice, pkg);
  if (beside) return { dir: beside, from: "splice" };
  const installed = packageFolder(createRequire(join(dir, "package.json")), pkg);
  return installed ? { dir: installed, from: "addons" } : undefined;
}

/** `require` of an add-on found by findAddon. */
export function requireAddon(found: FoundAddon): unknown {
  return createRequire(join(found.dir, "package.json"))(found.dir);
}

let pins: Record<string, string> | undefined;

/** The version of `pkg` splice was tested with (its optional peer dependency), if it names one. */
export function pinnedVersion(pkg: string): string | undefined {
  pins ??= JSON.parse(readFileSync(PACKAGE_JSON, "utf8")).peerDependencies ?? {};
  return pins![pkg];
}
