/**
 * The registry: the one module that imports every tool, and the one list of
 * them. Hosts, the typed library surface (splice.ts) and plan's steps all
 * take their tools from here.
 */
import { clip, ToolError } from "../errors.js";
import { astEditTool } from "../tools/ast-edit/index.js";
import { astRenameTool } from "../tools/ast-rename/index.js";
import type { Tool, ToolRegistry } from "../tools/define.js";
import { docTool } from "../tools/doc/index.js";
import { editTool } from "../tools/edit/index.js";
import { simpleEditTool } from "../tools/edit/simple.js";
import { fileTool } from "../tools/file/index.js";
import { historyTool } from "../tools/history/index.js";
import { listTool } from "../tools/list/index.js";
import { lspHealthTool } from "../tools/lsp-health/index.js";
import { mdTool } from "../tools/md/index.js";
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
  astEditTool,
  astRenameTool,
  runTool,
  tidyTool,
  planTool,
  rollbackTool,
  historyTool,
  undoTool,
  lspHealthTool,
] as const;

/** Every tool splice offers, in the order hosts list them. */
export const fullTools = FULL_TOOLS as unknown as readonly Tool[];

/** For small models and simple hosts: read, list, search, edit, run. */
export const minimalTools = [
  readTool,
  listTool,
  searchTool,
  simpleEditTool,
  runTool,
] as unknown as readonly Tool[];

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
