import { isToolError, ToolError } from "../../errors.js";
import { defineCommand, VERDICT_FLAGS } from "../define.js";
import { errorJson } from "../format.js";
import { io } from "../io.js";

function parseJsonArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ToolError(
      "invalid_input",
      `The arguments are not valid JSON (${(error as Error).message}). Pass one JSON object, e.g. '{"path": "src/main.ts"}'.`,
    );
  }
}

export const call = defineCommand({
  name: "call",
  summary: "run any tool with JSON arguments (or JSON on stdin) and print JSON",
  usage: "TOOL [JSON]",
  description: `Runs any tool by name with JSON arguments (from the argument, or from stdin
when it is omitted or "-") and prints the JSON result. Exit 0 on success; on a
tool error prints {"error": {"code", "message"}} and exits 1. It always prints
JSON; --json changes nothing.`,
  args: [
    { name: "TOOL", description: "the tool's name, e.g. read, edit, doc" },
    {
      name: "JSON",
      description: 'its arguments as one JSON object (omitted or "-": from stdin)',
      optional: true,
    },
  ],
  flags: { validate: VERDICT_FLAGS.validate },
  examples: [
    `splice call read '{"targets":[{"path":"src/main.ts"}]}'`,
    `splice call edit '{"targets":[{"path":"a.txt","file_hash":"1A2B","ops":"delete 3"}]}'`,
    `echo '{"path":"a.txt","hash":""}' | splice call rollback`,
  ],
  // Prints JSON whatever the outcome, tool errors included: a script reads one shape.
  async run(input) {
    const [name, raw] = input.positionals as [string, string?];
    try {
      const args = parseJsonArgs(
        raw === undefined || raw === "-"
          ? await input.readStdin("pass the arguments as JSON after the tool's name")
          : raw,
      );
      const result = await input.splice.call(name, args);
      io().stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return 0;
    } catch (error) {
      if (!isToolError(error)) throw error;
      io().stdout.write(`${errorJson(error)}\n`);
      return 1;
    }
  },
});
