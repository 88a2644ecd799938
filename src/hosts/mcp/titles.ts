/**
 * A tool's display title for MCP clients, taken from its description: the
 * first sentence without its asides. Clients show it in tool lists and
 * approval prompts, so it must read as a whole phrase ("Create, extend,
 * rename or delete a whole file"), never a fragment cut at a comma.
 */

/** Past this many characters a title is cut back to its last whole clause that fits. */
export const MAX_TITLE_LENGTH = 80;

/** The first sentence: up to a full stop, colon or semicolon outside parentheses and backticks. */
function firstSentence(text: string): string {
  let depth = 0;
  let code = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "`") code = !code;
    else if (code) continue;
    else if (c === "(") depth++;
    else if (c === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0 && (c === ":" || c === ";")) return text.slice(0, i);
    // A full stop ends a sentence only before a space or the end ("a.b" and "1.5" do not).
    else if (depth === 0 && c === "." && (i + 1 === text.length || /\s/.test(text[i + 1]!))) {
      return text.slice(0, i);
    }
  }
  return text;
}

/** Without parenthesized asides and asides between em dashes (or one running to the end). */
function withoutAsides(sentence: string): string {
  let out = sentence;
  let before: string;
  do {
    before = out;
    out = out.replace(/\s*\([^()]*\)/g, "");
  } while (out !== before);
  return out
    .replace(/\s*—[^—]*—\s*/g, " ")
    .replace(/\s*—.*$/, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** The title for a tool with this description; `name` when the description gives none. */
export function titleOf(description: string, name: string): string {
  const firstLine = description.split("\n", 1)[0] ?? "";
  let title = withoutAsides(firstSentence(firstLine));
  if (title.length > MAX_TITLE_LENGTH) {
    // A long sentence keeps its leading clauses: cut at the last comma that fits.
    const cut = title.lastIndexOf(",", MAX_TITLE_LENGTH);
    title = cut > 0 ? title.slice(0, cut) : title;
  }
  return title.length > 0 && title.length <= MAX_TITLE_LENGTH ? title : name;
}
