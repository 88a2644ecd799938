/**
 * A plan's dry run: the real tools, run on an overlay of the workspace and a
 * history that remembers in memory, so later steps see what earlier ones
 * would have written and nothing reaches the disk or the journal.
 */
import { EventBus } from "../../events.js";
import { DryRunHistory } from "../../history/dry-run.js";
import { OverlayWorkspace } from "../../workspace/overlay.js";
import type { ToolContext } from "../define.js";

export interface DryRun {
  context: ToolContext;
  overlay: OverlayWorkspace;
}

/** A context whose writes land in an overlay; no events, no language servers. */
export function dryRunContext(context: ToolContext): DryRun {
  const overlay = new OverlayWorkspace(context.workspace);
  const { validator: _validator, ...rest } = context;
  return {
    overlay,
    context: {
      ...rest,
      workspace: overlay,
      // Its writes are the plan's, as applying records them.
      history: new DryRunHistory(context.history).forTool("plan"),
      events: new EventBus(),
      backup: "dry-run",
    },
  };
}
