/**
 * A fast syntax check after an edit, no language server needed: parse the
 * file before and after, and name the parse errors the edit introduced.
 * Errors that were already there, or only moved, are not the edit's fault.
 */
import type { SgNode } from "@ast-grep/napi";
import { commonSpan } from "../text/diff.js";
import { type Document, normalizedText } from "../text/document.js";
import { type Language, languageOf, parseCode, parseCodeAsync } from "./languages.js";

/**
 * Files above this size are not checked: parsing costs about 0.5 s per MB,
 * which an edit of a large file should not pay. (Cost is one parse when the
 * result is clean, two when it is not.)
 */
export const SYNTAX_CHECK_MAX_CHARS = 256 * 1024;

/** At most this many problems are collected per version. */
const MAX_PROBLEMS = 50;
/** At most this many new problems are named in a warning. */
const MAX_NAMED = 5;

export interface SyntaxProblem {
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
  /** 1-based: the last line the problem covers (an error node can span lines). */
  endLine: number;
  kind: "error" | "missing";
  /** What is unexpected, or which token is missing. */
  text: string;
}

function snippet(text: string): string {
  const first = text.trim().split("\n", 1)[0] ?? "";
  const short = first.replace(/\s+/g, " ");
  return short.length > 40 ? `${short.slice(0, 39)}…` : short;
}

/** ERROR nodes, and zero-width nodes (tokens the parser invented), in one walk of the tree. */
const PROBLEM_RULE = { any: [{ kind: "ERROR" }, { regex: "^$" }] };

function problemNodes(root: SgNode): SgNode[] {
  try {
    return root.findAll({ rule: PROBLEM_RULE } as never);
  } catch {
    // A grammar without the ERROR kind reports only missing tokens.
    return root.findAll({ rule: { regex: "^$" } } as never);
  }
}

/** Parse errors (ERROR nodes) and tokens the parser had to invent (MISSING nodes, zero width). */
export function syntaxProblems(root: SgNode): SyntaxProblem[] {
  const errors: SyntaxProblem[] = [];
  const missing: SyntaxProblem[] = [];
  const whole = root.range();
  let coveredUntil = -1;
  for (const node of problemNodes(root)) {
    const range = node.range();
    const line = range.start.line + 1;
    // An error that ends at the start of a line does not cover that line.
    const endLine = Math.max(line, range.end.line + (range.end.column > 0 ? 1 : 0));
    const at = { line, column: range.start.column + 1, endLine };
    if (node.kind() === "ERROR") {
      if (range.start.index < coveredUntil) continue; // inside an error already named
      coveredUntil = range.end.index;
      if (errors.length < MAX_PROBLEMS)
        errors.push({ ...at, kind: "error", text: snippet(node.text()) });
    } else if (range.start.index === range.end.index && whole.end.index !== whole.start.index) {
      // (a zero-width root is an empty file, not a missing token)
      if (missing.length < MAX_PROBLEMS)
        missing.push({ ...at, kind: "missing", text: node.kind() as string });
    }
  }
  const out =
    errors.length >= MAX_PROBLEMS ? errors : [...errors, ...missing].slice(0, MAX_PROBLEMS);
  return out.sort((a, b) => a.line - b.line || a.column - b.column);
}

const keyOf = (p: SyntaxProblem) => `${p.kind}\u0000${p.text}`;

/**
 * The problems of `after` that `before` did not have, each old problem
 * excusing at most one new one. Lines outside the changed middle map back
 * one to one; a problem that matches an old one by kind and text (anywhere)
 * only moved. A problem where the old version already had one of its kind
 * was not introduced either: for one clear of the changed lines, on the same
 * mapped line (error recovery is not local, so an edit elsewhere can change
 * where an old error node starts and what it covers); for one that reaches
 * into the changed lines, when an old one reached into them too.
 */
export function introducedProblems(
  before: readonly SyntaxProblem[],
  after: readonly SyntaxProblem[],
  beforeLines: readonly string[],
  afterLines: readonly string[],
): SyntaxProblem[] {
  if (after.length === 0) return [];
  const { prefix, suffix } = commonSpan(beforeLines, afterLines);
  const shift = afterLines.length - beforeLines.length;
  // Whether lines first..last reach into the changed middle (or span it, where it is empty).
  const reaches = (first: number, last: number, length: number) =>
    first <= length - suffix && last > prefix;
  const remaining = [...before];
  const take = (test: (p: SyntaxProblem) => boolean): boolean => {
    const i = remaining.findIndex(test);
    if (i < 0) return false;
    remaining.splice(i, 1);
    return true;
  };
  const mappedLine = (p: SyntaxProblem) =>
    reaches(p.line, p.endLine, afterLines.length)
      ? undefined
      : p.line <= prefix
        ? p.line
        : p.line - shift;
  const pending: SyntaxProblem[] = [];
  for (const p of after) {
    const mapped = mappedLine(p);
    if (mapped !== undefined && take((q) => q.line === mapped && keyOf(q) === keyOf(p))) continue;
    pending.push(p);
  }
  const fresh: SyntaxProblem[] = [];
  for (const p of pending) {
    if (take((q) => keyOf(q) === keyOf(p))) continue;
    const mapped = mappedLine(p);
    const there = (q: SyntaxProblem) =>
      mapped === undefined ? reaches(q.line, q.endLine, beforeLines.length) : q.line === mapped;
    if (take((q) => q.kind === p.kind && there(q))) continue;
    fresh.push(p);
  }
  return fresh;
}

export function describeProblem(p: SyntaxProblem): string {
  if (p.kind === "missing") {
    const what = /^\w+$/.test(p.text) ? p.text.replaceAll("_", " ") : `"${p.text || "token"}"`;
    return `line ${p.line}:${p.column}: missing ${what}`;
  }
  return `line ${p.line}:${p.column}: unexpected "${p.text}"`;
}

export function syntaxWarning(language: Language, problems: readonly SyntaxProblem[]): string {
  const named = problems.slice(0, MAX_NAMED).map(describeProblem).join("; ");
  const more = problems.length > MAX_NAMED ? `; and ${problems.length - MAX_NAMED} more` : "";
  return `Syntax check (${language.name}): the edit introduces parse errors the file did not have — ${named}${more}. Check the diff and fix them, or undo.`;
}

/** Over the size limit, counted without joining the text (that alone costs ms at 1 MB). */
function tooBig(doc: Document): boolean {
  let chars = 0;
  for (const line of doc.lines) {
    chars += line.length + 1;
    if (chars > SYNTAX_CHECK_MAX_CHARS) return true;
  }
  return false;
}

function problemsOf(language: Language, text: string): SyntaxProblem[] {
  return syntaxProblems(parseCode(language, text).root());
}

/**
 * The warning for an edit from `before` to `after` of `path`, or undefined
 * when it parses as well as before (or the language or size is out of scope).
 * `beforeProblems` saves a parse when the caller already has the old tree;
 * it is asked only when the new version has problems.
 */
export function checkEdit(
  path: string,
  before: Document | undefined,
  after: Document,
  beforeProblems?: () => readonly SyntaxProblem[],
): string | undefined {
  const language = languageOf(path);
  if (!language || tooBig(after)) return undefined;
  const afterProblems = problemsOf(language, normalizedText(after));
  return warningFor(language, before, after, afterProblems, beforeProblems);
}

/**
 * checkEdit with the new version parsed on the thread pool, while the caller
 * goes on: an edit or a batch writes meanwhile, and waits for the warning last.
 */
export async function checkEditAsync(
  path: string,
  before: Document | undefined,
  after: Document,
  beforeProblems?: () => readonly SyntaxProblem[],
): Promise<string | undefined> {
  const language = languageOf(path);
  if (!language || tooBig(after)) return undefined;
  const root = (await parseCodeAsync(language, normalizedText(after))).root();
  return warningFor(language, before, after, syntaxProblems(root), beforeProblems);
}

function warningFor(
  language: Language,
  before: Document | undefined,
  after: Document,
  afterProblems: readonly SyntaxProblem[],
  beforeProblems?: () => readonly SyntaxProblem[],
): string | undefined {
  if (afterProblems.length === 0) return undefined;
  let old: readonly SyntaxProblem[] = beforeProblems?.() ?? [];
  if (!beforeProblems && before) {
    if (tooBig(before)) return undefined;
    old = problemsOf(language, normalizedText(before));
  }
  const fresh = introducedProblems(old, afterProblems, before?.lines ?? [], after.lines);
  return fresh.length > 0 ? syntaxWarning(language, fresh) : undefined;
}
