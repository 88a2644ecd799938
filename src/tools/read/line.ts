/**
 * The read tool's `line` target: the innermost definition (or block) around a
 * line, in hashline form with large nested blocks elided.
 */

import type { LoadedFile } from "../../change/load.js";
import { blockAt, definitionAt } from "../../code/blocks.js";
import type { Section } from "../../code/elide.js";
import { languageOf, parseCode } from "../../code/languages.js";
import { type Definition, extractDefinitions, qualifiedName } from "../../code/symbols.js";
import { ToolError } from "../../errors.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import { normalizedText } from "../../text/document.js";
import type { ToolContext } from "../define.js";
import type { ReadResult } from "./result.js";
import { elisionsFor, info, linesOf, render } from "./symbol-view.js";
import { readWindow } from "./window.js";

const MEMBERISH = new Set(["variable", "constant", "field", "property", "key"]);

/**
 * The definition a `line` read shows: the innermost function, class or the
 * like around the line (a field is shown by its class); else the innermost
 * multi-line definition (a data key's object); else any.
 */
function blockDefinition(defs: readonly Definition[], line: number): Definition | undefined {
  const around = defs.filter((d) => d.start <= line && d.end >= line);
  return (
    definitionAt(
      around.filter((d) => !MEMBERISH.has(d.kind)),
      line,
    ) ??
    definitionAt(
      around.filter((d) => d.end > d.start),
      line,
    ) ??
    definitionAt(around, line)
  );
}

/**
 * Reads the innermost definition (or block) around `line`; in a file splice
 * does not parse, or outside every block, the lines around it (`window.ts`).
 */
export async function readLine(
  context: ToolContext,
  file: GuardedPath,
  loaded: LoadedFile,
  line: number,
  warnings: string[],
): Promise<ReadResult> {
  const lines = loaded.doc.lines;
  if (line > lines.length) {
    throw new ToolError(
      "invalid_input",
      `line ${line} is past the end: ${file.display} has ${lines.length} lines.`,
    );
  }
  const language = languageOf(file.display);
  if (!language) {
    return readWindow(context, { file, loaded }, line, "not a language splice parses", warnings);
  }
  const root = parseCode(language, normalizedText(loaded.doc)).root();
  const defs = extractDefinitions(root, language, lines);
  const def = blockDefinition(defs, line);
  const block = def
    ? {
        start: def.start,
        end: def.end,
        node: def.node,
        label: `${def.kind} ${qualifiedName(def, language)}`,
      }
    : blockAt(root, lines, defs, line);
  if (!block) {
    return readWindow(context, { file, loaded }, line, "not inside a definition", warnings);
  }
  const a = { file, language, loaded, defs };
  const section: Section = {
    start: block.start,
    end: block.end,
    title: `${block.label}: ${linesOf(block.start, block.end)} of ${lines.length} (around line ${line})`,
    elisions: elisionsFor(a, block, [line]),
  };
  const definitions = def ? [info({ ...a, matches: [] }, def)] : [];
  return render(context, a, [section], definitions, warnings);
}
