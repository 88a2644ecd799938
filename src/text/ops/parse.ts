/**
 * The line-op DSL as text: parsing (forgiving where the meaning is certain,
 * strict where it is not) and canonical rendering. Applying ops lives in
 * ops.ts, which re-exports everything here.
 */

import { stripNumberedPrefixes } from "../hashline.js";
import { formatRange } from "../range.js";

export type OpsErrorCode = "invalid_input" | "out_of_range" | "overlap" | "needs_syntax";

export class OpsError extends Error {
  /** 1-based line of the DSL text the error is about, when there is one. */
  readonly dslLine?: number;
  readonly code: OpsErrorCode;

  constructor(code: OpsErrorCode, message: string, dslLine?: number) {
    super(message);
    this.name = "OpsError";
    this.code = code;
    if (dslLine !== undefined) this.dslLine = dslLine;
  }
}

export type LineOp =
  | { kind: "replace"; start: number; end: number; lines: string[]; dslLine: number }
  | { kind: "delete"; start: number; end: number; dslLine: number }
  | { kind: "insert"; where: "before" | "after"; line: number; lines: string[]; dslLine: number }
  | { kind: "insert"; where: "head" | "tail"; lines: string[]; dslLine: number }
  | { kind: "replace_block"; line: number; lines: string[]; dslLine: number }
  | { kind: "delete_block"; line: number; dslLine: number }
  | { kind: "insert_after_block"; line: number; lines: string[]; dslLine: number };

/** The op's first line in canonical DSL form, e.g. `replace 5..7:` or `delete 10`. */
export function opHeader(op: LineOp): string {
  switch (op.kind) {
    case "replace":
      return `replace ${formatRange([op.start, op.end])}:`;
    case "delete":
      return `delete ${formatRange([op.start, op.end])}`;
    case "insert":
      return "line" in op ? `insert ${op.where} ${op.line}:` : `insert ${op.where}:`;
    case "replace_block":
      return `replace block ${op.line}:`;
    case "delete_block":
      return `delete block ${op.line}`;
    case "insert_after_block":
      return `insert after block ${op.line}:`;
  }
}

/**
 * Canonical DSL text, one op after another. `parseOps(renderOps(ops))` gives
 * the same ops back (dslLine aside) as long as no body line contains a line
 * break, and no body consists entirely of `N| `-numbered lines (the DSL
 * cannot tell those from copied read output, so parsing strips them).
 */
export function renderOps(ops: LineOp[]): string {
  const out: string[] = [];
  for (const op of ops) {
    out.push(opHeader(op));
    if ("lines" in op) for (const line of op.lines) out.push(`+${line}`);
  }
  return out.join("\n");
}

const MAX_QUOTE = 80;

function quote(raw: string): string {
  return `"${raw.length > MAX_QUOTE ? `${raw.slice(0, MAX_QUOTE - 1)}…` : raw}"`;
}

function fail(dslLine: number, raw: string, expected: string): never {
  throw new OpsError("invalid_input", `line ${dslLine}: ${quote(raw)} — ${expected}`, dslLine);
}

const NUMBER = /^-?\d+$/;
const RANGE = /^(-?\d+)(?:\s*(?:\.\.|-|,)\s*(-?\d+))?$/;

function lineNumber(text: string, dslLine: number, raw: string, example: number): number {
  if (!NUMBER.test(text)) {
    if (RANGE.test(text))
      fail(dslLine, raw, `expected one line number like ${example}, not a range`);
    fail(dslLine, raw, `expected a line number like ${example}`);
  }
  return checkedNumber(text, dslLine, raw);
}

function checkedNumber(text: string, dslLine: number, raw: string): number {
  const n = Number(text);
  if (n < 1) fail(dslLine, raw, `line numbers start at 1 (got ${text})`);
  if (!Number.isSafeInteger(n)) fail(dslLine, raw, `line number ${text} is too large`);
  return n;
}

function lineRange(text: string, dslLine: number, raw: string): [number, number] {
  const m = RANGE.exec(text);
  if (!m) fail(dslLine, raw, "expected a line number or range like 5..7");
  const start = checkedNumber(m[1]!, dslLine, raw);
  const end = m[2] === undefined ? start : checkedNumber(m[2], dslLine, raw);
  if (start > end) {
    fail(dslLine, raw, `the range ${start}..${end} runs backwards; write ${end}..${start}`);
  }
  return [start, end];
}

type Header =
  | { kind: "replace"; start: number; end: number }
  | { kind: "delete"; start: number; end: number }
  | { kind: "insert"; where: "before" | "after"; line: number }
  | { kind: "insert"; where: "head" | "tail" }
  | { kind: "replace_block"; line: number }
  | { kind: "delete_block"; line: number }
  | { kind: "insert_after_block"; line: number };

function parseHeader(raw: string, dslLine: number): Header {
  let text = raw.trim();
  if (text.endsWith(":")) text = text.slice(0, -1).trimEnd();
  const word = /^[A-Za-z]+(?=\s|$)/.exec(text)?.[0].toLowerCase();
  if (word !== "replace" && word !== "delete" && word !== "insert") {
    const first = /^\S+/.exec(text)?.[0] ?? text;
    const hint = raw.trimStart().startsWith("+")
      ? "body lines must start with + in the first column"
      : `unknown op "${first}"; expected replace, delete or insert (body lines must start with +)`;
    fail(dslLine, raw, hint);
  }
  if (text.includes(":")) {
    fail(
      dslLine,
      raw,
      "expected the op to end at its colon; put the new text on the following lines, each starting with +",
    );
  }
  let rest = text.slice(word.length).trim();
  if (word === "replace" || word === "delete") {
    const block = /^block(?:\s+|$)/i.exec(rest);
    if (block) {
      const line = lineNumber(rest.slice(block[0].length), dslLine, raw, 40);
      return { kind: word === "replace" ? "replace_block" : "delete_block", line };
    }
    const [start, end] = lineRange(rest, dslLine, raw);
    return { kind: word, start, end };
  }
  const where = /^(before|after|head|tail)(?:\s+|$)/i.exec(rest);
  if (!where) {
    fail(dslLine, raw, "expected insert before N:, insert after N:, insert head: or insert tail:");
  }
  const w = where[1]!.toLowerCase() as "before" | "after" | "head" | "tail";
  rest = rest.slice(where[0].length);
  if (w === "head" || w === "tail") {
    if (rest !== "") fail(dslLine, raw, `expected nothing after insert ${w}`);
    return { kind: "insert", where: w };
  }
  const block = w === "after" ? /^block(?:\s+|$)/i.exec(rest) : null;
  if (block) {
    return {
      kind: "insert_after_block",
      line: lineNumber(rest.slice(block[0].length), dslLine, raw, 40),
    };
  }
  return { kind: "insert", where: w, line: lineNumber(rest, dslLine, raw, 3) };
}

interface Pending {
  header: Header;
  raw: string;
  dslLine: number;
  body: string[];
  /** A blank line came after this op; a later body line would be ambiguous. */
  closed: boolean;
}

function takesBody(header: Header): boolean {
  return header.kind !== "delete" && header.kind !== "delete_block";
}

function finish(p: Pending, warnings: string[]): LineOp {
  const { header, dslLine } = p;
  if (!takesBody(header)) return { ...header, dslLine } as LineOp;
  if (p.body.length === 0) {
    let expected = "expected body lines starting with + after it (a lone + is an empty line)";
    if (header.kind === "replace") expected += "; use delete to remove lines";
    if (header.kind === "replace_block") expected += "; use delete block to remove a block";
    fail(dslLine, p.raw, expected);
  }
  let lines = p.body;
  const stripped = stripNumberedPrefixes(lines);
  if (stripped) {
    lines = stripped;
    warnings.push(
      `line ${dslLine}: removed copied "N| " line-number prefixes from the body of ${quote(p.raw.trim())}; the prefixes are not part of the file`,
    );
  }
  return { ...header, lines, dslLine } as LineOp;
}

/** Parses DSL text into ops. Throws OpsError (code "invalid_input") naming the DSL line. */
export function parseOps(dsl: string): { ops: LineOp[]; warnings: string[] } {
  const ops: LineOp[] = [];
  const warnings: string[] = [];
  let pending: Pending | undefined;
  const rows = dsl.split("\n");
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    const raw = row.endsWith("\r") ? row.slice(0, -1) : row;
    const dslLine = i + 1;
    if (raw.startsWith("+")) {
      if (!pending) {
        fail(
          dslLine,
          raw,
          "expected an op before body lines, like replace 5..7: or insert after 3:",
        );
      }
      if (!takesBody(pending.header)) {
        fail(
          dslLine,
          raw,
          `${quote(pending.raw.trim())} on line ${pending.dslLine} takes no body; to change lines use replace with + lines`,
        );
      }
      if (pending.closed) {
        fail(
          dslLine,
          raw,
          `a blank line separates this from the op on line ${pending.dslLine}; write a lone + for an empty line, or remove the blank line`,
        );
      }
      pending.body.push(raw.slice(1));
    } else if (raw.trim() === "") {
      if (pending) pending.closed = true;
    } else {
      if (pending) ops.push(finish(pending, warnings));
      pending = { header: parseHeader(raw, dslLine), raw, dslLine, body: [], closed: false };
    }
  }
  if (pending) ops.push(finish(pending, warnings));
  if (ops.length === 0) {
    throw new OpsError(
      "invalid_input",
      "the ops text is empty; expected at least one op like replace 5..7: followed by + lines",
    );
  }
  return { ops, warnings };
}
