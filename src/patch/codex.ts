/**
 * The Codex `apply_patch` format: `*** Begin Patch`, then Add/Delete/Update
 * File sections (`*** Move to:` renames; `@@ line` headers name a line the
 * hunk follows; `*** End of File` pins a hunk to the end), `*** End Patch`.
 * Read as leniently as models write it (padded markers, a heredoc or code
 * fence around it, several `@@` lines in a row), but a patch without its
 * end marker is refused: it was probably cut off.
 */

import { PatchParseError } from "./errors.js";
import {
  type FileOp,
  type Hunk,
  type HunkLine,
  type ParsedPatch,
  patchLines,
  type UpdateFile,
} from "./types.js";

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File:";
const DELETE = "*** Delete File:";
const UPDATE = "*** Update File:";
const MOVE = "*** Move to:";
const END_OF_FILE = "*** End of File";
const UNIFIED_HEADER = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/;

/** Whether the text is a Codex patch (after any heredoc or fence around it). */
export function looksLikeCodex(text: string): boolean {
  return /^\s*(?:(?:apply_patch\s*)?<<['"]?EOF['"]?\s*\n|```[\w-]*\s*\n)?\s*\*\*\* Begin Patch/.test(
    text,
  );
}

interface Line {
  text: string;
  /** 1-based in the patch text. */
  no: number;
}

/** The lines between the markers, without wrappers; warns about what it removed. */
function body(text: string, warnings: string[]): Line[] {
  let lines: Line[] = patchLines(text).map((t, i) => ({ text: t, no: i + 1 }));
  const trimBlank = () => {
    while (lines.length > 0 && lines[0]!.text.trim() === "") lines = lines.slice(1);
    while (lines.length > 0 && lines.at(-1)!.text.trim() === "") lines = lines.slice(0, -1);
  };
  trimBlank();
  const first = lines[0]?.text.trim() ?? "";
  const last = lines.at(-1)?.text.trim() ?? "";
  if (/^(?:apply_patch\s*)?<<['"]?EOF['"]?$/.test(first) && last === "EOF") {
    lines = lines.slice(1, -1);
    warnings.push("Removed the heredoc (<<'EOF' … EOF) around the patch.");
    trimBlank();
  } else if (first.startsWith("```") && last === "```") {
    lines = lines.slice(1, -1);
    warnings.push("Removed the Markdown code fence around the patch.");
    trimBlank();
  }
  if (lines[0]?.text.trim() !== BEGIN) {
    throw new PatchParseError(
      `A Codex patch starts with "${BEGIN}"; line ${lines[0]?.no ?? 1} is "${lines[0]?.text ?? ""}".`,
      lines[0]?.no ?? 1,
    );
  }
  if (lines.length < 2 || lines.at(-1)!.text.trim() !== END) {
    const no = lines.at(-1)?.no ?? 1;
    throw new PatchParseError(
      `The patch does not end with "${END}" (line ${no} is the last), so it may have been cut off; nothing was applied. Send the whole patch.`,
      no,
    );
  }
  return lines.slice(1, -1);
}

function marker(line: string, name: string): string | undefined {
  const t = line.trim();
  return t.startsWith(name) ? t.slice(name.length).trim() : undefined;
}

function pathAfter(line: Line, name: string): string {
  const path = marker(line.text, name)!;
  if (path === "") throw new PatchParseError(`Line ${line.no}: "${name}" needs a path.`, line.no);
  return path;
}

export function parseCodexPatch(text: string): ParsedPatch {
  const warnings: string[] = [];
  const lines = body(text, warnings);
  const files: FileOp[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.text.trim() === "") {
      i++;
    } else if (marker(line.text, ADD) !== undefined) {
      const path = pathAfter(line, ADD);
      const content: string[] = [];
      i++;
      while (i < lines.length && lines[i]!.text.startsWith("+"))
        content.push(lines[i++]!.text.slice(1));
      files.push({ kind: "add", path, lines: content, finalNewline: true, patchLine: line.no });
    } else if (marker(line.text, DELETE) !== undefined) {
      files.push({ kind: "delete", path: pathAfter(line, DELETE), patchLine: line.no });
      i++;
    } else if (marker(line.text, UPDATE) !== undefined) {
      const op: UpdateFile = {
        kind: "update",
        path: pathAfter(line, UPDATE),
        hunks: [],
        patchLine: line.no,
      };
      i++;
      if (i < lines.length && marker(lines[i]!.text, MOVE) !== undefined) {
        op.moveTo = pathAfter(lines[i]!, MOVE);
        i++;
      }
      i = parseHunks(lines, i, op, warnings);
      files.push(op);
    } else {
      throw new PatchParseError(
        `Line ${line.no}: expected "${ADD} path", "${DELETE} path" or "${UPDATE} path", got "${line.text}".`,
        line.no,
      );
    }
  }
  if (files.length === 0) {
    throw new PatchParseError(
      `The patch names no file: between "${BEGIN}" and "${END}" put "${ADD} path", "${DELETE} path" or "${UPDATE} path" sections. Nothing was applied.`,
      lines[0]?.no ?? 1,
    );
  }
  return { format: "codex", files, warnings };
}

/** Reads an Update File section's hunks from `i`; returns where the next section starts. */
function parseHunks(lines: Line[], i: number, op: UpdateFile, warnings: string[]): number {
  for (;;) {
    while (i < lines.length && lines[i]!.text.trim() === "") i++;
    const start = lines[i];
    if (!start || (start.text.startsWith("***") && !isEndOfFile(start.text))) break;
    const hunk: Hunk = {
      index: op.hunks.length + 1,
      header: "",
      patchLine: start.no,
      anchors: [],
      lines: [],
      atEnd: false,
      oldNoNewline: false,
      newNoNewline: false,
    };
    const headers: string[] = [];
    while (i < lines.length && lines[i]!.text.startsWith("@@")) {
      const h = lines[i++]!.text;
      headers.push(h);
      if (UNIFIED_HEADER.test(h)) {
        warnings.push(
          `Ignored the line numbers in "${h}" (a unified diff header in a Codex patch); the hunk is found by its lines.`,
        );
        continue;
      }
      const anchor = h.slice(2).trim();
      if (anchor !== "") hunk.anchors.push(anchor);
    }
    if (headers.length === 0 && op.hunks.length > 0) {
      throw new PatchParseError(
        `Line ${start.no}: hunk ${hunk.index} of ${op.path} must start with "@@" (or "@@ a line it follows"), got "${start.text}".`,
        start.no,
      );
    }
    hunk.header = headers.join(" ") || "@@";
    /** Empty lines read as empty context, except at the end of a hunk (a separator there). */
    let trailingEmpty = 0;
    while (i < lines.length) {
      const { text, no } = lines[i]!;
      if (isEndOfFile(text)) {
        hunk.atEnd = true;
        i++;
        break;
      }
      if (text.startsWith("@@") || text.startsWith("***")) break;
      const op0 = text[0];
      if (text === "") {
        hunk.lines.push({ op: " ", text: "" });
        trailingEmpty++;
      } else if (op0 === " " || op0 === "-" || op0 === "+") {
        hunk.lines.push({ op: op0, text: text.slice(1) } as HunkLine);
        trailingEmpty = 0;
      } else {
        throw new PatchParseError(
          `Line ${no}: "${text}" in hunk ${hunk.index} of ${op.path} does not start with " " (context), "-" (remove) or "+" (add). Put one of them in front of every hunk line, a space for unchanged lines.`,
          no,
        );
      }
      i++;
    }
    if (!hunk.atEnd && trailingEmpty > 0) hunk.lines.splice(hunk.lines.length - trailingEmpty);
    if (hunk.lines.length === 0) {
      throw new PatchParseError(
        `Line ${hunk.patchLine}: hunk ${hunk.index} of ${op.path} has no lines.`,
        hunk.patchLine,
      );
    }
    op.hunks.push(hunk);
  }
  if (op.hunks.length === 0 && op.moveTo === undefined) {
    throw new PatchParseError(
      `Line ${op.patchLine}: "${UPDATE} ${op.path}" has no hunks. Add "@@" hunks with " ", "-" and "+" lines, or remove the section.`,
      op.patchLine,
    );
  }
  return i;
}

/** Inside a hunk a marker starts the line: " *** End of File" is a context line. */
function isEndOfFile(text: string): boolean {
  return text.trimEnd() === END_OF_FILE;
}
