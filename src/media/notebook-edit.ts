/**
 * Changes to a notebook's cells as edits of its JSON text (jsonc-parser's
 * `modify`): only the bytes of the value changed are rewritten, in the
 * file's own indent and line ending, so every other byte, key order and the
 * trailing newline stay as they were. New cells get the keys nbformat 4.5
 * gives them (sorted, as Jupyter writes them) and, from nbformat 4.5 on, an id.
 */
import { randomBytes } from "node:crypto";
import { applyEdits, type FormattingOptions, type JSONPath, modify } from "jsonc-parser";
import type { CellType, Notebook, NotebookCell } from "./notebook.js";

/** How the file is laid out: the indent of its first key, its line ending. */
function formatting(text: string): FormattingOptions {
  const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? " ";
  const tabs = indent.startsWith("\t");
  return {
    insertSpaces: !tabs,
    tabSize: tabs ? 1 : indent.length,
    eol: text.includes("\r\n") ? "\r\n" : "\n",
  };
}

function edit(text: string, path: JSONPath, value: unknown, insert = false): string {
  const formattingOptions = formatting(text);
  return applyEdits(
    text,
    modify(text, path, value, { formattingOptions, ...(insert ? { isArrayInsertion: true } : {}) }),
  );
}

/** Source text as nbformat stores it: a list of lines, each but the last ending in "\n". */
export function sourceLines(source: string): string[] {
  return source.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** The new source in the form the cell had (a list of lines, or one string). */
const sourceValue = (cell: NotebookCell, source: string): string | string[] =>
  typeof cell.source === "string" ? source : sourceLines(source);

export function replaceSource(text: string, nb: Notebook, index: number, source: string): string {
  return edit(text, ["cells", index, "source"], sourceValue(nb.cells[index]!, source));
}

/** A fresh cell id: 8 hex digits, like Jupyter's, unique in the notebook. */
function newId(nb: Notebook): string {
  const taken = new Set(nb.cells.map((c) => c.id));
  for (;;) {
    const id = randomBytes(4).toString("hex");
    if (!taken.has(id)) return id;
  }
}

const wantsIds = (nb: Notebook): boolean =>
  (nb.nbformat_minor ?? 0) >= 5 || nb.cells.some((c) => c.id !== undefined);

/** Inserts a new cell at `index` (0 = first); returns the text and the new cell's id. */
export function insertCell(
  text: string,
  nb: Notebook,
  index: number,
  type: CellType,
  source: string,
): { text: string; id?: string } {
  const id = wantsIds(nb) ? newId(nb) : undefined;
  const cell: Record<string, unknown> = { cell_type: type };
  if (type === "code") cell.execution_count = null;
  if (id) cell.id = id;
  cell.metadata = {};
  if (type === "code") cell.outputs = [];
  cell.source = sourceLines(source);
  return { text: edit(text, ["cells", index], cell, true), ...(id ? { id } : {}) };
}

export function deleteCell(text: string, index: number): string {
  return edit(text, ["cells", index], undefined);
}

/** A code cell's outputs emptied and its execution count cleared. */
export function clearOutputs(text: string, nb: Notebook, index: number): string {
  const cell = nb.cells[index]!;
  if (cell.cell_type !== "code") return text;
  let out = text;
  if ((cell.outputs ?? []).length > 0) out = edit(out, ["cells", index, "outputs"], []);
  if (cell.execution_count !== null) out = edit(out, ["cells", index, "execution_count"], null);
  return out;
}

/**
 * The cell's type changed, with the fields nbformat requires of the new type:
 * a code cell gains `outputs` and `execution_count`, any other loses them.
 */
export function setCellType(text: string, nb: Notebook, index: number, type: CellType): string {
  const cell = nb.cells[index]!;
  if (cell.cell_type === type) return text;
  let out = edit(text, ["cells", index, "cell_type"], type);
  if (type === "code") {
    out = edit(out, ["cells", index, "execution_count"], null);
    out = edit(out, ["cells", index, "outputs"], []);
  } else {
    if ("outputs" in cell) out = edit(out, ["cells", index, "outputs"], undefined);
    if ("execution_count" in cell) out = edit(out, ["cells", index, "execution_count"], undefined);
  }
  return out;
}
