/**
 * The language servers behind edit validation: their state per language, and
 * a restart for one that is stuck. Never starts a server unless asked to.
 */
import { z } from "zod";
import { ToolError } from "../../errors.js";
import type { ServerHealth } from "../../lsp/validate.js";
import type { ToolContext } from "../define.js";
import { defineTool, manual, READS } from "../define.js";

const input = z.strictObject({
  language: z.string().optional().describe('e.g. "typescript"; default all.'),
  action: z.enum(["status", "start", "restart"]).optional(),
});

export interface LspHealthResult {
  /** The table a model reads. */
  content: string;
  /** Whether edits are validated when a call does not say. */
  validation_default: boolean;
  servers: ServerHealth[];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function line(s: ServerHealth): string {
  const status = s.status.replace("_", " ");
  const parts = [`${s.language}: ${s.server} ${status}`];
  if (s.strategy) parts.push(`${s.strategy} diagnostics`);
  if (s.uptime_ms !== undefined) parts.push(`up ${seconds(s.uptime_ms)}`);
  if (s.cold_start_ms !== undefined) parts.push(`started in ${s.cold_start_ms} ms`);
  if (s.last_validation_ms !== undefined) parts.push(`last validation ${s.last_validation_ms} ms`);
  if (s.restarts > 0) parts.push(`${s.restarts} restart(s)`);
  if (s.error) parts.push(`error: ${s.error}`);
  if (!s.installed || s.status === "unavailable") parts.push(s.install_hint);
  else if (s.status === "not_started") parts.push("starts on the first edit it validates");
  return parts.join("; ");
}

async function lspHealth(
  context: ToolContext,
  args: z.output<typeof input>,
): Promise<LspHealthResult> {
  const { validator } = context;
  if (!validator) {
    return {
      content:
        "Edit validation is not available in this toolkit (it works on the local disk only). Nothing to report.",
      validation_default: false,
      servers: [],
    };
  }
  const action = args.action ?? "status";
  try {
    if (action !== "status") await validator.start(args.language, action === "restart");
    const servers = validator.health(args.language);
    const head = `Edit validation is ${validator.enabled ? "on" : "off"} by default.`;
    return {
      content: [head, ...servers.map(line)].join("\n"),
      validation_default: validator.enabled,
      servers,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ToolError("invalid_input", `The language servers could not be checked: ${message}.`);
  }
}

export const lspHealthTool = defineTool({
  name: "lsp_health",
  description: `Show the language servers that validate edits; restart one when validation keeps coming back uncertain.
Example: {"language": "typescript", "action": "restart"}`,
  manual: manual("lsp-health/lsp-health.md"),
  example: {},
  input,
  annotations: READS,
  kind: "read",
  needsApproval: false,
  footprint: () => ({ reads: [], writes: [] }),
  summarize: (args) => {
    const subject = args.language ?? "all languages";
    return { subject, summary: `lsp_health ${args.action ?? "status"} ${subject}` };
  },
  call: lspHealth,
});
