import type { PlanResult } from "../../index.js";
import { defineCommand, invalid, VERDICT_FLAGS } from "../define.js";
import { appliedFooter, formatDiff, formatWarnings, type Paint } from "../format.js";
import { readInputFile } from "../inputs.js";
import { checked, MODE_FLAGS, modeOf } from "../modes.js";

function planView(r: PlanResult, paint: Paint): string {
  const rows = r.steps.map((s) => {
    const color = s.status === "failed" ? "red" : s.status === "skipped" ? "dim" : "green";
    const files = s.files ? paint("dim", ` ${s.files.join(", ")}`) : "";
    const why = s.status === "skipped" && s.warnings ? paint("dim", ` (${s.warnings[0]})`) : "";
    return `${String(s.step).padStart(3)}. ${paint(color, s.status.padEnd(9))} ${s.summary}${files}${why}`;
  });
  return [
    ...rows,
    ...(r.diff ? [formatDiff(r.diff, paint)] : []),
    ...formatWarnings(r.warnings, paint),
    appliedFooter(r.applied, r.backup_session),
  ].join("\n");
}

export const plan = defineCommand({
  name: "plan",
  summary: "run a plan of steps as one transaction (preview; --apply writes)",
  usage: "PLAN.json [--apply | --check]",
  description: `Runs the steps of PLAN.json as one transaction: {"steps": [...], "policy":
"strict" | "best_effort"}. A step is {"tool": NAME, "args": {...}} (any tool
call) or {"validate": {"run": "npm test"}} / {"validate": {"syntax": true}}.
Without --apply the steps run on an in-memory copy and the combined diff is
shown (commands are not run). With --apply, a failing step under "strict"
restores every file the plan touched; the plan is one backup session, so
"splice undo" restores everything it changed, even after a crash mid-plan.
Exit 1 when a step fails (with --check, which writes and prints nothing, when a step would fail).`,
  args: [{ name: "PLAN.json", description: 'the plan, or "-" to read it from stdin' }],
  flags: { ...MODE_FLAGS, ...VERDICT_FLAGS },
  onInterrupt: "abort",
  examples: ["splice plan refactor.json", "splice plan refactor.json --apply"],
  async run({ splice, positionals, flags, readStdin, paint, signal }) {
    const text = await readInputFile(positionals[0]!, readStdin, "plan");
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      invalid(
        `The plan is not valid JSON (${(error as Error).message}). It is \`{"steps": [...], "policy": "strict"}\`.`,
      );
    }
    const args = Array.isArray(parsed) ? { steps: parsed } : { ...(parsed as object) };
    const json = (await splice.call(
      "plan",
      { ...args, mode: modeOf(flags) },
      { signal },
    )) as PlanResult;
    return checked(flags, { json, human: planView(json, paint) });
  },
});
