/**
 * The registry: the one module that imports every tool, and the one list of
 * them. Hosts, the typed library surface (splice.ts) and plan's steps all
 * take their tools from here.
 */
import { clip, ToolError } from "../errors.js";
import { astEditTool } from "../tools/ast-edit/index.js";
import { astRenameTool } from "../tools/ast-rename/index.js";
import { checkpointTool } from "../tools/checkpoint/index.js";
import type { Tool, ToolRegistry } from "../tools/define.js";
import { docTool } from "../tools/doc/index.js";
import { editTool } from "../tools/edit/index.js";
import { simpleEditTool } from "../tools/edit/simple.js";
import { fileTool } from "../tools/file/index.js";
import { helpTool } from "../tools/help/index.js";
import { historyTool } from "../tools/history/index.js";
import { listTool } from "../tools/list/index.js";
import { lspHealthTool } from "../tools/lsp-health/index.js";
import { mdTool } from "../tools/md/index.js";
import { notebookTool } from "../tools/notebook/index.js";
import { outlineTool } from "../tools/outline/index.js";
import { patchTool } from "../tools/patch/index.js";
import { planTool } from "../tools/plan/index.js";
import { readTool } from "../tools/read/index.js";
import { rollbackTool } from "../tools/rollback/index.js";
import { runTool } from "../tools/run/index.js";
import { searchTool } from "../tools/search/index.js";
import { tidyTool } from "../tools/tidy/index.js";
import { undoTool } from "../tools/undo/index.js";
import { writeTool } from "../tools/write/index.js";

/** Every tool splice offers, in the order hosts list them, each with its own types. */
export const FULL_TOOLS = [
  readTool,
  listTool,
  searchTool,
  outlineTool,
  writeTool,
  editTool,
  patchTool,
  fileTool,
  docTool,
  mdTool,
  notebookTool,
  astEditTool,
  astRenameTool,
  runTool,
  tidyTool,
  planTool,
  rollbackTool,
  historyTool,
  undoTool,
  checkpointTool,
  lspHealthTool,
  helpTool,
] as const;

/** Every tool splice offers, in the order hosts list them. */
export const fullTools = FULL_TOOLS as unknown as readonly Tool[];

/**
 * For coding agents: find, read, change, run, undo. What a coding turn needs
 * nearly always, at about half the full list's tokens (`npm run bench -- tokens`).
 */
export const codingTools = [
  readTool,
  outlineTool,
  searchTool,
  listTool,
  editTool,
  patchTool,
  writeTool,
  runTool,
  undoTool,
  helpTool,
] as unknown as readonly Tool[];

/** For small models and simple hosts: read, list, search, edit, run. */
export const minimalTools = [
  readTool,
  listTool,
  searchTool,
  simpleEditTool,
  runTool,
  helpTool,
] as unknown as readonly Tool[];

/** The tool sets a toolkit can publish (`--tools`). */
export type ToolProfile = "full" | "coding" | "minimal";

const PROFILES: Record<ToolProfile, readonly Tool[]> = {
  full: fullTools,
  coding: codingTools,
  minimal: minimalTools,
};

export const TOOL_PROFILES = Object.keys(PROFILES) as ToolProfile[];

/**
 * Which description a model gets: "short" (what, when, one example; the
 * manual through the help tool) or "full" (the whole manual, every turn).
 */
export type DescriptionStyle = "short" | "full";

/** One copy per tool, so every toolkit publishes the same objects (hosts cache per tool). */
const manualCopies = new WeakMap<Tool, Tool>();

function withManual(tool: Tool): Tool {
  let copy = manualCopies.get(tool);
  if (!copy) {
    copy = { ...tool, description: tool.manual };
    manualCopies.set(tool, copy);
  }
  return copy;
}

/** The tools of a profile, described as asked; a name that is no profile is refused. */
export function profileTools(profile = "full", descriptions = "short"): readonly Tool[] {
  if (!Object.hasOwn(PROFILES, profile)) {
    throw new ToolError(
      "invalid_input",
      `There is no tool set "${clip(profile)}". Pass tools as one of: ${TOOL_PROFILES.join(", ")}.`,
    );
  }
  const tools = PROFILES[profile as ToolProfile];
  if (descriptions === "short") return tools;
  if (descriptions === "full") return tools.map(withManual);
  throw new ToolError(
    "invalid_input",
    `There is no description style "${clip(descriptions)}". Pass descriptions as "short" (default) or "full".`,
  );
}

/** A registry over `tools`: lookup by name, with the real names when one is unknown. */
export function registryOf(tools: readonly Tool[]): ToolRegistry {
  return {
    tools,
    find(name) {
      const tool = tools.find((t) => t.name === name);
      if (tool) return tool;
      throw new ToolError(
        "unknown_tool",
        `There is no tool named "${clip(name)}". The tools are: ${tools.map((t) => t.name).join(", ")}.`,
      );
    },
  };
}
