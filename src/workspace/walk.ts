/**
 * A breadth-first folder walk for the list tool: .gitignore files (the root's,
 * the listed folder's ancestors' and nested ones), hidden names, heavy
 * dependency/cache folders and the PathGuard decide what is visible. Links are
 * reported, never followed. Breadth-first, so a capped tree still shows every
 * top-level name before it spends the budget on one deep folder.
 */
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import { isToolError } from "../errors.js";
import type { PathGuard } from "../guard/path-guard.js";
import { STATE_FOLDER, STATE_FOLDERS } from "../util/state-folder.js";
import { isTempName } from "./temp.js";
import type { DirEntry, Workspace } from "./workspace.js";

/** VCS, dependency and cache folders: not entered during a walk (naming one lists it). */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set([
  ".git",
  ".hg",
  ".svn",
  "node_modules",
  STATE_FOLDER,
  "__pycache__",
  ".venv",
  ".tox",
  ".mypy_cache",
  ".pytest_cache",
  ".next",
  ".turbo",
  ".cache",
]);

/** Skipped folders that are also always refused by the guard: never worth mentioning. */
const UNLISTABLE = new Set(STATE_FOLDERS);

const isLinkLoop = (error: unknown) => isToolError(error) && error.details.reason === "link_loop";

export interface TreeNode {
  name: string;
  /** Root-relative path, "/" separators. */
  rel: string;
  kind: "file" | "directory" | "symlink";
  /** Shown files only. */
  size?: number;
  /** Symlinks: where the link leads, root-relative ("." for the root); none for a loop. */
  target?: string;
  targetKind?: "file" | "directory" | "missing" | "loop";
  /** 1 for the listed folder's own entries. */
  level: number;
  children: TreeNode[];
  /** Direct children counted but not shown (the limit was reached). */
  omitted: number;
}

export interface WalkOptions {
  /** Absolute real path of the folder to list (already guard-checked). */
  start: string;
  depth: number;
  limit: number;
  includeHidden: boolean;
  /** Stop counting after this many visible entries. */
  maxScanned: number;
}

export interface WalkResult {
  /** The listed folder's shown entries, each with its shown descendants. */
  top: TreeNode[];
  topOmitted: number;
  shown: number;
  /** Visible entries counted (shown or not). */
  total: number;
  /** False when counting stopped at maxScanned, so `total` is a lower bound. */
  complete: boolean;
  /** Hidden names left out at the first level (for the empty-folder hint). */
  hiddenTop: number;
  /** First-level entries left out by a .gitignore. */
  ignoredTop: number;
  /** Root-relative paths of heavy folders not entered. */
  skipped: string[];
  warnings: string[];
}

export interface Layer {
  /** Root-relative folder the .gitignore sits in. */
  dir: string;
  rules: Ignore;
}

/** Git's precedence: the deepest .gitignore with an opinion wins. */
export function ignoredBy(layers: readonly Layer[], rel: string, isDir: boolean): boolean {
  for (let i = layers.length - 1; i >= 0; i--) {
    const layer = layers[i]!;
    const sub = layer.dir === "" ? rel : rel.slice(layer.dir.length + 1);
    let verdict: { ignored: boolean; unignored: boolean };
    try {
      verdict = layer.rules.test(isDir ? `${sub}/` : sub);
    } catch {
      continue; // names `ignore` rejects (such as "...") match no rule
    }
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}

export async function loadLayer(
  workspace: Workspace,
  abs: string,
  dirRel: string,
): Promise<Layer | undefined> {
  try {
    const text = Buffer.from(await workspace.readFile(path.join(abs, ".gitignore"))).toString(
      "utf8",
    );
    return { dir: dirRel, rules: ignore().add(text) };
  } catch {
    return undefined;
  }
}

function kindOf(entry: DirEntry): TreeNode["kind"] {
  if (entry.kind === "directory" || entry.kind === "symlink") return entry.kind;
  return "file";
}

function byKindThenName(a: DirEntry, b: DirEntry): number {
  const ad = a.kind === "directory" ? 0 : 1;
  const bd = b.kind === "directory" ? 0 : 1;
  if (ad !== bd) return ad - bd;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** What the walk makes of one folder entry; `drop` is never mentioned. */
export type Screened =
  | { verdict: "drop" }
  | { verdict: "skipped"; rel: string }
  | { verdict: "ignored"; rel: string }
  | {
      verdict: "ok";
      rel: string;
      abs: string;
      kind: TreeNode["kind"];
      /** The guard's answer; undefined for a link loop (shown as one). */
      resolved: { real: string; exists: boolean } | undefined;
    };

/**
 * The walk's filter for one entry (temp names, hidden names when `dropHidden`,
 * heavy folders, .gitignore layers, the guard), shared by every walk so a
 * cached one cannot drift from `list`.
 */
export function screenEntry(
  guard: PathGuard,
  folder: { abs: string; rel: string },
  entry: DirEntry,
  layers: readonly Layer[],
  dropHidden: boolean,
): Screened {
  if (isTempName(entry.name)) return { verdict: "drop" }; // a write in flight, or a killed one's leftover
  if (dropHidden) return { verdict: "drop" };
  const rel = folder.rel === "" ? entry.name : `${folder.rel}/${entry.name}`;
  const kind = kindOf(entry);
  if (kind !== "file" && SKIPPED_FOLDERS.has(entry.name)) return { verdict: "skipped", rel };
  if (ignoredBy(layers, rel, kind === "directory")) return { verdict: "ignored", rel };
  const abs = path.join(folder.abs, entry.name);
  try {
    return { verdict: "ok", rel, abs, kind, resolved: guard.check(abs, "read") };
  } catch (error) {
    // Secrets, links out of the root, blocked paths: not shown at all. A
    // link loop leads nowhere, so it is shown as one (it names no target).
    if (kind !== "symlink" || !isLinkLoop(error)) return { verdict: "drop" };
    return { verdict: "ok", rel, abs, kind, resolved: undefined };
  }
}

interface Pending {
  abs: string;
  rel: string;
  level: number;
  layers: Layer[];
  /** Where shown children go; undefined when this folder itself is not shown. */
  node: TreeNode | undefined;
}

/** How long a walk runs before it lets the event loop take a turn. */
const TURN_MS = 20;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function emptyResult(): WalkResult {
  return {
    top: [],
    topOmitted: 0,
    shown: 0,
    total: 0,
    complete: true,
    hiddenTop: 0,
    ignoredTop: 0,
    skipped: [],
    warnings: [],
  };
}

export class Walker {
  readonly #guard: PathGuard;
  readonly #workspace: Workspace;

  constructor(guard: PathGuard, workspace: Workspace) {
    this.#guard = guard;
    this.#workspace = workspace;
  }

  async walk(options: WalkOptions): Promise<WalkResult> {
    const guard = this.#guard;
    const startRel = guard.relative(options.start);
    const rel0 = startRel === "." ? "" : startRel;
    const result = emptyResult();

    let layers = await this.#ancestorLayers(rel0);
    if (rel0 !== "" && ignoredBy(layers, rel0, true)) {
      result.warnings.push(
        `${rel0} is ignored by a .gitignore; its entries are listed because you named it.`,
      );
      layers = [];
    }

    const queue: Pending[] = [{ abs: options.start, rel: rel0, level: 0, layers, node: undefined }];
    let lastTurn = performance.now();
    for (let q = 0; q < queue.length; q++) {
      // A local readDir settles in microtasks only: without a turn a big walk holds a server's other calls.
      if (performance.now() - lastTurn > TURN_MS) {
        await turn();
        lastTurn = performance.now();
      }
      const folder = queue[q]!;
      const read = await this.#readFolder(folder, result.warnings);
      if (!read) continue;
      const { entries, childLayers } = read;

      const level = folder.level + 1;
      const shownHere: TreeNode[] = [];
      for (const entry of entries) {
        if (result.total >= options.maxScanned) {
          result.complete = false;
          break;
        }
        const hidden = entry.name.startsWith(".") && !options.includeHidden;
        // Hidden names are counted (first level only) once nothing else would hide them.
        const seen = screenEntry(guard, folder, entry, childLayers, hidden && level > 1);
        if (seen.verdict === "drop") continue;
        if (seen.verdict === "skipped") {
          if (!hidden && !UNLISTABLE.has(entry.name)) result.skipped.push(seen.rel);
          continue;
        }
        if (seen.verdict === "ignored") {
          if (level === 1 && !hidden) result.ignoredTop++;
          continue;
        }
        const { rel, abs, kind, resolved } = seen;
        if (hidden) {
          result.hiddenTop++;
          continue;
        }

        result.total++;
        const node: TreeNode = { name: entry.name, rel, kind, level, children: [], omitted: 0 };
        const parentShown = level === 1 || folder.node !== undefined;
        if (parentShown && result.shown < options.limit) {
          result.shown++;
          shownHere.push(node);
          if (kind === "symlink") await this.#describeLink(node, resolved);
        } else if (folder.node) {
          folder.node.omitted++;
        } else if (level === 1) {
          result.topOmitted++;
        }
        if (kind === "directory" && level < options.depth) {
          const shown = shownHere.at(-1) === node ? node : undefined;
          queue.push({ abs, rel, level, layers: childLayers, node: shown });
        }
      }
      await this.#sizeFiles(shownHere);
      if (folder.node) folder.node.children = shownHere;
      else if (level === 1) result.top = shownHere;
      if (!result.complete) break;
    }
    return result;
  }

  /** A folder's entries in listing order, and the .gitignore layers its entries answer to; undefined (with a warning) when unreadable. */
  async #readFolder(
    folder: Pending,
    warnings: string[],
  ): Promise<{ entries: DirEntry[]; childLayers: Layer[] } | undefined> {
    let entries: DirEntry[];
    try {
      entries = await this.#workspace.readDir(folder.abs);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      warnings.push(`Could not read folder ${folder.rel || "."} (${code}); skipped it.`);
      return undefined;
    }
    let childLayers = folder.layers;
    if (entries.some((e) => e.name === ".gitignore" && e.kind === "file")) {
      const layer = await loadLayer(this.#workspace, folder.abs, folder.rel);
      if (layer) childLayers = [...folder.layers, layer];
    }
    entries.sort(byKindThenName);
    return { entries, childLayers };
  }

  /** Where a shown link leads: a loop, a missing target, or a file or folder inside the root. */
  async #describeLink(node: TreeNode, resolved: { real: string; exists: boolean } | undefined) {
    if (!resolved) {
      node.targetKind = "loop";
      return;
    }
    const { real, exists } = resolved;
    node.target = this.#guard.relative(real);
    node.targetKind = exists ? "file" : "missing";
    if (exists && (await this.#workspace.stat(real))?.kind === "directory") {
      node.targetKind = "directory";
    }
  }

  /** The .gitignore layers of the folders above the listed one, root first. */
  async #ancestorLayers(rel: string): Promise<Layer[]> {
    const layers: Layer[] = [];
    if (rel === "") return layers;
    const parts = rel.split("/");
    for (let i = 0; i < parts.length; i++) {
      const dirRel = parts.slice(0, i).join("/");
      const layer = await loadLayer(this.#workspace, path.join(this.#guard.root, dirRel), dirRel);
      if (layer) layers.push(layer);
    }
    return layers;
  }

  async #sizeFiles(nodes: TreeNode[]): Promise<void> {
    await Promise.all(
      nodes
        .filter((n) => n.kind === "file")
        .map(async (n) => {
          const stat = await this.#workspace.stat(path.join(this.#guard.root, n.rel));
          if (stat) n.size = stat.size;
        }),
    );
  }
}
