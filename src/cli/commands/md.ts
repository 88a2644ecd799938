import { defineCommand, UsageError, VERDICT_FLAGS } from "../define.js";
import { changeView, writtenFooter } from "../format.js";
import { positiveInt, typedValue } from "../inputs.js";
import { checked, WRITE_MODE_FLAGS, writeModeOf } from "../modes.js";

/** Each action flag and the md action it asks for; the flag's value is the action's text. */
const ACTIONS = {
  replace: "replace_section",
  "insert-after": "insert_after_heading",
  append: "append_to_section",
  "move-under": "move_section",
  bullet: "upsert_bullet",
  row: "table_append",
} as const;

type ActionFlag = keyof typeof ACTIONS;

/** The argument each action's text goes in. */
function textArgs(flag: ActionFlag, text: string): Record<string, unknown> {
  if (flag === "move-under") return { to: text };
  if (flag === "bullet") return { bullet: text };
  if (flag === "row") {
    const row = typedValue(text);
    if (!Array.isArray(row)) {
      throw new UsageError(
        `splice md: --row takes a JSON list of cells, e.g. '["v2", "2026-12-01"]'`,
      );
    }
    return { row };
  }
  return { text };
}

export const md = defineCommand({
  name: "md",
  summary: "change one section of a Markdown file, by heading",
  usage:
    "PATH HEADING (--replace T | --insert-after T | --append T | --bullet T | --row JSON | --move-under H)",
  description: `Changes the section HEADING names ("Install", or a path "Install > From
source") and nothing else: --replace its body, --insert-after the heading,
--append to its end, --bullet adds or updates a list item, --row appends a
table row, --move-under moves the section under another heading (--to-path:
in another file). A text of "-" is read from stdin. --line N picks one of
several headings with the same name (--to-line N, of the --move-under heading).`,
  args: [
    { name: "PATH", description: "the Markdown file", path: true },
    { name: "HEADING", description: 'the section: "Install" or "Install > From source"' },
  ],
  flags: {
    ...VERDICT_FLAGS,
    replace: { type: "string", valueName: "T", description: "the section's new body" },
    "insert-after": {
      type: "string",
      valueName: "T",
      description: "text to put right after the heading",
    },
    append: { type: "string", valueName: "T", description: "text to add at the section's end" },
    bullet: {
      type: "string",
      valueName: "T",
      description: "a list item to add, or update when it starts the same",
    },
    row: {
      type: "string",
      valueName: "JSON",
      description: 'a table row to append: \'["a", "b"]\'',
    },
    "move-under": {
      type: "string",
      valueName: "H",
      description: "move the section under heading H",
    },
    "to-path": {
      type: "string",
      valueName: "FILE",
      description: "with --move-under: H is in FILE",
      path: true,
    },
    line: {
      type: "string",
      valueName: "N",
      description: "the line of the HEADING meant, when several match",
    },
    "to-line": {
      type: "string",
      valueName: "N",
      description: "with --move-under: the line of H meant, when several match",
    },
    ...WRITE_MODE_FLAGS,
  },
  onInterrupt: "finish",
  examples: [
    "splice md README.md Install --append 'Run `npm ci` first.'",
    "splice md CHANGELOG.md 'Unreleased > Fixed' --bullet 'Undo keeps file modes'",
    "splice md docs/notes.md Draft --move-under Archive",
  ],
  async run({ splice, positionals, flags, readStdin, paint, say }) {
    const [path, heading] = positionals as [string, string];
    const given = (Object.keys(ACTIONS) as ActionFlag[]).filter((f) => flags[f] !== undefined);
    if (given.length !== 1) {
      const all = Object.keys(ACTIONS)
        .map((f) => `--${f}`)
        .join(", ");
      throw new UsageError(
        given.length === 0
          ? `splice md: say what to do with the section: one of ${all}`
          : `splice md: pass one action, not ${given.map((f) => `--${f}`).join(" and ")}`,
      );
    }
    const flag = given[0]!;
    const typed = flags[flag] as string;
    const text = typed === "-" ? await readStdin(`pass the text as --${flag} TEXT`) : typed;
    const line = positiveInt("line", flags.line);
    const toLine = positiveInt("to-line", flags["to-line"]);
    const json = await splice.md({
      action: ACTIONS[flag],
      path,
      heading,
      ...textArgs(flag, text),
      ...(line !== undefined ? { line } : {}),
      ...(flags["to-path"] !== undefined ? { to_path: flags["to-path"] } : {}),
      ...(toLine !== undefined ? { to_line: toLine } : {}),
      mode: writeModeOf(flags),
    });
    return checked(flags, {
      json,
      human: [changeView(json, paint, say), ...writtenFooter(json, paint)].join("\n"),
    });
  },
});
