import { ToolError } from "../errors.js";
import type { ToolContext } from "./context.js";
import { invokeTool, type Tool } from "./define.js";
import { editTool } from "./edit.js";
import { historyTool } from "./history.js";
import { readTool } from "./read.js";
import { rollbackTool } from "./rollback.js";
import { writeTool } from "./write.js";

/** Every tool splice offers, in the order hosts list them. */
export const allTools = [readTool, writeTool, editTool, rollbackTool, historyTool] as const;

export type ToolName = (typeof allTools)[number]["name"];

export function findTool(name: string): Tool {
  const tool = allTools.find((t) => t.name === name);
  if (!tool) {
    throw new ToolError(
      "unknown_tool",
      `There is no tool named "${name}". The tools are: ${allTools.map((t) => t.name).join(", ")}.`,
    );
  }
  return tool as unknown as Tool;
}

/** Runs a tool by name with raw (unvalidated) arguments. */
export function callTool(context: ToolContext, name: string, args: unknown): Promise<unknown> {
  return invokeTool(findTool(name), context, args);
}
