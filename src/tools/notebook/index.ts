/**
 * The notebook tool: change a Jupyter notebook by cell — its source (whole,
 * or old_text → new_text inside it), a new cell before or after another, a
 * deletion, its type, its outputs. The JSON is edited in place
 * (media/notebook-edit.ts) and written through the one write pipeline, so
 * history and undo see it like any other write.
 */
import { z } from "zod";
import type { ChangeResult, Mode } from "../../change/change.js";
import { commit } from "../../change/commit.js";
import { type LoadedFile, loadTextFile } from "../../change/load.js";
import { serialized } from "../../change/lock.js";
import { clip, ToolError } from "../../errors.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import { MediaError } from "../../media/error.js";
import { isNotebookPath } from "../../media/kind.js";
import {
  type CellType,
  cellLabel,
  joined,
  type Notebook,
  parseNotebook,
} from "../../media/notebook.js";
import { parseDocument } from "../../text/document.js";
import type { ToolContext } from "../define.js";
import { CHANGES, defineTool, manual } from "../define.js";

const ACTIONS = [
  "replace_source",
  "edit_source",
  "insert_after",
  "insert_before",
  "delete",
  "set_type",
  "clear_outputs",
] as const;

const cellType = z.enum(["code", "markdown", "raw"]);

const input = z.strictObject({
  action: z.enum(ACTIONS),
  path: z.string(),
  cell: z.string().optional().describe('Id, or number: "3".'),
  source: z.string().optional(),
  old_text: z.string().optional(),
  new_text: z.string().optional(),
  cell_type: cellType.optional(),
});

/** The tool's arguments, and the preview mode its preview runs in. */
type Args = z.output<typeof input> & { mode?: Mode };

export interface NotebookResult extends ChangeResult {
  action: `notebook.${(typeof ACTIONS)[number]}`;
  file_hash: string;
  /** The cell changed or added, as read shows it; absent for a deletion or a whole-notebook clear. */
  cell?: string;
}

const invalid = (message: string) => new ToolError("invalid_input", message);

function need<T>(value: T | undefined, field: string, action: string): T {
  if (value === undefined) throw invalid(`${action} needs "${field}".`);
  return value;
}

/** The 0-based index of the cell `ref` names, or a not_found naming the cells there are. */
function cellIndex(nb: Notebook, ref: string | number, display: string): number {
  const count = nb.cells.length;
  if (typeof ref === "number") {
    if (ref <= count) return ref - 1;
    throw new ToolError(
      "not_found",
      `${display} has ${count} cell(s), so there is no cell ${ref}. Read it to see its cells.`,
      { path: display },
    );
  }
  const byId = nb.cells.findIndex((c) => c.id === ref);
  if (byId !== -1) return byId;
  const digits = /^#?(\d+)$/.exec(ref);
  if (digits) return cellIndex(nb, Number(digits[1]), display);
  const ids = nb.cells.flatMap((c) => (c.id ? [c.id] : [])).slice(0, 10);
  const some = ids.length > 0 ? ` Its cell ids include ${ids.join(", ")}.` : "";
  throw new ToolError(
    "not_found",
    `${display} has no cell with id ${JSON.stringify(clip(ref, 60))}.${some} Read it to see its cells, or name a cell by number.`,
    { path: display },
  );
}

/** old_text found exactly once in the cell's source, replaced by new_text. */
function editedSource(source: string, oldText: string, newText: string, label: string): string {
  if (oldText === "") throw invalid('edit_source needs a non-empty "old_text".');
  const at = source.indexOf(oldText);
  if (at === -1) {
    throw new ToolError(
      "not_found",
      `old_text is not in the source of ${label}. Read the notebook again and copy the text exactly (without the "N| " numbers).`,
    );
  }
  if (source.indexOf(oldText, at + 1) !== -1) {
    throw new ToolError(
      "ambiguous",
      `old_text occurs more than once in ${label}; include more of the surrounding lines so it names one place.`,
    );
  }
  return source.slice(0, at) + newText + source.slice(at + oldText.length);
}

interface Planned {
  text: string;
  /** The cell to name in the result: its index after the change. */
  index?: number;
}

/** The JSON editor, loaded (with jsonc-parser) by the first notebook call rather than with splice. */
type Editor = typeof import("../../media/notebook-edit.js");

function plan(ed: Editor, args: Args, text: string, nb: Notebook, display: string): Planned {
  const { clearOutputs, deleteCell, insertCell, replaceSource, setCellType } = ed;
  const action = args.action;
  const at = (ref: string | undefined) => cellIndex(nb, need(ref, "cell", action), display);
  switch (action) {
    case "replace_source": {
      const i = at(args.cell);
      return { text: replaceSource(text, nb, i, need(args.source, "source", action)), index: i };
    }
    case "edit_source": {
      const i = at(args.cell);
      const label = cellLabel(nb.cells[i]!, i);
      const old = need(args.old_text, "old_text", action);
      const source = editedSource(
        joined(nb.cells[i]!.source),
        old,
        need(args.new_text, "new_text", action),
        label,
      );
      return { text: replaceSource(text, nb, i, source), index: i };
    }
    case "insert_after":
    case "insert_before": {
      const type: CellType = args.cell_type ?? "code";
      const anchor = args.cell === undefined ? nb.cells.length - 1 : at(args.cell);
      const i = action === "insert_before" ? Math.max(anchor, 0) : anchor + 1;
      return { text: insertCell(text, nb, i, type, args.source ?? "").text, index: i };
    }
    case "delete":
      return { text: deleteCell(text, at(args.cell)) };
    case "set_type": {
      const i = at(args.cell);
      return {
        text: setCellType(text, nb, i, need(args.cell_type, "cell_type", action)),
        index: i,
      };
    }
    case "clear_outputs": {
      if (args.cell !== undefined) {
        const i = at(args.cell);
        return { text: clearOutputs(text, nb, i), index: i };
      }
      // Every cell, last first: each edit leaves the earlier cells' offsets as they were.
      let out = text;
      for (let i = nb.cells.length - 1; i >= 0; i--) out = clearOutputs(out, nb, i);
      return { text: out };
    }
  }
}

function parsed(file: GuardedPath, text: string): Notebook {
  try {
    return parseNotebook(text);
  } catch (error) {
    if (!(error instanceof MediaError)) throw error;
    throw new ToolError(
      "corrupt",
      `${file.display} cannot be edited as a notebook: ${error.reason}. Fix the JSON with the edit tool first (read it with a line_range to see its lines); nothing was written.`,
      { path: file.display },
    );
  }
}

async function change(context: ToolContext, args: Args): Promise<NotebookResult> {
  const file = context.guard.check(args.path, "write");
  if (!isNotebookPath(file.display)) {
    throw invalid(
      `${file.display} is not a notebook (.ipynb); edit other files with the edit tool.`,
    );
  }
  const loaded: LoadedFile = await loadTextFile(context, file);
  const bom = loaded.doc.bom ? "\uFEFF" : "";
  const text = new TextDecoder().decode(loaded.bytes);
  const nb = parsed(file, text);
  const planned = plan(await import("../../media/notebook-edit.js"), args, text, nb, file.display);
  const after = parseNotebook(planned.text);
  const action = `notebook.${args.action}` as const;
  const outcome = await commit(
    context,
    {
      kind: "write",
      file,
      before: loaded,
      doc: parseDocument(bom + planned.text),
      note: action,
      action,
    },
    { mode: args.mode ?? "apply" },
  );
  const warnings: string[] = [];
  if (outcome.validationNotice) warnings.push(outcome.validationNotice);
  if (!outcome.changed) warnings.push("Nothing changed; the file was not written.");
  const i = planned.index;
  return {
    action,
    path: file.display,
    header: outcome.header,
    file_hash: outcome.tag,
    changed: outcome.changed,
    applied: outcome.applied,
    diff: outcome.diff,
    ...(i !== undefined && after.cells[i] ? { cell: cellLabel(after.cells[i]!, i) } : {}),
    ...(outcome.backup ? { backup_session: outcome.backup } : {}),
    warnings,
  };
}

export const notebookTool = defineTool({
  name: "notebook",
  description: `Edit a notebook's cells by id or number as read shows them; edit_source takes old_text and new_text.
Example: {"action": "replace_source", "path": "a.ipynb", "cell": "2", "source": "x = 1"}`,
  manual: manual("notebook/notebook.md"),
  example: { action: "replace_source", path: "analysis.ipynb", cell: "2", source: "df.head()" },
  input,
  annotations: CHANGES,
  kind: "edit",
  needsApproval: true,
  footprint: (args) => ({ reads: [], writes: [args.path] }),
  summarize: (args) => ({
    subject: args.path,
    summary: `notebook.${args.action}${args.cell === undefined ? "" : ` cell ${args.cell}`} in ${args.path}`,
  }),
  preview: async (context, args) =>
    (await serialized(context, args.path, () => change(context, { ...args, mode: "preview" })))
      .diff,
  call: (context, args) => serialized(context, args.path, () => change(context, args)),
});
