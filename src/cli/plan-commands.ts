/**
 * `splice plan PLAN.json` and `splice patch FILE`: preview by default,
 * `--apply` writes, `--check` fails when something would change. A file
 * named "-" is read from stdin.
 */
import { readFileSync } from "node:fs";
import { ToolError } from "../errors.js";
import type { PatchResult } from "../tools/patch/index.js";
import type { PlanResult } from "../tools/plan/index.js";
import type { CommandInput, CommandOutput } from "./commands.js";
import { formatDiff, formatWarnings } from "./format.js";

function mode(input: CommandInput): "apply" | "check" | "preview" {
  if (input.flags.apply && input.flags.check) {
    throw new ToolError("invalid_input", "Pass --apply or --check, not both.");
  }
  return input.flags.apply ? "apply" : input.flags.check ? "check" : "preview";
}

function readArg(input: CommandInput, what: string, example: string): string {
  const [file] = input.positionals;
  if (!file) throw new ToolError("invalid_input", `${what} needs a file: ${example}`);
  try {
    return file === "-" ? input.readStdin() : readFileSync(file, "utf8");
  } catch (error) {
    throw new ToolError("not_found", `Cannot read ${file}: ${(error as Error).message}`);
  }
}

const footer = (applied: boolean, backup: string | undefined) =>
  applied
    ? backup
      ? `Applied. Undo it with: splice undo ${backup}`
      : "Applied; nothing changed."
    : "Preview: nothing was written. Run again with --apply to write.";

export const planCommands: Record<string, (input: CommandInput) => Promise<CommandOutput>> = {
  async plan(input) {
    const text = readArg(input, "plan", "splice plan plan.json [--apply]");
    let plan: unknown;
    try {
      plan = JSON.parse(text);
    } catch (error) {
      throw new ToolError(
        "invalid_input",
        `The plan is not valid JSON (${(error as Error).message}). It is {"steps": [...], "policy": "strict"}.`,
      );
    }
    const args = Array.isArray(plan) ? { steps: plan } : { ...(plan as object) };
    const json = (await input.splice.call("plan", { ...args, mode: mode(input) })) as PlanResult;
    const { paint } = input;
    const rows = json.steps.map((s) => {
      const color = s.status === "failed" ? "red" : s.status === "skipped" ? "dim" : "green";
      const files = s.files ? paint("dim", ` ${s.files.join(", ")}`) : "";
      const why = s.status === "skipped" && s.warnings ? paint("dim", ` (${s.warnings[0]})`) : "";
      return `${String(s.step).padStart(3)}. ${paint(color, s.status.padEnd(9))} ${s.summary}${files}${why}`;
    });
    const human = [
      ...rows,
      ...(json.diff ? [formatDiff(json.diff, paint)] : []),
      ...formatWarnings(json.warnings, paint),
      footer(json.applied, json.backup_session),
    ].join("\n");
    return { json, human };
  },

  async patch(input) {
    const text = readArg(input, "patch", "splice patch fix.diff [--apply]");
    const json = (await input.splice.call("patch", {
      patch: text,
      mode: mode(input),
      ...(input.flags["allow-overwrite"] ? { allow_overwrite: true } : {}),
    })) as PatchResult;
    const { paint } = input;
    const lines: string[] = [];
    for (const r of json.results) {
      const where = (r.hunks ?? [])
        .filter((h) => h.match_mode !== "exact" || (h.offset ?? 0) !== 0)
        .map(
          (h) =>
            `hunk ${h.hunk} at line ${h.line} (${h.match_mode}${h.offset ? `, offset ${h.offset > 0 ? "+" : ""}${h.offset}` : ""})`,
        );
      const dest = r.dest_path ? ` -> ${r.dest_path}` : "";
      lines.push(
        `${paint("bold", `${r.operation} ${r.path}${dest}`)}${where.length ? paint("dim", `  ${where.join("; ")}`) : ""}`,
      );
    }
    if (json.diff) lines.push(formatDiff(json.diff, paint));
    lines.push(
      ...formatWarnings(
        json.results.flatMap((r) => r.warnings),
        paint,
      ),
    );
    lines.push(footer(json.applied, json.backup_session));
    return { json, human: lines.join("\n") };
  },
};
