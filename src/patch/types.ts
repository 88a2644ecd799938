/**
 * What a parsed patch is, whichever format it came in: a list of file
 * operations, each update carrying hunks of context/removed/added lines.
 * Line texts never carry terminators; the patch text is read with LF.
 */
export type LineOp = " " | "-" | "+";

export interface HunkLine {
  op: LineOp;
  text: string;
}

export interface Hunk {
  /** 1-based, per file operation. */
  index: number;
  /** The header as written ("@@ -12,7 +12,8 @@", "@@ def f():", "@@"), for messages. */
  header: string;
  /** 1-based line of the header in the patch text (of the first line when it had none). */
  patchLine: number;
  /** Unified diffs: where the hunk starts in the old file (1-based; 0 for an empty file). */
  oldStart?: number;
  /** Unified diffs: the header's line counts are the hunk's (a diff tool wrote it, not a hand). */
  headerFits?: boolean;
  /** Codex `@@ line` headers: lines to find first, in order; the hunk comes after the last. */
  anchors: string[];
  lines: HunkLine[];
  /** The old lines end the file (Codex `*** End of File`, or a unified no-newline marker). */
  atEnd: boolean;
  /** Unified `\ No newline at end of file` after the old side. */
  oldNoNewline: boolean;
  /** Unified `\ No newline at end of file` after the new side. */
  newNoNewline: boolean;
}

interface FileOpBase {
  /** 1-based line in the patch text where this file's section starts. */
  patchLine: number;
}

export interface AddFile extends FileOpBase {
  kind: "add";
  path: string;
  lines: string[];
  finalNewline: boolean;
  /** Permission bits from a git `new file mode` line. */
  fileMode?: number;
}

export interface DeleteFile extends FileOpBase {
  kind: "delete";
  path: string;
  /** Unified diffs show the lines being deleted; undefined when the patch does not. */
  expected?: string[];
}

export interface UpdateFile extends FileOpBase {
  kind: "update";
  path: string;
  /** Rename target (Codex `*** Move to:`, git `rename to`). */
  moveTo?: string;
  hunks: Hunk[];
  /** Permission bits from a git `new mode` line. */
  fileMode?: number;
}

export type FileOp = AddFile | DeleteFile | UpdateFile;

export type PatchFormat = "unified" | "codex";

export interface ParsedPatch {
  format: PatchFormat;
  files: FileOp[];
  warnings: string[];
}

/** Splits patch text into LF lines; a final newline does not make an extra empty line. */
export function patchLines(text: string): string[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines;
}
