import type { DocResult } from "../../index.js";
import { defineCommand, UsageError, VERDICT_FLAGS } from "../define.js";
import { changeView, type Paint, writtenFooter } from "../format.js";
import { jsonValue, typedValue, valueLike } from "../inputs.js";
import { checked, WRITE_MODE_FLAGS, writeModeOf } from "../modes.js";

const ACTION_FLAGS = [
  "set",
  "set-json",
  "delete",
  "delete-where",
  "append",
  "merge",
  "ensure",
] as const;
type ActionFlag = (typeof ACTION_FLAGS)[number];

/** A read value prints as jq -r would: a string bare, anything else as JSON. */
function valueView(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

function docView(r: DocResult & { value?: unknown }, paint: Paint): string {
  if (r.action === "doc.get") return valueView(r.value);
  return [changeView(r, paint), ...writtenFooter(r, paint)].join("\n");
}

const toolAction = (flag: ActionFlag) =>
  flag === "delete-where" ? "delete_where" : flag === "set-json" ? "set" : flag;

/** The tool's `value` (or `where`) for an action flag's V. */
async function actionValue(
  action: ActionFlag,
  raw: string,
  existing: () => Promise<unknown>,
): Promise<{ value: unknown } | { where: unknown }> {
  if (action === "delete-where") return { where: typedValue(raw) };
  if (action === "set") return { value: valueLike(await existing(), raw) };
  if (action !== "set-json") return { value: typedValue(raw) };
  const parsed = jsonValue(raw);
  if ("error" in parsed) {
    throw new UsageError(
      `splice doc: --set-json takes JSON (${parsed.error}); for text, use --set`,
    );
  }
  return parsed;
}

export const doc = defineCommand({
  name: "doc",
  summary: "get or change one value of a JSON, JSONC, YAML or TOML file, keeping the rest",
  usage:
    "PATH [SELECTOR] [--set V | --delete | --append V | --merge V | --ensure V | --delete-where V]",
  description: `Without an action flag, prints the value SELECTOR names (a string bare, any
other value as JSON; no SELECTOR: the whole document). With one, changes only
the bytes of that value: comments, order and formatting elsewhere stay.
--set keeps the kind of the value it replaces: over a string V is that text
(--set 2 over "1" writes "2"), over a number or boolean V is read as JSON.
--set-json V sets exactly the JSON V ('"2"' a string, 2 a number). Elsewhere
V is JSON when it parses as JSON (3, true, ["a"], {"k": 1}), else plain text.`,
  args: [
    {
      name: "PATH",
      description: "the file (.json, .jsonc, tsconfig*.json, .yaml, .yml, .toml)",
      path: true,
    },
    {
      name: "SELECTOR",
      description: 'a dotted path: scripts.test, jobs.build.steps[2], "a.b".c',
      optional: true,
    },
  ],
  flags: {
    ...VERDICT_FLAGS,
    set: {
      type: "string",
      valueName: "V",
      description: "set the value to V, of the kind of the value it replaces",
    },
    "set-json": {
      type: "string",
      valueName: "V",
      description: "set the value to V parsed as JSON, exactly",
    },
    delete: { type: "boolean", description: "delete the value" },
    "delete-where": {
      type: "string",
      valueName: "V",
      description: 'delete the list items containing V, e.g. {"name": "left-pad"}',
    },
    append: { type: "string", valueName: "V", description: "append V to the list" },
    merge: { type: "string", valueName: "V", description: "merge the object V into the value" },
    ensure: { type: "string", valueName: "V", description: "add V to the list unless it is there" },
    format: {
      type: "string",
      valueName: "F",
      description: "json, jsonc, yaml or toml, if the name misleads",
    },
    ...WRITE_MODE_FLAGS,
  },
  onInterrupt: "finish",
  examples: [
    "splice doc package.json scripts.test",
    "splice doc package.json scripts.lint --set 'biome check .'",
    "splice doc Cargo.toml package.version --set 0.2.0",
    "splice doc config.json retries --set-json 3",
    'splice doc .github/workflows/ci.yml jobs.test.steps --append \'{"run": "npm test"}\'',
  ],
  async run({ splice, positionals, flags, paint }) {
    const [path, selector = ""] = positionals as [string, string?];
    const given = ACTION_FLAGS.filter((a) => flags[a] !== undefined);
    if (given.length > 1) {
      throw new UsageError(
        `splice doc: pass one action, not ${given.map((a) => `--${a}`).join(" and ")}`,
      );
    }
    const action = given[0];
    const format = flags.format !== undefined ? { format: flags.format as "json" } : {};
    const raw = action === undefined || action === "delete" ? undefined : (flags[action] as string);
    // The value --set replaces, for its kind; nothing when there is none yet (or no file).
    const current = async () =>
      (
        (await splice.doc({ action: "get", path, selector, ...format }).catch(() => ({}))) as {
          value?: unknown;
        }
      ).value;
    const typed = raw === undefined ? {} : await actionValue(action!, raw, current);
    const json = (await splice.doc({
      action: action === undefined ? "get" : toolAction(action),
      path,
      selector,
      ...typed,
      ...format,
      ...(action === undefined ? {} : { mode: writeModeOf(flags) }),
    })) as DocResult & { value?: unknown };
    return checked(flags, { json, human: docView(json, paint) });
  },
});
