import type { RunResult } from "../../index.js";
import { defineCommand } from "../define.js";
import { positiveInt } from "../inputs.js";
import { runView } from "../views.js";

/** Several words are quoted one by one, so `splice run -- grep "a b" f` runs what was typed. */
function commandLine(words: readonly string[]): string {
  if (words.length === 1) return words[0]!;
  return words
    .map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", "'\\''")}'`))
    .join(" ");
}

export const run = defineCommand({
  name: "run",
  summary: "run a shell command in the project, with its output kept and capped",
  usage: "COMMAND... [--cwd DIR] [--timeout S] [--max-output BYTES]",
  description: `Runs COMMAND with sh -c at the root (or --cwd DIR), in its own process group:
on a timeout or Ctrl-C the whole group is stopped. Prints the output on stdout, and on
stderr the line it ran and how it ended. One argument is a shell line ('npm
test && npm run lint'); several (after --) are quoted word by word. Exits with
the command's own status, as sh -c does: 124 when it timed out (as timeout(1)),
128+N when signal N stopped it.`,
  args: [{ name: "COMMAND", description: "a shell line, or words after --", variadic: true }],
  flags: {
    cwd: {
      type: "string",
      valueName: "DIR",
      description: "the folder to run in (default: the root)",
      path: true,
    },
    timeout: { type: "string", valueName: "S", description: "stop it after S seconds" },
    "max-output": {
      type: "string",
      valueName: "BYTES",
      description: "output kept, start and end (the rest goes to a log under .splice/runs)",
    },
  },
  onInterrupt: "abort",
  examples: [
    "splice run 'npm test'",
    "splice run -- grep -rn 'a b' src",
    "splice run make --cwd go --timeout 60",
  ],
  async run({ splice, positionals, flags, paint, errPaint, say, signal }) {
    const timeout = positiveInt("timeout", flags.timeout);
    const maxOutput = positiveInt("max-output", flags["max-output"]);
    const args = {
      command: commandLine(positionals),
      ...(flags.cwd !== undefined ? { cwd: flags.cwd } : {}),
      ...(timeout !== undefined ? { timeout_ms: timeout * 1000 } : {}),
      ...(maxOutput !== undefined ? { max_output_bytes: maxOutput } : {}),
    };
    const json = (await splice.call("run", args, { signal })) as RunResult;
    const { human, notices, status } = runView(json, paint, errPaint, say);
    return { json, human, notices, exitCode: status };
  },
});
