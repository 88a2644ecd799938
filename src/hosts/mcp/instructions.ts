/**
 * The `instructions` of splice's `initialize` answer: the few rules that
 * hold across its tools, which clients add to the model's system prompt
 * (Claude Code shows them as the server's instructions). Built from the
 * tools actually offered, so the minimal set is not told about tools it lacks.
 */
import { fullTools, type Tool } from "../../toolkit/index.js";

export function instructionsFor(tools: readonly Tool[]): string {
  const has = (name: string) => tools.some((t) => t.name === name);
  const lines = [
    "splice: file tools that edit exactly where you mean or refuse with what to do next. Paths are relative to the project root.",
  ];
  if (has("read")) {
    lines.push(
      'Read a file before you change it: read shows numbered lines under a header "¶path#TAG"; TAG names that version.',
    );
  }
  // The full set's edit takes line ops against a tag; the minimal set's only quotes text.
  if (tools.some((t) => t.name === "edit" && fullTools.includes(t))) {
    lines.push(
      'Edit with that tag: {"path", "file_hash": TAG, "ops"} by line number, or quote the old text with "edits". An edit of a version this session never read is refused; read again when told the file changed.',
    );
  } else if (has("edit")) {
    lines.push(
      "Edit by quoting the exact old text with enough context to be unique; when it is not found, read the lines again.",
    );
  }
  if (has("undo")) {
    lines.push(
      'Every call that writes returns a backup_session; undo with {} takes back the newest, {"list": true} shows what can be undone.',
    );
  }
  if (has("run")) lines.push("Use run for builds, tests and git; a non-zero exit is a result.");
  return lines.join("\n");
}
