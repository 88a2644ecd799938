import { posix } from "node:path";
import { z } from "zod";
import { ToolError } from "../../errors.js";
import { escapeControls } from "../../text/names.js";
import { count, formatBytes } from "../../util/format.js";
import { type TreeNode, Walker, type WalkResult } from "../../workspace/walk.js";
import { defineTool, manual, READS } from "../define.js";
import { describeMedia, type MediaLabel, mediaLabels } from "./media.js";

export const LIST_LIMITS = {
  /** depth when none is given: the folder's own names. */
  defaultDepth: 1,
  maxDepth: 10,
  /** Entries shown when no limit is given. */
  defaultLimit: 500,
  maxLimit: 5000,
  /** Entries counted for the "N more" notice before the walk gives up counting. */
  maxScanned: 20_000,
  /** Skipped folders named in the notice before "and N more". */
  skippedNamed: 5,
} as const;

const input = z.strictObject({
  path: z.string().optional(),
  depth: z
    .number()
    .int()
    .min(1)
    .max(LIST_LIMITS.maxDepth)
    .optional()
    .describe("1 (default): names; more: a tree with sizes."),
  include_hidden: z.boolean().optional(),
  limit: z
    .number()
    .int()
    .min(1)
    .max(LIST_LIMITS.maxLimit)
    .optional()
    .describe(`Default ${LIST_LIMITS.defaultLimit}.`),
});

export interface ListEntry {
  /** Root-relative path. */
  path: string;
  kind: "file" | "directory" | "symlink";
  size?: number;
  /** Symlinks: where the link leads, root-relative. */
  target?: string;
  /** Images, PDFs and notebooks: the type ("image/png", "application/pdf", "notebook"). */
  type?: string;
  /** Images: the size in pixels. */
  width?: number;
  height?: number;
}

export interface ListResult {
  path: string;
  entries: ListEntry[];
  content: string;
  truncated: boolean;
  warnings: string[];
}

function label(node: TreeNode, withSize: boolean, media?: MediaLabel): string {
  const name = escapeControls(node.name);
  if (node.kind === "directory") return `${name}/`;
  if (node.kind === "symlink") {
    if (node.targetKind === "loop") return `${name} -> (a loop of links; it leads nowhere)`;
    const target = escapeControls(node.target ?? "");
    const shown = node.targetKind === "directory" ? `${target}/` : target;
    return `${name} -> ${shown}${node.targetKind === "missing" ? " (missing)" : ""}`;
  }
  const facts = [
    ...(withSize && node.size !== undefined ? [formatBytes(node.size)] : []),
    ...(media ? [describeMedia(media)] : []),
  ];
  return facts.length > 0 ? `${name} (${facts.join(", ")})` : name;
}

function entryOf(node: TreeNode, media?: MediaLabel): ListEntry {
  const entry: ListEntry = { path: node.rel, kind: node.kind };
  if (node.size !== undefined) entry.size = node.size;
  if (node.target !== undefined) entry.target = node.target;
  if (media) Object.assign(entry, media);
  return entry;
}

/** Renders shown nodes depth-first, each folder's notice under its last child. */
function render(
  nodes: TreeNode[],
  tree: boolean,
  out: { lines: string[]; rels: string[]; entries: ListEntry[]; media: Map<string, MediaLabel> },
): void {
  const { lines, rels, entries, media } = out;
  for (const node of nodes) {
    const indent = "  ".repeat(node.level - 1);
    lines.push(indent + label(node, tree, media.get(node.rel)));
    rels.push(node.rel);
    entries.push(entryOf(node, media.get(node.rel)));
    render(node.children, tree, out);
    if (node.omitted > 0) {
      lines.push(`${indent}  [${count(node.omitted)} more entries in ${node.name}/ not shown]`);
      rels.push("");
    }
  }
}

/** Bytes of the output budget kept for a listing's notices. */
const NOTICE_BYTES = 1_500;

/**
 * The listing's lines within `room` bytes: when they do not all fit, the
 * first ones, a line first and a notice last saying how to see the rest.
 */
function fitLines(lines: string[], rels: string[], room: number): string[] {
  let bytes = 0;
  let fit = 0;
  for (; fit < lines.length; fit++) {
    bytes += Buffer.byteLength(lines[fit]!) + 1;
    if (bytes > room) break;
  }
  if (fit === lines.length) return lines;
  const shown = rels.slice(0, fit).filter(Boolean).length;
  const total = rels.filter(Boolean).length;
  const next = rels.slice(fit).find(Boolean)!;
  const deeper = next.includes("/") ? `list a deeper path such as "${posix.dirname(next)}", ` : "";
  return [
    "[listing cut short; the last line says how to see the rest]",
    ...lines.slice(0, fit),
    `[showing ${count(shown)} of ${count(total)} entries: the rest does not fit in one result (the next is ${next}); to see more, ${deeper}use a smaller depth or a lower limit]`,
  ];
}

/** The shown folder with the most hidden children: the best place to look next. */
function busiest(nodes: TreeNode[]): TreeNode | undefined {
  let best: TreeNode | undefined;
  const visit = (list: TreeNode[]) => {
    for (const n of list) {
      if (n.omitted > 0 && (!best || n.omitted > best.omitted)) best = n;
      visit(n.children);
    }
  };
  visit(nodes);
  return best;
}

function capNotice(walk: WalkResult, limit: number, depth: number): string {
  const total = walk.complete ? count(walk.total) : `at least ${count(walk.total)}`;
  const ways: string[] = [];
  const deep = busiest(walk.top);
  if (deep) ways.push(`list a deeper path such as "${deep.rel}"`);
  else if (depth > 1)
    ways.push("list one of the folders above by its path, or use a smaller depth");
  if (limit < LIST_LIMITS.maxLimit) {
    ways.push(`raise limit (now ${limit}, at most ${LIST_LIMITS.maxLimit})`);
  }
  const how = ways.length > 0 ? `; to see more, ${ways.join(", or ")}` : "";
  return `[showing ${count(walk.shown)} of ${total} entries${how}]`;
}

function skippedNotice(skipped: string[]): string {
  const named = skipped.slice(0, LIST_LIMITS.skippedNamed).map((s) => `${s}/`);
  const more = skipped.length - named.length;
  const list = more > 0 ? `${named.join(", ")} and ${more} more` : named.join(", ");
  return `[not entered: ${list} (dependency and cache folders); list one by its path to see inside]`;
}

function emptyNotice(walk: WalkResult): string {
  const why: string[] = [];
  if (walk.hiddenTop > 0) {
    why.push(
      `${count(walk.hiddenTop)} hidden (names starting with "."; pass include_hidden: true to see them)`,
    );
  }
  if (walk.ignoredTop > 0) why.push(`${count(walk.ignoredTop)} ignored by .gitignore`);
  if (walk.skipped.length > 0) why.push(`${count(walk.skipped.length)} not entered (below)`);
  return why.length > 0 ? `[no entries shown: ${why.join(", ")}]` : "[empty folder]";
}

export const listTool = defineTool({
  name: "list",
  description: `List a folder (folders end with /), without gitignored files and dependency folders.
Example: {"path": "src", "depth": 2}`,
  manual: manual("list/list.md"),
  example: { path: "src", depth: 2 },
  input,
  annotations: READS,
  kind: "read",
  needsApproval: false,
  footprint: (args) => ({ reads: [args.path || "."], writes: [] }),
  summarize: (args) => {
    const subject = args.path || ".";
    return {
      subject,
      summary: `list ${subject}${args.depth && args.depth > 1 ? ` (depth ${args.depth})` : ""}`,
    };
  },
  async call(context, args): Promise<ListResult> {
    const folder = context.guard.check(args.path || ".", "read");
    const stat = await context.workspace.stat(folder.real);
    if (!stat) {
      throw new ToolError(
        "not_found",
        `Folder ${folder.display} does not exist. List its parent folder to see what is there.`,
        { path: folder.display },
      );
    }
    if (stat.kind !== "directory") {
      throw new ToolError(
        "invalid_input",
        `${folder.display} is a file, not a folder.`,
        { path: folder.display },
        {
          tool: "read",
          args: { path: folder.display },
          say: (v) => `Read it with ${v.tool("read")}, or list the folder that holds it.`,
        },
      );
    }

    const depth = args.depth ?? LIST_LIMITS.defaultDepth;
    const limit = args.limit ?? LIST_LIMITS.defaultLimit;
    const walk = await new Walker(context.guard, context.workspace).walk({
      start: folder.real,
      depth,
      limit,
      includeHidden: args.include_hidden === true,
      maxScanned: LIST_LIMITS.maxScanned,
    });

    const all: string[] = [];
    const rels: string[] = [];
    const entries: ListEntry[] = [];
    const media = await mediaLabels(context, walk.top);
    render(walk.top, depth > 1, { lines: all, rels, entries, media });
    const lines = fitLines(all, rels, context.limits.outputBytes - NOTICE_BYTES);
    const capped = walk.shown < walk.total || !walk.complete;
    const truncated = capped || lines !== all;
    if (capped) lines.push(capNotice(walk, limit, depth));
    if (walk.skipped.length > 0) lines.push(skippedNotice(walk.skipped));
    if (walk.total === 0) lines.unshift(emptyNotice(walk));

    context.events.emit({
      type: "files_listed",
      path: folder.display,
      entries: entries.length,
      truncated,
    });
    return {
      path: folder.display,
      entries,
      content: lines.join("\n"),
      truncated,
      warnings: walk.warnings,
    };
  },
});
