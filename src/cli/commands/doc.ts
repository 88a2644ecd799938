import type { DocResult } from "../../index.js";
import { defineCommand, UsageError, VERDICT_FLAGS } from "../define.js";
import { changeView, type Paint, writtenFooter } from "../format.js";
import { typedValue } from "../inputs.js";
import { checked, WRITE_MODE_FLAGS, writeModeOf } from "../modes.js";

const ACTION_FLAGS = ["set", "delete", "delete-where", "append", "merge", "ensure"] as const;

/** A read value prints as jq -r would: a string bare, anything else as JSON. */
function valueView(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value, null, 2);
}

function docView(r: DocResult & { value?: unknown }, paint: Paint): string {
  if (r.action === "doc.get") return valueView(r.value);
  return [changeView(r, paint), ...writtenFooter(r, paint)].join("\n");
}

export const doc = defineCommand({
  name: "doc",
  summary: "get or change one value of a JSON, JSONC, YAML or TOML file, keeping the rest",
  usage:
    "PATH [SELECTOR] [--set V | --delete | --append V | --merge V | --ensure V | --delete-where V]",
  description: `Without an action flag, prints the value SELECTOR names (a string bare, any
other value as JSON; no SELECTOR: the whole document). With one, changes only
the bytes of that value: comments, order and formatting elsewhere stay. V is
JSON when it parses as JSON (3, true, ["a"], {"k": 1}), else plain text.`,
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
    set: { type: "string", valueName: "V", description: "set the value to V" },
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
    const raw = action === undefined || action === "delete" ? undefined : (flags[action] as string);
    const json = (await splice.doc({
      action: action === undefined ? "get" : action === "delete-where" ? "delete_where" : action,
      path,
      selector,
      ...(raw === undefined
        ? {}
        : action === "delete-where"
          ? { where: typedValue(raw) }
          : { value: typedValue(raw) }),
      ...(flags.format !== undefined ? { format: flags.format as "json" } : {}),
      ...(action === undefined ? {} : { mode: writeModeOf(flags) }),
    })) as DocResult & { value?: unknown };
    return checked(flags, { json, human: docView(json, paint) });
  },
});
