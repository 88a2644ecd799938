import { defineCommand } from "../define.js";

export const history = defineCommand({
  name: "history",
  summary: "list the versions splice knows of a file",
  usage: "PATH",
  description: `Lists the versions of PATH that splice has seen or written, newest first,
under a first line naming the project root whose history it is.`,
  args: [{ name: "PATH", description: "the file whose versions to list", path: true }],
  flags: {},
  examples: ["splice history src/main.ts"],
  async run({ splice, positionals, paint, rootLine }) {
    const [path] = positionals as [string];
    const json = await splice.history({ path });
    const rows = json.versions.map((v) => {
      const mark = v.current ? paint("green", "* ") : "  ";
      const what = v.replaced ? `replaced by ${v.note ?? v.kind}` : (v.note ?? v.kind);
      return `${mark}${paint("bold", v.file_hash)}  ${v.at}  ${what.padEnd(24)} ${v.size} bytes  ${paint("dim", v.session)}`;
    });
    const head = `${json.path}: ${json.versions.length} version(s); current ${json.current_hash ?? "missing"}`;
    return { json, human: [paint("dim", rootLine), head, ...rows].join("\n") };
  },
});
