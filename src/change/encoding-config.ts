/**
 * The encoding a project declares for a file: `.editorconfig` `charset`
 * first, then `.gitattributes` `working-tree-encoding`, each read through the
 * Workspace from the file's folder up to the root (never above it: a config
 * outside the project is not the project's). Asked only for bytes that are
 * not UTF-8, so UTF-8 files never pay for it.
 */
import { posix } from "node:path";
import type { ECFile } from "editorconfig";
import ignore from "ignore";
import type { GuardedPath } from "../guard/path-guard.js";
import { type Encoding, encodingNamed } from "../text/encoding.js";
import type { ChangeContext } from "./context.js";

export interface Configured {
  /** What the config names, understood; undefined when splice does not know the name. */
  encoding: Encoding | "utf-8" | undefined;
  /** The name as written. */
  name: string;
  /** Where it is said: `.editorconfig` or `.gitattributes` (relative to the root). */
  source: string;
}

/** The encoding the project's config declares for `file`, or undefined when none does. */
export async function configuredEncoding(
  context: ChangeContext,
  file: GuardedPath,
): Promise<Configured | undefined> {
  const root = context.guard.root;
  const folders: string[] = [];
  for (let dir = posix.dirname(file.real); ; dir = posix.dirname(dir)) {
    folders.push(dir);
    if (dir === root || !dir.startsWith(`${root}/`)) break;
  }
  const read = async (name: string) => {
    try {
      return Buffer.from(await context.workspace.readFile(name));
    } catch {
      return undefined;
    }
  };
  const configs = await Promise.all(folders.map((dir) => read(posix.join(dir, ".editorconfig"))));
  const files: ECFile[] = [];
  configs.forEach((contents, i) => {
    if (contents) files.push({ name: posix.join(folders[i]!, ".editorconfig"), contents });
  });
  if (files.length > 0) {
    // Loaded on the first file that is not UTF-8: a command that never meets one never loads it.
    const { parseFromFilesSync } = await import("editorconfig");
    const { charset } = parseFromFilesSync(file.real, files, { root });
    if (typeof charset === "string" && charset !== "unset") {
      return { encoding: encodingNamed(charset), name: charset, source: ".editorconfig" };
    }
  }
  const attributes = await Promise.all(
    folders.map((dir) => read(posix.join(dir, ".gitattributes"))),
  );
  // The deepest file's last matching line wins, as git reads them.
  for (let i = 0; i < folders.length; i++) {
    const text = attributes[i]?.toString("utf8");
    const found = text && workingTreeEncoding(text, posix.relative(folders[i]!, file.real));
    if (found) {
      const source = shown(root, posix.join(folders[i]!, ".gitattributes"));
      return { encoding: encodingNamed(found), name: found, source };
    }
  }
  return undefined;
}

const shown = (root: string, real: string) => posix.relative(root, real) || real;

/** The `working-tree-encoding` the last line matching `rel` sets in a .gitattributes text. */
export function workingTreeEncoding(text: string, rel: string): string | undefined {
  let found: string | undefined;
  for (const [pattern, name] of workingTreeEncodings(text)) {
    if (ignore().add(pattern).ignores(rel)) found = name;
  }
  return found;
}

/** Each line of a .gitattributes text that sets a `working-tree-encoding`: its pattern and the name, in order. */
export function workingTreeEncodings(text: string): [pattern: string, name: string][] {
  const out: [string, string][] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const [pattern, ...attrs] = line.split(/\s+/);
    const attr = attrs.find((a) => a.startsWith("working-tree-encoding="));
    if (!pattern || !attr || pattern.startsWith("!")) continue;
    out.push([pattern, attr.slice("working-tree-encoding=".length)]);
  }
  return out;
}
