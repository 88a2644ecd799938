import type { PatchResult } from "../../index.js";
import { defineCommand, VERDICT_FLAGS } from "../define.js";
import { appliedFooter, formatDiff, formatWarnings, type Paint } from "../format.js";
import { readInputFile } from "../inputs.js";
import { checked, MODE_FLAGS, modeOf } from "../modes.js";
import { callWithProgress } from "../progress.js";

function patchView(r: PatchResult, paint: Paint): string {
  const lines: string[] = [];
  for (const file of r.results) {
    const where = (file.hunks ?? [])
      .filter((h) => h.match_mode !== "exact" || (h.offset ?? 0) !== 0)
      .map(
        (h) =>
          `hunk ${h.hunk} at line ${h.line} (${h.match_mode}${h.offset ? `, offset ${h.offset > 0 ? "+" : ""}${h.offset}` : ""})`,
      );
    const dest = file.dest_path ? ` -> ${file.dest_path}` : "";
    lines.push(
      `${paint("bold", `${file.operation} ${file.path}${dest}`)}${where.length ? paint("dim", `  ${where.join("; ")}`) : ""}`,
    );
  }
  if (r.diff) lines.push(formatDiff(r.diff, paint));
  lines.push(
    ...formatWarnings(
      r.results.flatMap((file) => file.warnings),
      paint,
    ),
  );
  lines.push(appliedFooter(r.applied, r.backup_session));
  return lines.join("\n");
}

export const patch = defineCommand({
  name: "patch",
  summary: "apply a unified diff or Codex patch to its files (preview; --apply writes)",
  usage: "FILE [--apply | --check] [--allow-overwrite]",
  description: `Applies a unified diff (git diff, diff -u) or a Codex patch (*** Begin Patch …
*** End Patch) to every file it names, or to none. FILE "-" reads stdin.
Without --apply it shows the diff and writes nothing; --check prints nothing
and exits 0 when the patch applies, 1 when it does not (as git apply --check). Hunks are found by their lines (tolerating
drifted context); an ambiguous or missing hunk fails with nothing written.
--allow-overwrite lets an added or renamed file replace an existing one.`,
  args: [{ name: "FILE", description: 'the patch, or "-" to read it from stdin' }],
  flags: {
    ...VERDICT_FLAGS,
    ...MODE_FLAGS,
    "allow-overwrite": {
      type: "boolean",
      description: "let an added or renamed file replace an existing one",
    },
  },
  onInterrupt: "finish",
  examples: ["git diff > fix.diff; splice patch fix.diff", "splice patch fix.diff --apply"],
  async run({ splice, positionals, flags, readStdin, paint }) {
    const text = await readInputFile(positionals[0]!, readStdin, "patch");
    const args = {
      patch: text,
      mode: modeOf(flags),
      ...(flags["allow-overwrite"] ? { allow_overwrite: true } : {}),
    };
    const json = await callWithProgress<PatchResult>(splice, "patch", args, "patching");
    return checked(flags, { json, human: patchView(json, paint) });
  },
});
