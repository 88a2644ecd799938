/**
 * Where the project declares a legacy encoding, as the folders and file names
 * a search reads in it: the `.editorconfig` sections whose `charset` and the
 * `.gitattributes` lines whose `working-tree-encoding` name one, from the
 * searched folder's ancestors and (on a local root) the folders below it.
 * Each rule is widened to a folder and a file-name glob, so a run searches a
 * superset of the declared files; which encoding a file is really in is asked
 * afterwards, file by file, exactly as `read` asks it (a later section that
 * sets UTF-8 again, `root = true`, a pattern's finer points).
 */
import { posix } from "node:path";
import { workingTreeEncodings } from "../../change/encoding-config.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import { rgFiles } from "../../proc/ripgrep.js";
import { type Encoding, encodingNamed } from "../../text/encoding.js";
import type { ToolContext } from "../define.js";

/** One legacy encoding's share of a search. */
export interface EncodedScope {
  encoding: Encoding;
  /** Root-relative folders or files to search in it ("" for the root). */
  targets: string[];
  /** File-name globs (rg's types); undefined when any name may be declared. */
  names: string[] | undefined;
}

interface Rule {
  encoding: Encoding;
  /** Root-relative folder the rule reaches into ("" for the root). */
  folder: string;
  name: string | undefined;
}

const CONFIGS = [".editorconfig", ".gitattributes"] as const;

/** A legacy encoding a config names; undefined for UTF-8 or a name splice does not know. */
function legacy(name: unknown): Encoding | undefined {
  const encoding = typeof name === "string" ? encodingNamed(name) : undefined;
  return encoding === "utf-8" ? undefined : encoding;
}

/**
 * The folder and file name a pattern (editorconfig's or gitattributes') can
 * match below `dir`, widened: the literal folders before its first wildcard,
 * and its last part as a name (any name when that part may cross folders).
 */
export function widen(encoding: Encoding, dir: string, pattern: string): Rule | undefined {
  // A folder's attributes are not its files'; a numeric range {1..9} is widened to *.
  if (pattern.endsWith("/")) return undefined;
  const body = pattern.replace(/^\//, "").replace(/\{-?\d+\.\.-?\d+\}/g, "*");
  const parts = body.split("/");
  const last = parts.pop()!.replaceAll("**", "*");
  const literal: string[] = [];
  for (const part of parts) {
    if (/[*?[\]{}\\]/.test(part)) break;
    literal.push(part);
  }
  // A pattern never climbs out of its config's folder: ".." matches no path below it.
  if (parts.includes("..")) return undefined;
  const folder = posix.join(dir, ...literal).replace(/^\.$/, "");
  // A brace holding a "/" ({a/b,c}) names paths, not names: any name below the folder.
  const crosses = /\{[^}]*\/[^}]*\}/.test(body) || last === "*" || last === "";
  return { encoding, folder, name: crosses ? undefined : last };
}

/** The rules one config file holds (root-relative path `rel`). */
async function rulesIn(rel: string, bytes: Uint8Array): Promise<Rule[]> {
  const dir = posix.dirname(rel).replace(/^\.$/, "");
  const text = Buffer.from(bytes).toString("utf8");
  const rules: (Rule | undefined)[] = [];
  if (posix.basename(rel) === ".gitattributes") {
    for (const [pattern, name] of workingTreeEncodings(text)) {
      const encoding = legacy(name);
      if (encoding) rules.push(widen(encoding, dir, pattern));
    }
  } else {
    const { parseString } = await import("editorconfig");
    for (const [section, body] of parseString(text)) {
      const encoding = legacy(body.charset);
      // A section without "/" matches a name at any depth below its file's folder.
      if (section !== null && encoding) rules.push(widen(encoding, dir, section));
    }
  }
  return rules.filter((r): r is Rule => r !== undefined);
}

/** Root-relative paths of the config files that can speak for files in `where`. */
async function configFiles(
  context: ToolContext,
  where: GuardedPath,
  folder: boolean,
  skip: readonly string[],
): Promise<string[]> {
  const dir = folder ? where.rel : posix.dirname(where.rel).replace(/^\.$/, "");
  const ancestors = [""];
  for (const part of dir === "" ? [] : dir.split("/")) {
    ancestors.push(posix.join(ancestors.at(-1)!, part));
  }
  const found = new Set(ancestors.flatMap((d) => CONFIGS.map((name) => posix.join(d, name))));
  // Below the folder: rg lists them (a walk without reading a file); a remote root has no local rg.
  if (folder && !context.workspace.shell) {
    const args = ["--no-config", "--hidden", "--no-require-git"];
    args.push(...CONFIGS.map((name) => `--glob=${name}`), ...skip.map((g) => `--iglob=${g}`));
    const listed = await rgFiles([...args, "--", where.rel || "./"], context.guard.root);
    for (const rel of listed) found.add(rel.replace(/^\.\//, ""));
  }
  return [...found];
}

/** Where `folder` and the searched path `where` overlap, as one rg target; undefined when they do not. */
function overlap(folder: string, where: string): string | undefined {
  const inside = (a: string, b: string) => b === "" || a === b || a.startsWith(`${b}/`);
  if (inside(where, folder)) return where;
  return inside(folder, where) ? folder : undefined;
}

/**
 * The legacy encodings the project declares for files in `where` (a file or
 * folder), each with the targets and names to search in it.
 */
export async function declaredScopes(
  context: ToolContext,
  where: GuardedPath,
  folder: boolean,
  skip: readonly string[],
): Promise<EncodedScope[]> {
  const configs = await configFiles(context, where, folder, skip);
  const read = (rel: string) =>
    context.workspace.readFile(posix.join(context.guard.root, rel)).catch(() => undefined);
  const contents = await Promise.all(configs.map(read));
  const rules = await Promise.all(
    configs.map((rel, i) => (contents[i] ? rulesIn(rel, contents[i]) : [])),
  );
  const scopes = new Map<Encoding, { targets: Set<string>; names: Set<string> | undefined }>();
  for (const rule of rules.flat()) {
    const target = overlap(rule.folder, where.rel);
    if (target === undefined) continue;
    const scope = scopes.get(rule.encoding) ?? { targets: new Set(), names: new Set() };
    scopes.set(rule.encoding, scope);
    scope.targets.add(target);
    if (rule.name === undefined) scope.names = undefined;
    else scope.names?.add(rule.name);
  }
  return [...scopes].map(([encoding, { targets, names }]) => ({
    encoding,
    targets: outermost([...targets]),
    names: names && [...names],
  }));
}

/** The targets without those inside another. */
function outermost(targets: string[]): string[] {
  return targets.filter(
    (t) => !targets.some((o) => o !== t && (o === "" || t.startsWith(`${o}/`))),
  );
}
