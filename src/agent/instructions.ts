import type { Toolkit } from "../toolkit/index.js";

export const INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"] as const;
/** A runaway instruction file must not eat the context window. */
const MAX_FILE_CHARS = 100_000;

export interface Instructions {
  system: string;
  /** The instruction files that were found and sent. */
  files: string[];
}

/**
 * The system prompt for a toolkit: its root (`HOST:PATH` for a remote one)
 * and tools, and the instruction files read through its workspace, so a
 * remote root's AGENTS.md is read there.
 */
export async function buildInstructions(toolkit: Toolkit): Promise<Instructions> {
  const root = toolkit.host ? `${toolkit.host}:${toolkit.root}` : toolkit.root;
  const toolNames = toolkit.tools.map((t) => t.name);
  const parts = [
    `You are splice agent, a coding agent working in the folder ${root} with these tools: ${toolNames.join(", ")}.`,
    "Paths are relative to that folder. Read files before you change them, and keep each change small and checked.",
    "The person approves each call that changes files or runs a command. When they decline one, respect it: do not repeat that call; adapt, or ask.",
    "Your replies are shown in a plain terminal: keep them short, and say what you changed.",
  ];
  const files: string[] = [];
  for (const name of INSTRUCTION_FILES) {
    let text: string;
    try {
      text = Buffer.from(await toolkit.readRootFile(name)).toString("utf8");
    } catch {
      continue;
    }
    if (!text.trim()) continue;
    const cut =
      text.length > MAX_FILE_CHARS
        ? `${text.slice(0, MAX_FILE_CHARS)}\n[… cut at ${MAX_FILE_CHARS} characters; read ${name} for the rest]`
        : text;
    parts.push(`\n# Instructions from ${name}\n\n${cut.trimEnd()}`);
    files.push(name);
  }
  return { system: parts.join("\n"), files };
}
