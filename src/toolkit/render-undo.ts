/**
 * The model-readable view of undo's list of backup sessions: plain lines
 * and diffs, the way edit results read, instead of JSON whose escaped diffs
 * cost a model twice the tokens to read. (An undo itself brings its own
 * `content`, tools/undo/view.ts.)
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

function block(head: string, diff: unknown, warnings: unknown): string {
  const lines = [head, str(diff)?.trimEnd(), ...strings(warnings).map((w) => `[${w}]`)];
  return lines.filter(Boolean).join("\n");
}

function sessionText(session: Json): string {
  const facts = [
    `backup_session ${session.backup_session}`,
    str(session.at) && `at ${session.at}`,
    str(session.session) && `session ${session.session}`,
    str(session.undoes) && `undoes ${session.undoes}${session.is_undo ? "" : " (a redo)"}`,
    session.undone === true && "undone",
  ].filter(Boolean);
  const files = (Array.isArray(session.files) ? session.files : []).filter(isObject);
  const shown = files.map((f) =>
    block(`${f.action} ${f.path}${f.undone === true ? " (undone)" : ""}`, f.diff, undefined),
  );
  const hidden = typeof session.hidden_files === "number" ? session.hidden_files : 0;
  if (hidden > 0) shown.push(`[${hidden} more files this call may not read]`);
  return [facts.join("; "), ...shown].join("\n");
}

/** The view of undo's session list, or undefined for any other shape. */
export function undoView(result: Json): string | undefined {
  if (Array.isArray(result.sessions) && result.sessions.every(isObject)) {
    const sessions = result.sessions.filter((s) => typeof s.backup_session === "string");
    if (sessions.length !== result.sessions.length) return undefined;
    return sessions.length === 0 ? "[no backup sessions]" : sessions.map(sessionText).join("\n\n");
  }
  return undefined;
}
