import { z } from "zod";
import { isToolError, ToolError } from "../errors.js";
import type { GuardedPath } from "../guard/path-guard.js";
import { firstChangedLine, merge3 } from "../text/diff.js";
import { type Document, documentFromBytes, documentToBytes, withLines } from "../text/document.js";
import { documentTag, header, parseTag } from "../text/hashline.js";
import { applyOps, OpsError, parseOps } from "../text/ops.js";
import { BatchError, runBatch } from "./batch.js";
import { exclusiveAll, type Mode, modeSchema, newBackupId, serialized, settle } from "./commit.js";
import type { ToolContext } from "./context.js";
import { defineTool, manual, pathList } from "./define.js";
import { type LoadedFile, loadTextFile, sha256 } from "./files.js";

const target = z.strictObject({
  path: z.string().describe("File path, relative to the root."),
  file_hash: z.string().describe("The 4-hex tag from the read you edit against, e.g. 1A2B."),
  ops: z.string().describe('Line ops, e.g. "replace 5..7:\\n+new text\\ndelete 10".'),
});

const input = z.strictObject({
  targets: z.array(target).min(1).describe("Files to edit, in order."),
  atomic: z.boolean().optional().describe("Apply every target or none."),
  mode: modeSchema,
});

export interface EditResult {
  path: string;
  file_hash: string;
  header: string;
  applied: boolean;
  changed: boolean;
  first_changed_line: number;
  diff: string;
  /** The backup session holding the original (undo restores it); set when written. */
  backup_session?: string;
  warnings: string[];
}

interface Plan {
  file: GuardedPath;
  current: LoadedFile;
  next: Document;
  warnings: string[];
}

const CONFLICT_CONTEXT = 3;

function opsFailure(path: string, error: OpsError): ToolError {
  return new ToolError("invalid_input", `Ops for ${path}: ${error.message}`, {
    path,
    reason: error.code,
    ...(error.dslLine === undefined ? {} : { dsl_line: error.dslLine }),
  });
}

function applyDsl(path: string, base: Document, dsl: string, warnings: string[]): Document {
  try {
    const parsed = parseOps(dsl);
    warnings.push(...parsed.warnings);
    return applyOps(base, parsed.ops).doc;
  } catch (error) {
    if (error instanceof OpsError) throw opsFailure(path, error);
    throw error;
  }
}

/** The version the tag names, as this session saw it. */
function seenVersion(
  context: ToolContext,
  plan: { file: GuardedPath; current: LoadedFile },
  tag: string,
) {
  const { file, current } = plan;
  if (tag === current.tag && context.history.hasSeen(file.rel, current.sha)) return current.doc;
  for (const sha of context.history.seenShasForTag(file.rel, tag)) {
    const bytes = context.history.getBlob(sha);
    const doc = bytes && documentFromBytes(bytes);
    if (doc && !("kind" in doc)) return doc;
  }
  throw new ToolError(
    "stale",
    `This session never read ${file.display} at tag ${tag}, so it cannot tell which lines you mean. Read the file first (its current tag is ${current.tag}), then edit with that tag.`,
    { path: file.display, current_hash: current.tag },
  );
}

function conflictError(
  context: ToolContext,
  file: GuardedPath,
  current: LoadedFile,
  ranges: [number, number][],
  tag: string,
): ToolError {
  const lines = current.doc.lines;
  const first = Math.max(1, ranges[0]![0] - CONFLICT_CONTEXT);
  const last = Math.min(lines.length, ranges.at(-1)![1] + CONFLICT_CONTEXT);
  const shown = lines.slice(first - 1, last).map((text, i) => `${first + i}| ${text}`);
  context.history.recordRead(file.rel, current.bytes, current.tag, [first, last]);
  return new ToolError(
    "conflict",
    [
      `${file.display} changed since you read it at ${tag}, and the change overlaps your edit, so nothing was written. The current lines ${first}..${last}:`,
      header(file.display, current.tag),
      ...shown,
      `Redo the edit against the current version with file_hash "${current.tag}".`,
    ].join("\n"),
    { path: file.display, current_hash: current.tag, conflict_lines: ranges },
  );
}

async function planEdit(
  context: ToolContext,
  t: z.output<typeof target>,
  pending: Map<string, LoadedFile>,
): Promise<Plan> {
  const file = context.guard.check(t.path, "write");
  const tag = parseTag(t.file_hash);
  if (!tag) {
    throw new ToolError(
      "invalid_input",
      `file_hash "${t.file_hash}" is not a tag: use the 4 hex characters after # in the read header, e.g. "1A2B".`,
    );
  }
  const current = pending.get(file.rel) ?? (await loadTextFile(context, file));
  const base = seenVersion(context, { file, current }, tag);
  const warnings: string[] = [];
  const ours = applyDsl(file.display, base, t.ops, warnings);
  if (base === current.doc) return { file, current, next: ours, warnings };

  const merged = merge3(base.lines, ours.lines, current.doc.lines);
  if (!merged.clean) throw conflictError(context, file, current, merged.conflicts, tag);
  const next = withLines(current.doc, merged.lines, keptEols(current.doc, merged.lines));
  const at = firstChangedLine(current.doc.lines, next.lines);
  warnings.push(
    `${file.display} changed since you read it at ${tag} (now ${current.tag}); your edit was merged into the current version${at > 0 ? ` and starts at line ${at}` : ""}. Check the diff.`,
  );
  return { file, current, next, warnings };
}

/** Keeps the current file's own terminators for the lines a merge left alone. */
function keptEols(current: Document, lines: string[]): (string | undefined)[] {
  const eols: (string | undefined)[] = new Array(lines.length).fill(undefined);
  const old = current.lines;
  let p = 0;
  while (p < lines.length && p < old.length && lines[p] === old[p]) eols[p] = current.eols[p++];
  for (let s = 1; s <= Math.min(lines.length, old.length) - p; s++) {
    if (lines[lines.length - s] !== old[old.length - s]) break;
    eols[lines.length - s] = current.eols[old.length - s];
  }
  return eols;
}

/** What the file will be once an earlier target of an atomic batch is written. */
function plannedFile(plan: Plan): LoadedFile {
  const bytes = documentToBytes(plan.next);
  return {
    ...plan.current,
    bytes,
    doc: plan.next,
    tag: documentTag(plan.next),
    sha: sha256(bytes),
  };
}

async function commitPlan(
  context: ToolContext,
  plan: Plan,
  mode: Mode | undefined,
  backup: string,
): Promise<EditResult> {
  const { file, current, next, warnings } = plan;
  const outcome = await settle(
    context,
    file,
    { kind: "write", before: current, doc: next, note: "edit", action: "edit", backup },
    mode,
  );
  if (!outcome.changed) warnings.push("The edit changes nothing; the file was not written.");
  return {
    path: file.display,
    file_hash: outcome.tag,
    header: outcome.header,
    applied: outcome.applied,
    changed: outcome.changed,
    first_changed_line: outcome.changed ? firstChangedLine(current.doc.lines, next.lines) : 0,
    diff: outcome.diff,
    ...(outcome.backup ? { backup_session: outcome.backup } : {}),
    warnings,
  };
}

function asToolError(error: unknown): ToolError {
  if (isToolError(error)) return error;
  return new ToolError("io", error instanceof Error ? error.message : String(error));
}

/** Plans every target first, so most failures happen before any write. */
async function editAtomically(
  context: ToolContext,
  targets: z.output<typeof target>[],
  mode: Mode | undefined,
): Promise<{ results: EditResult[] }> {
  const backup = newBackupId();
  const pending = new Map<string, LoadedFile>();
  const plans: Plan[] = [];
  const others = (t: { path: string }) => targets.filter((x) => x !== t).map((x) => x.path);
  for (const t of targets) {
    try {
      const plan = await planEdit(context, t, pending);
      plans.push(plan);
      pending.set(plan.file.rel, plannedFile(plan));
    } catch (error) {
      throw new BatchError(t.path, asToolError(error), [], others(t), true);
    }
  }
  const results: EditResult[] = [];
  for (const [i, plan] of plans.entries()) {
    try {
      results.push(await commitPlan(context, plan, mode, backup));
    } catch (error) {
      await restore(context, plans.slice(0, results.length), backup);
      throw new BatchError(plan.file.display, asToolError(error), [], others(targets[i]!), true);
    }
  }
  return { results };
}

/** Puts back what atomic targets already wrote, newest first. */
async function restore(context: ToolContext, written: Plan[], backup: string): Promise<void> {
  for (const plan of [...written].reverse()) {
    const now = plannedFile(plan);
    context.history.recordWrite({
      kind: "rollback",
      path: plan.file.rel,
      before: { bytes: now.bytes, tag: now.tag },
      after: { bytes: plan.current.bytes, tag: plan.current.tag },
      note: "atomic batch failed",
      backup,
    });
    await context.workspace.writeFile(plan.file.real, plan.current.bytes, {
      mode: plan.current.mode,
    });
  }
}

function edit(
  context: ToolContext,
  args: z.output<typeof input>,
): Promise<{ results: EditResult[] }> {
  if (args.atomic) {
    const paths = args.targets.map((t) => t.path);
    return exclusiveAll(context, paths, () => editAtomically(context, args.targets, args.mode));
  }
  const backup = newBackupId();
  return runBatch(args.targets, (t) =>
    serialized(context, t.path, async () =>
      commitPlan(context, await planEdit(context, t, new Map()), args.mode, backup),
    ),
  );
}

export const editTool = defineTool({
  name: "edit",
  description: manual("edit"),
  example: {
    targets: [{ path: "src/main.ts", file_hash: "1A2B", ops: "replace 3:\n+const answer = 42;" }],
  },
  input,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  kind: "edit",
  needsApproval: true,
  footprint: (args) => ({ reads: [], writes: args.targets.map((t) => t.path) }),
  summarize: (args) => {
    const subject = pathList(args.targets.map((t) => t.path));
    return { subject, summary: `edit ${subject}` };
  },
  preview: async (context, args) => {
    const { results } = await edit(context, { ...args, mode: "preview" });
    return results.map((r) => r.diff).join("");
  },
  call: edit,
});
