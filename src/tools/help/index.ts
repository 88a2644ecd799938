/**
 * The manuals on demand. The tool list a model gets every turn carries each
 * tool's short description; the long manual (`<tool>.md`) costs tokens only
 * when a model asks for it. It reads the call's own registry, so it knows
 * exactly the tools of this toolkit and imports none of them.
 */
import { z } from "zod";
import { clip, ToolError } from "../../errors.js";
import { defineTool, manual, READS } from "../define.js";

const input = z.strictObject({
  tool: z.string().describe('A tool name, e.g. "edit".'),
});

export interface HelpResult {
  tool: string;
  /** The manual, as the model reads it. */
  content: string;
}

export const helpTool = defineTool({
  name: "help",
  description: `A tool's whole manual: every option, notice and error, with examples.
Example: {"tool": "edit"}`,
  manual: manual("help/help.md"),
  example: { tool: "edit" },
  input,
  annotations: READS,
  kind: "read",
  needsApproval: false,
  footprint: () => ({ reads: [], writes: [] }),
  summarize: (args) => ({ subject: args.tool, summary: `help ${args.tool}` }),
  async call(context, args): Promise<HelpResult> {
    const tools = context.registry?.tools ?? [];
    const tool = tools.find((t) => t.name === args.tool.trim());
    if (!tool) {
      // Not registry.find: its unknown_tool code means "no such tool to call" to a host.
      throw new ToolError(
        "not_found",
        `There is no tool named "${clip(args.tool)}" here. Ask about one of: ${tools.map((t) => t.name).join(", ")}.`,
      );
    }
    return { tool: tool.name, content: tool.manual };
  },
});
