import { defineCommand } from "../define.js";
import { positiveInt } from "../inputs.js";
import { listView } from "../views.js";

export const list = defineCommand({
  name: "list",
  summary: "the files and folders of a folder; --depth N for a tree with sizes",
  usage: "[PATH] [--depth N] [--all] [--limit N]",
  description: `Lists the folder PATH (default: the root), .gitignore respected: folders end
in "/". --depth 2 or more shows a tree with each file's size in one column.`,
  args: [
    {
      name: "PATH",
      description: "the folder to list (default: the root)",
      optional: true,
      path: true,
    },
  ],
  flags: {
    depth: {
      type: "string",
      short: "d",
      valueName: "N",
      description: "levels to show (default 1)",
    },
    all: { type: "boolean", short: "a", description: 'also show names starting with "."' },
    limit: { type: "string", valueName: "N", description: "show at most N entries" },
  },
  examples: ["splice list", "splice list src --depth 3"],
  async run({ splice, positionals, flags, paint }) {
    const [path] = positionals;
    const depth = positiveInt("depth", flags.depth);
    const limit = positiveInt("limit", flags.limit);
    const json = await splice.list({
      ...(path !== undefined ? { path } : {}),
      ...(depth !== undefined ? { depth } : {}),
      ...(flags.all ? { include_hidden: true } : {}),
      ...(limit !== undefined ? { limit } : {}),
    });
    return { json, human: listView(json, paint) };
  },
});
