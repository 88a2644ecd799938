/**
 * Commands typed at the prompt that the agent answers itself, never sending
 * them to the model: /help, /undo, /diff, /tools (and /exit, in the session).
 * /undo and /diff work on this conversation's own history session, through
 * the undo tool of a toolkit of their own, so they work whatever tool set
 * the model was given. What /undo changed is told to the model with the next
 * message, so it does not go on from files that are no longer there.
 */
import { isToolError } from "../errors.js";
import type { Toolkit } from "../toolkit/index.js";
import { frame } from "./show.js";
import { printable, type Terminal } from "./terminal.js";

export interface SlashDeps {
  terminal: Terminal;
  /** The tools the model has. */
  toolkit: Toolkit;
  /** A toolkit with every tool on this conversation's history session, made on first use. */
  local(): Toolkit;
  /** Tells the model something with the next message. */
  tell(note: string): void;
  /** What runs without asking, for /tools. */
  approvals(): string[];
}

export const SLASH_HELP = `Commands (answered here, not sent to the model):
  /help    this list
  /undo    undo the last change of this conversation (again: the one before)
  /diff    what this conversation's tools changed so far (not what commands did)
  /tools   the tools the model has, and what runs without asking
  /exit    leave (Ctrl-D too)
Start a message with // to send one that begins with a slash.
Approvals: y yes, n no (+ a reason for the model: "n use tabs"), a always for that kind.`;

/** A line that is a command: "/word" alone or followed by arguments. */
export function slashCommand(text: string): { name: string; rest: string } | undefined {
  const m = /^\/([a-z][a-z-]*)(?:\s+([\s\S]*))?$/i.exec(text.trim());
  return m ? { name: m[1]!.toLowerCase(), rest: m[2]?.trim() ?? "" } : undefined;
}

interface Listed {
  backup_session: string;
  at: string;
  undone: boolean;
  is_undo: boolean;
  files: { path: string; action: string; diff: string; undone: boolean }[];
}

interface Undone {
  undone: string;
  files: { path: string; action: string; diff: string }[];
}

function note(terminal: Terminal, line: string, style: "dim" | "yellow" | "red" = "dim") {
  terminal.line(terminal.paint(style, printable(line)));
}

async function undo(deps: SlashDeps): Promise<void> {
  const { terminal } = deps;
  let result: Undone;
  try {
    result = (await deps.local().call("undo", {})) as Undone;
  } catch (error) {
    if (isToolError(error) && error.code === "not_found") {
      note(terminal, "[nothing left to undo: this conversation has no change still in effect]");
    } else if (isToolError(error) && error.code === "conflict") {
      // Its advice is the model's; a person is told the command that forces it.
      const id = String(error.details.backup_session);
      const first = (error.details.undo_first as string[] | undefined) ?? [];
      const later = first.length > 0 ? `undo ${first.join(", then ")} first, or ` : "";
      note(
        terminal,
        `[undo refused: ${error.facts} To go on, ${later}run splice undo ${id} --force to restore wholesale]`,
        "yellow",
      );
    } else {
      note(terminal, `[undo failed: ${(error as Error).message}]`, "red");
    }
    return;
  }
  const restored = result.files.filter((f) => f.action !== "unchanged");
  const paths = restored.map((f) => f.path);
  note(terminal, `[undid ${result.undone}: ${paths.join(", ") || "nothing had to change"}]`);
  const diff = restored.map((f) => f.diff).join("");
  if (diff.trim()) terminal.line(frame(diff, terminal));
  if (paths.length > 0) {
    deps.tell(
      `The person ran /undo: it undid change ${result.undone}, restoring ${paths.join(", ")}. Read these files again before you change them.`,
    );
  }
}

async function diff(deps: SlashDeps): Promise<void> {
  const { terminal } = deps;
  const { sessions } = (await deps.local().call("undo", { list: true, limit: 200 })) as {
    sessions: Listed[];
  };
  const changes = sessions.filter((s) => !s.is_undo && !s.undone).reverse();
  if (changes.length === 0) {
    note(terminal, "[this conversation has changed no files (or all its changes are undone)]");
    return;
  }
  for (const change of changes) {
    const files = change.files.filter((f) => !f.undone);
    const what = files.map((f) => `${f.action} ${f.path}`).join(", ");
    note(terminal, `[change ${change.backup_session} · ${change.at}: ${what}]`);
    const text = files.map((f) => f.diff).join("");
    if (text.trim()) terminal.line(frame(text, terminal));
  }
  const count = changes.length;
  note(terminal, `[${count} change${count === 1 ? "" : "s"} in effect; /undo takes back the last]`);
}

function tools(deps: SlashDeps): void {
  const { terminal, toolkit } = deps;
  const width = Math.max(...toolkit.tools.map((t) => t.name.length));
  const room = Math.max(20, terminal.columns - width - 4);
  const lines = toolkit.tools.map((t) => {
    const first = t.description.split("\n", 1)[0]!;
    return `  ${t.name.padEnd(width)}  ${first.length > room ? `${first.slice(0, room - 1)}…` : first}`;
  });
  terminal.line(["Tools the model has:", ...lines].join("\n"));
  const free = deps.approvals();
  terminal.line(
    free.length > 0
      ? `Runs without asking: reads; ${free.join("; ")}.`
      : "Runs without asking: reads. Changes and commands ask first.",
  );
}

/** Runs a command; an unknown one is named, and nothing is sent either way. */
export async function runSlash(deps: SlashDeps, name: string): Promise<void> {
  switch (name) {
    case "help":
      deps.terminal.line(SLASH_HELP);
      return;
    case "undo":
      return undo(deps);
    case "diff":
      return diff(deps);
    case "tools":
      return tools(deps);
    default:
      note(
        deps.terminal,
        `[unknown command /${name}: nothing was sent; /help lists the commands, and // starts a message with a slash]`,
        "yellow",
      );
  }
}
