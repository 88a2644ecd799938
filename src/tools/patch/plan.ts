/**
 * Plans a patch's file sections against the tree as it was before the patch,
 * the way `git apply` does: a rename or delete reads its source from there,
 * so two renames can swap files. Each path is read as a source by one section
 * and written by one; only an update of a path the patch already wrote builds
 * on that (two sections for one file). Pure planning: nothing is written here.
 */

import type { Change } from "../../change/change.js";
import { documentDiff } from "../../change/diffs.js";
import { type LoadedFile, loadIfExists } from "../../change/load.js";
import { ToolError } from "../../errors.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import { applyHunks, type FileOp, type HunkPlacement } from "../../patch/parse.js";
import { documentFrom, documentOf } from "../../text/compose.js";
import { unifiedDiff } from "../../text/diff.js";
import { type Document, hasFinalNewline } from "../../text/document.js";
import type { ToolContext } from "../define.js";

/** One path: what was on disk before the patch, and which sections read, take and write it. */
export interface Entry {
  file: GuardedPath;
  original: LoadedFile | undefined;
  /** The section that reads it as its source (an update, a rename's source, a delete). */
  readBy?: FileOp;
  /** The section that takes it away (a delete, a rename's source). */
  takenBy?: FileOp;
  /** Where a rename takes it: the path as the guard shows it. */
  movedTo?: Entry;
  /** The section that writes it (an add, an update, a rename's destination) and what it writes. */
  writtenBy?: FileOp;
  doc?: Document;
  mode?: number;
}

/** One section as planned; its diff is made once every section is known. */
export interface Planned {
  op: FileOp;
  operation: "add" | "delete" | "update" | "rename";
  source: Entry;
  /** The path whose final state the result reports (the destination of a rename). */
  target: Entry;
  /** What the section read (updates, renames, deletes) and what it wrote (all but deletes). */
  before?: Document;
  after?: Document;
  beforeMode?: number;
  hunks?: HunkPlacement[];
  warnings: string[];
}

/** What a section does to a path it reads or writes, for messages ("renames a.txt to it"). */
function does(op: FileOp, role: "reads" | "writes"): string {
  const line = `patch line ${op.patchLine}`;
  if (op.kind === "add") return `${line} adds it`;
  if (op.kind === "delete") return `${line} deletes it`;
  if (op.moveTo === undefined) return `${line} changes it`;
  return role === "writes"
    ? `${line} renames ${op.path} to it`
    : `${line} renames it to ${op.moveTo}`;
}

export class PatchPlanner {
  readonly entries = new Map<string, Entry>();
  readonly planned: Planned[] = [];

  constructor(
    private readonly context: ToolContext,
    private readonly allowOverwrite: boolean,
  ) {}

  private async entry(path: string): Promise<Entry> {
    const file = this.context.guard.check(path, "write");
    const known = this.entries.get(file.rel);
    if (known) return known;
    const stat = await this.context.workspace.stat(file.real);
    if (stat?.kind === "directory") {
      throw new ToolError("is_directory", `${file.display} is a folder, not a file.`, {
        path: file.display,
      });
    }
    const original = stat ? await loadIfExists(this.context, file) : undefined;
    const entry: Entry = { file, original };
    this.entries.set(file.rel, entry);
    return entry;
  }

  private twice(entry: Entry, first: FileOp, second: FileOp, what: "reads" | "writes"): never {
    throw new ToolError(
      "invalid_input",
      `The patch ${what === "reads" ? "uses" : "writes"} ${entry.file.display} twice: ${does(first, what)} and ${does(second, what)}. Nothing was applied. Give each file one section: put all of a file's hunks under one header, and add or rename onto a path once.`,
      { path: entry.file.display },
    );
  }

  /** What the section reads: the path before the patch, or what an earlier section wrote there. */
  private read(entry: Entry, op: FileOp, inPlace: boolean): Document {
    if (inPlace && entry.writtenBy && !entry.takenBy) return entry.doc!;
    if (entry.readBy) this.twice(entry, entry.readBy, op, "reads");
    const doc = entry.original?.doc;
    if (doc === undefined) {
      const verb = op.kind === "delete" ? "deletes" : "changes";
      throw new ToolError(
        "not_found",
        `${entry.file.display} does not exist, but the patch ${verb} it (patch line ${op.patchLine}). Nothing was applied. Check the path; to create a file, add it as a new file.`,
        { path: entry.file.display },
      );
    }
    entry.readBy = op;
    return doc;
  }

  /** Only an update in place may write a path again: it builds on what was written there. */
  private write(
    entry: Entry,
    op: FileOp,
    doc: Document,
    mode: number | undefined,
    inPlace: boolean,
  ): void {
    if (entry.writtenBy && !inPlace) this.twice(entry, entry.writtenBy, op, "writes");
    entry.writtenBy = op;
    entry.doc = doc;
    entry.mode = mode;
  }

  async plan(op: FileOp): Promise<void> {
    const entry = await this.entry(op.path);
    if (op.kind === "add") {
      const doc = documentOf(op.lines, op.finalNewline, entry.original?.doc);
      this.write(entry, op, doc, op.fileMode ?? entry.original?.mode, false);
      this.planned.push({
        op,
        operation: "add",
        source: entry,
        target: entry,
        after: doc,
        warnings: [],
      });
      return;
    }
    const dest =
      op.kind === "update" && op.moveTo !== undefined ? await this.entry(op.moveTo) : entry;
    const inPlace = op.kind === "update" && dest === entry;
    const beforeMode = inPlace && entry.writtenBy ? entry.mode : entry.original?.mode;
    const current = this.read(entry, op, inPlace);
    if (op.kind === "delete") {
      if (op.expected && !sameLines(op.expected, current.lines)) {
        throw new ToolError(
          "conflict",
          `${entry.file.display} is not what the patch deletes (patch line ${op.patchLine}): its content changed. Nothing was applied.`,
          { path: entry.file.display },
          {
            tool: "file",
            say: (v) =>
              `Read it again; delete it with a patch whose removed lines match, or with ${v.tool("file")}.`,
          },
        );
      }
      entry.takenBy = op;
      this.planned.push({
        op,
        operation: "delete",
        source: entry,
        target: entry,
        before: current,
        warnings: [],
      });
      return;
    }
    const applied = applyHunks(
      {
        lines: current.lines,
        finalNewline: current.lines.length === 0 || hasFinalNewline(current),
      },
      op.hunks,
      entry.file.display,
    );
    // A replaced line keeps its own terminator, so a mixed-ending file stays mixed where it was.
    const doc = documentFrom(current, applied.lines, applied.eolFrom, applied.finalNewline);
    if (!inPlace) {
      entry.takenBy = op;
      entry.movedTo = dest;
    }
    this.write(dest, op, doc, op.fileMode ?? beforeMode, inPlace);
    this.planned.push({
      op,
      operation: inPlace ? "update" : "rename",
      source: entry,
      target: dest,
      before: current,
      after: doc,
      ...(beforeMode !== undefined ? { beforeMode } : {}),
      hunks: applied.hunks,
      warnings: applied.warnings,
    });
  }

  /**
   * Refuses to replace a file the patch does not also take away, unless
   * allowed; run once every section is planned, since a later section may
   * move the file out of the way (a swap).
   */
  checkOverwrites(): void {
    if (this.allowOverwrite) return;
    for (const { op, source, target } of this.planned) {
      const creates = op.kind === "add" || target !== source;
      if (!creates || !target.original || target.takenBy) continue;
      const what = op.kind === "add" ? "adds it" : `renames ${source.file.display} to it`;
      throw new ToolError(
        "exists",
        `${target.file.display} already exists, and the patch ${what} (patch line ${op.patchLine}). Nothing was applied. Patch the existing file with hunks instead, or pass allow_overwrite: true to replace it.`,
        { path: target.file.display },
      );
    }
  }

  /** What to write: every written path, then every path taken away and not written again. */
  changes(): Change[] {
    const writes: Change[] = [];
    const deletes: Change[] = [];
    for (const e of this.entries.values()) {
      if (e.writtenBy) {
        writes.push({
          kind: "write",
          file: e.file,
          before: e.original,
          doc: e.doc!,
          ...(e.mode !== undefined ? { fileMode: e.mode } : {}),
          action: e.original ? "patch" : "create",
          note: "patch",
        });
      } else if (e.takenBy && e.original) {
        deletes.push({
          kind: "delete",
          file: e.file,
          before: e.original,
          action: "delete",
          note: "patch",
        });
      }
    }
    return [...writes, ...deletes];
  }
}

/** A section's diff, and whether it changes anything. */
export function sectionDiff(p: Planned): { diff: string; changed: boolean; warnings: string[] } {
  const { op, source, target } = p;
  if (op.kind === "delete") {
    const before = p.before!;
    const diff = unifiedDiff(before.lines, [], {
      path: source.file.display,
      oldFinalNewline: hasFinalNewline(before),
    });
    return { diff, changed: true, warnings: [] };
  }
  const after = p.after!;
  const display = target.file.display;
  if (op.kind === "update" && target === source) {
    const diff = documentDiff(display, p.before, after);
    const modeChanged = op.fileMode !== undefined && op.fileMode !== p.beforeMode;
    return { diff, changed: diff !== "" || modeChanged, warnings: [] };
  }
  // An add or a rename onto a path that held a file: the diff shows what it replaced,
  // unless a delete section of the patch already shows that file going away.
  const replaced =
    target.original && target.takenBy?.kind !== "delete" ? target.original : undefined;
  const warnings: string[] = [];
  const renamed = op.kind === "update" ? `Renamed ${source.file.display} to ${display}` : undefined;
  if (replaced) {
    const moved =
      target.takenBy?.kind === "update"
        ? ` (the patch moves that file to ${target.movedTo?.file.display ?? target.takenBy.moveTo})`
        : "";
    warnings.push(
      `${renamed ? `${renamed}, replacing` : "Replaced"} the ${display} that was there${moved}; the diff shows its old content as removed lines.`,
    );
  } else if (renamed) {
    warnings.push(`${renamed}.`);
  }
  const diff = documentDiff(display, replaced?.doc ?? p.before, after);
  // An added empty file has no diff lines, yet it is a new file.
  const created = op.kind === "add" && !replaced;
  if (created && diff === "") warnings.push(`Created ${display} as an empty file.`);
  return { diff, changed: diff !== "" || renamed !== undefined || created, warnings };
}

/** Lines the patch says it deletes match the file, ignoring trailing whitespace. */
function sameLines(expected: string[], actual: string[]): boolean {
  return (
    expected.length === actual.length &&
    expected.every((l, i) => l.trimEnd() === actual[i]!.trimEnd())
  );
}
