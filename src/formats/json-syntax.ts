/** The text between JSON members (commas, comments, whitespace) and one-line values. */
import type { Json } from "./values.js";

export type GapToken = {
  kind: "ws" | "nl" | "comma" | "comment" | "other";
  start: number;
  end: number;
};

/** Tokens between two members: only whitespace, commas and comments live there. */
export function scanGap(src: string, from: number, to: number): GapToken[] {
  const out: GapToken[] = [];
  let i = from;
  while (i < to) {
    const c = src[i]!;
    let end = i + 1;
    let kind: GapToken["kind"] = "other";
    if (c === "\n") kind = "nl";
    else if (c === " " || c === "\t" || c === "\r") kind = "ws";
    else if (c === ",") kind = "comma";
    else if (c === "/" && src[i + 1] === "/") {
      kind = "comment";
      const nl = src.indexOf("\n", i);
      end = nl === -1 || nl > to ? to : nl;
    } else if (c === "/" && src[i + 1] === "*") {
      kind = "comment";
      const close = src.indexOf("*/", i + 2);
      end = close === -1 ? to : Math.min(to, close + 2);
    }
    out.push({ kind, start: i, end });
    i = end;
  }
  return out;
}

export function isCommentLine(line: string): boolean {
  const t = line.trim();
  if (t.startsWith("//")) return true;
  return t.startsWith("/*") && t.indexOf("*/") === t.length - 2;
}

export function inlineJson(value: Json): string {
  if (Array.isArray(value)) return `[${value.map(inlineJson).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    return `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${inlineJson(v)}`).join(", ")} }`;
  }
  return JSON.stringify(value);
}

export function humanize(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}
