/**
 * Unified diffs as git and `diff -u` write them: several files, `a/` `b/`
 * prefixes, new, deleted and renamed files, mode changes, and
 * `\ No newline at end of file`. Hunk line counts are trusted while they fit
 * (so a removed "-- x" line is never mistaken for a file header) and
 * overridden, with a warning, when a hand-written hunk miscounts. Binary
 * patches and copies are refused.
 */
import { useTool } from "../errors.js";
import { PatchParseError } from "./errors.js";
import { type FileOp, type Hunk, type ParsedPatch, patchLines } from "./types.js";

const HUNK_HEADER = /^@@+ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@+(.*)$/;
const BARE_HUNK_HEADER = /^@@+(?:\s*@@+)?\s*$/;
const DEV_NULL = "/dev/null";

interface Section {
  patchLine: number;
  git: boolean;
  /** Paths from the `diff --git` line, used when there are no ---/+++ lines. */
  gitPaths?: [string, string];
  oldPath?: string;
  newPath?: string;
  renameFrom?: string;
  renameTo?: string;
  newFile: boolean;
  deletedFile: boolean;
  fileMode?: number;
  hunks: Hunk[];
}

/** Whether the text is a unified diff (a ---/+++ pair, a `diff --git` line, or a hunk header). */
export function looksLikeUnified(text: string): boolean {
  return /^(?:diff --git |--- .*\n\+\+\+ |@@ -\d)/m.test(text);
}

/** A git path, C-quoted when it has unusual characters ("a/x \"y\".txt", octal UTF-8 bytes). */
function unquote(raw: string): string {
  if (!raw.startsWith('"') || !raw.endsWith('"') || raw.length < 2) return raw;
  const bytes: number[] = [];
  const body = raw.slice(1, -1);
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, '"': 34, "\\": 92, a: 7, b: 8 };
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== "\\") {
      for (const b of new TextEncoder().encode(c)) bytes.push(b);
      continue;
    }
    const next = body[i + 1] ?? "";
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1));
    if (octal) {
      bytes.push(Number.parseInt(octal[0], 8));
      i += 3;
    } else {
      bytes.push(simple[next] ?? next.charCodeAt(0));
      i += 1;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** The path on a ---/+++ line: a tab ends it (a timestamp follows in `diff -u`). */
function headerPath(line: string): string {
  const rest = line.slice(4);
  const tab = rest.indexOf("\t");
  const path = (tab === -1 ? rest : rest.slice(0, tab)).trimEnd();
  return unquote(path);
}

/** `diff --git a/x b/x`: split where both halves name the same file, else at " b/". */
function gitLinePaths(line: string): [string, string] | undefined {
  const rest = line.slice("diff --git ".length);
  if (rest.startsWith('"')) {
    const m = /^("(?:[^"\\]|\\.)*") (.*)$/.exec(rest);
    return m ? [unquote(m[1]!), unquote(m[2]!)] : undefined;
  }
  const half = (rest.length - 1) / 2;
  if (Number.isInteger(half) && rest[half] === " ") {
    const a = rest.slice(0, half);
    const b = rest.slice(half + 1);
    if (a.replace(/^a\//, "") === b.replace(/^b\//, "")) return [a, b];
  }
  const at = rest.indexOf(" b/");
  return at === -1 ? undefined : [rest.slice(0, at), unquote(rest.slice(at + 1))];
}

function strip(path: string, prefix: "a/" | "b/", strip: boolean): string {
  return strip && path.startsWith(prefix) ? path.slice(2) : path;
}

function modeBits(value: string): number | undefined {
  const m = /^\d*?([0-7]{3})$/.exec(value.trim());
  return m ? Number.parseInt(m[1]!, 8) : undefined;
}

export function parseUnifiedPatch(text: string): ParsedPatch {
  const warnings: string[] = [];
  let lines = patchLines(text);
  let offset = 0;
  const first = lines.findIndex((l) => l.trim() !== "");
  const last = lines.findLastIndex((l) => l.trim() !== "");
  if (first !== -1 && lines[first]!.startsWith("```") && lines[last]!.trim() === "```") {
    offset = first + 1;
    lines = lines.slice(first + 1, last);
    warnings.push("Removed the Markdown code fence around the patch.");
  }
  const sections: Section[] = [];
  let current: Section | undefined;
  const open = (no: number, git: boolean): Section => {
    current = { patchLine: no, git, newFile: false, deletedFile: false, hunks: [] };
    sections.push(current);
    return current;
  };
  const isFileHeader = (i: number) =>
    (lines[i]?.startsWith("--- ") ?? false) && (lines[i + 1]?.startsWith("+++ ") ?? false);

  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const no = i + 1 + offset;
    if (line.startsWith("diff --git ")) {
      const s = open(no, true);
      s.gitPaths = gitLinePaths(line);
      i++;
      continue;
    }
    if (isFileHeader(i)) {
      const s = current?.git && current.oldPath === undefined ? current : open(no, false);
      s.oldPath = headerPath(line);
      s.newPath = headerPath(lines[i + 1]!);
      i += 2;
      continue;
    }
    if (line.startsWith("@@")) {
      if (!current) {
        throw new PatchParseError(
          `Line ${no}: a hunk ("${line}") before any file header; start each file with "--- a/path" and "+++ b/path" lines.`,
          no,
        );
      }
      i = readHunk(lines, i, offset, current, warnings, isFileHeader);
      continue;
    }
    if (line.startsWith("GIT binary patch") || /^Binary files .* differ$/.test(line)) {
      throw new PatchParseError(
        `Line ${no}: binary patches are not supported ("${line}");`,
        no,
        useTool("run", (run) => `change binary files with ${run}.`),
      );
    }
    if (current?.git && current.hunks.length === 0) gitHeaderLine(current, line, no);
    i++;
  }
  const files = sections.flatMap((s) => fileOp(s, warnings));
  if (files.length === 0) {
    throw new PatchParseError(
      'No file changes found: a unified diff has "--- a/path" and "+++ b/path" lines followed by "@@ -start,count +start,count @@" hunks.',
      1,
    );
  }
  return { format: "unified", files, warnings };
}

function gitHeaderLine(s: Section, line: string, no: number): void {
  const [name, value] = splitHeader(line);
  switch (name) {
    case "new file mode":
      s.newFile = true;
      s.fileMode = modeBits(value);
      break;
    case "deleted file mode":
      s.deletedFile = true;
      break;
    case "new mode":
      s.fileMode = modeBits(value);
      break;
    case "rename from":
      s.renameFrom = unquote(value);
      break;
    case "rename to":
      s.renameTo = unquote(value);
      break;
    case "copy from":
    case "copy to":
      throw new PatchParseError(
        `Line ${no}: file copies ("${line}") are not supported; add the copy as a new file.`,
        no,
      );
  }
}

const GIT_HEADERS = [
  "new file mode",
  "deleted file mode",
  "new mode",
  "rename from",
  "rename to",
  "copy from",
  "copy to",
];

/** A git extended header line as [name, value]; ["", ""] for any other line. */
function splitHeader(line: string): [string, string] {
  for (const name of GIT_HEADERS) {
    if (line.startsWith(`${name} `)) return [name, line.slice(name.length + 1)];
  }
  return ["", ""];
}

/** Reads one hunk starting at its header line; returns the index after it. */
function readHunk(
  lines: string[],
  start: number,
  offset: number,
  s: Section,
  warnings: string[],
  isFileHeader: (i: number) => boolean,
): number {
  const header = lines[start]!;
  const no = start + 1 + offset;
  const m = HUNK_HEADER.exec(header);
  if (!m && !BARE_HUNK_HEADER.test(header)) {
    throw new PatchParseError(
      `Line ${no}: "${header}" is not a hunk header; write "@@ -start,count +start,count @@".`,
      no,
    );
  }
  const where = s.newPath ?? s.oldPath ?? s.gitPaths?.[1] ?? "the file";
  const hunk: Hunk = {
    index: s.hunks.length + 1,
    header: m ? header.slice(0, header.length - m[5]!.length).trimEnd() : header.trim(),
    patchLine: no,
    anchors: [],
    lines: [],
    atEnd: false,
    oldNoNewline: false,
    newNoNewline: false,
  };
  if (m) hunk.oldStart = Number(m[1]);
  const counted = m !== null;
  let oldLeft = m ? (m[2] === undefined ? 1 : Number(m[2])) : 0;
  let newLeft = m ? (m[4] === undefined ? 1 : Number(m[4])) : 0;
  let extra = false;
  let i = start + 1;
  const isHunkLine = (l: string | undefined) =>
    l !== undefined && (l[0] === " " || l[0] === "-" || l[0] === "+");
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith("\\")) {
      const prev = hunk.lines.at(-1)?.op;
      if (prev === "-" || prev === " ") hunk.oldNoNewline = true;
      if (prev === "+" || prev === " ") hunk.newNoNewline = true;
      continue;
    }
    const counting = counted && (oldLeft > 0 || newLeft > 0);
    if (!counting && (isFileHeader(i) || line.startsWith("diff "))) break;
    let op: " " | "-" | "+";
    let body: string;
    if (line === "") {
      // An empty line is a blank context line whose space was stripped, unless it ends the hunk.
      if (!counting && !(isHunkLine(lines[i + 1]) && !isFileHeader(i + 1))) break;
      op = " ";
      body = "";
    } else if (isHunkLine(line)) {
      op = line[0] as " " | "-" | "+";
      body = line.slice(1);
    } else {
      break;
    }
    if (counted && !counting) extra = true;
    if (op !== "+") oldLeft--;
    if (op !== "-") newLeft--;
    hunk.lines.push({ op, text: body });
  }
  if (counted && (extra || oldLeft !== 0 || newLeft !== 0)) {
    const olds = hunk.lines.filter((l) => l.op !== "+").length;
    const news = hunk.lines.filter((l) => l.op !== "-").length;
    warnings.push(
      `Hunk ${hunk.index} of ${where} (${hunk.header}) has ${olds} old and ${news} new lines, not what its header counts; its lines were used as written.`,
    );
  }
  if (counted) hunk.headerFits = !extra && oldLeft === 0 && newLeft === 0;
  if (hunk.lines.length === 0) {
    throw new PatchParseError(`Line ${no}: hunk ${hunk.index} of ${where} has no lines.`, no);
  }
  hunk.atEnd = hunk.oldNoNewline;
  s.hunks.push(hunk);
  return i;
}

function fileOp(s: Section, warnings: string[]): FileOp[] {
  // The ---/+++ and diff --git lines carry a/ b/ prefixes when both do; rename from/to carry
  // none. Each name is taken from the rename line when there is one, else from the headers,
  // so a rename that gives only "rename from" still reads its new name without the "b/".
  const headOld = s.oldPath ?? s.gitPaths?.[0];
  const headNew = s.newPath ?? s.gitPaths?.[1];
  const prefixed =
    (headOld === DEV_NULL || headOld?.startsWith("a/") === true) &&
    (headNew === DEV_NULL || headNew?.startsWith("b/") === true);
  const header = (path: string | undefined, prefix: "a/" | "b/") =>
    path === undefined || path === DEV_NULL ? path : strip(path, prefix, prefixed);
  const oldPath = s.renameFrom ?? header(headOld, "a/");
  const newPath = s.renameTo ?? header(headNew, "b/");
  const patchLine = s.patchLine;
  if (s.newFile || oldPath === DEV_NULL) {
    const path = newPath ?? "";
    if (path === "" || path === DEV_NULL) {
      throw new PatchParseError(`Line ${patchLine}: a new file without a path.`, patchLine);
    }
    const hunk = s.hunks.at(-1);
    const lines = s.hunks.flatMap((h) => h.lines.filter((l) => l.op !== "-").map((l) => l.text));
    return [
      {
        kind: "add",
        path,
        lines,
        finalNewline: !(hunk?.newNoNewline ?? false),
        patchLine,
        ...(s.fileMode !== undefined ? { fileMode: s.fileMode } : {}),
      },
    ];
  }
  if (s.deletedFile || newPath === DEV_NULL) {
    if (oldPath === undefined) {
      throw new PatchParseError(`Line ${patchLine}: a deleted file without a path.`, patchLine);
    }
    const expected =
      s.hunks.length > 0
        ? s.hunks.flatMap((h) => h.lines.filter((l) => l.op !== "+").map((l) => l.text))
        : undefined;
    return [{ kind: "delete", path: oldPath, patchLine, ...(expected ? { expected } : {}) }];
  }
  const path = oldPath ?? newPath;
  if (path === undefined) {
    throw new PatchParseError(`Line ${patchLine}: a file section without a path.`, patchLine);
  }
  const renamed = s.git && newPath !== undefined && newPath !== path;
  if (!s.git && newPath !== undefined && newPath !== path) {
    warnings.push(
      `The old and new names differ (${path}, ${newPath}) in a diff without git headers; patched ${newPath}.`,
    );
    return [update(s, newPath, undefined)];
  }
  if (s.hunks.length === 0 && !renamed && s.fileMode === undefined) return [];
  return [update(s, path, renamed ? newPath : undefined)];
}

function update(s: Section, path: string, moveTo: string | undefined): FileOp {
  return {
    kind: "update",
    path,
    hunks: s.hunks,
    patchLine: s.patchLine,
    ...(moveTo !== undefined ? { moveTo } : {}),
    ...(s.fileMode !== undefined ? { fileMode: s.fileMode } : {}),
  };
}
