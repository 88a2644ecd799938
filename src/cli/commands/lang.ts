import { stopEngine } from "../../engine/client.js";
import { addonDir, findAddon, pinnedVersion } from "../../util/addons.js";
import { formatBytes } from "../../util/format.js";
import {
  addAddons,
  addonsNamed,
  installedBytes,
  parts,
  registryBytes,
  removeAddons,
} from "../addons.js";
import { defineCommand, invalid } from "../define.js";
import type { Paint } from "../format.js";
import { io } from "../io.js";

const ACTIONS = ["list", "add", "remove"] as const;

/** `lang add` and `lang remove`. */
async function change(action: "add" | "remove", ids: string[], dir: string, paint: Paint) {
  if (ids.length === 0) invalid(`splice lang ${action} needs a language, or all.`);
  const wanted = addonsNamed(ids);
  // The engine loaded the grammars it had: it stops, and the next command starts one that sees these.
  await stopEngine(io().env);
  if (action === "add") {
    const json = await addAddons(wanted, dir);
    const lines = [
      ...json.added.map((p) => `${paint("green", "added")} ${p}`),
      ...json.present.map((p) => `${paint("dim", "already installed")} ${p}`),
    ];
    return { json, human: [...lines, paint("dim", `add-on folder: ${dir}`)].join("\n") };
  }
  const json = await removeAddons(wanted, dir);
  const lines = [
    ...json.removed.map((p) => `${paint("yellow", "removed")} ${p}`),
    ...json.kept.map(
      (p) => `${paint("dim", "kept (installed beside splice, not an add-on)")} ${p}`,
    ),
  ];
  return { json, human: lines.join("\n") || "Nothing to remove." };
}

export const lang = defineCommand({
  name: "lang",
  summary: "the languages splice reads and validates: list, add, remove add-ons",
  usage: "[ACTION] [LANGUAGE...]",
  description: `splice installs the grammars of the common languages (TypeScript, TSX,
JavaScript, HTML, CSS, Python, Go, Rust, JSON, YAML, TOML, Bash) and the
TypeScript language server typescript-language-server. Other languages'
grammars, and the TypeScript native (tsgo) and Python (pyright) servers that
validate edits, are add-ons: "add" installs them with npm into splice's add-on
folder ($SPLICE_ADDONS, else ~/.local/share/splice/addons) at the versions
splice was tested with; "add all" installs every one. A project can instead
depend on the package itself (for example @ast-grep/lang-swift) beside splice.
"list" shows each language, where it was found and its size.`,
  args: [
    {
      name: "ACTION",
      description: "list (the default), add LANGUAGE... or remove LANGUAGE...",
      optional: true,
    },
    {
      name: "LANGUAGE",
      description: "a language id or name, or all",
      optional: true,
      variadic: true,
    },
  ],
  flags: {},
  examples: ["splice lang list", "splice lang add swift kotlin", "splice lang add all"],
  async run({ positionals, paint }) {
    const [action = "list", ...ids] = positionals;
    if (!(ACTIONS as readonly string[]).includes(action)) {
      invalid(`"${action}" is not a lang action; use one of: ${ACTIONS.join(", ")}.`);
    }
    const dir = addonDir();
    if (action === "add" || action === "remove") return change(action, ids, dir, paint);
    const items = await Promise.all(
      parts().map(async (p) => {
        const found = p.package ? findAddon(p.package, dir) : undefined;
        const version = p.package ? pinnedVersion(p.package) : undefined;
        const size = found
          ? { bytes: installedBytes(found.dir), kind: "installed" as const }
          : p.package && version
            ? await registryBytes(p.package, version)
            : undefined;
        const status = !p.package
          ? "built in"
          : p.problem
            ? "does not load"
            : !found
              ? "not installed"
              : found.from === "addons"
                ? "add-on"
                : p.addon
                  ? "beside splice"
                  : "with splice";
        return { ...p, status, ...(size ? { bytes: size.bytes, size_kind: size.kind } : {}) };
      }),
    );
    const style = (s: string) =>
      s === "does not load"
        ? "red"
        : s === "not installed"
          ? "yellow"
          : s === "add-on" || s === "beside splice"
            ? "green"
            : "dim";
    const rows = items.map((i) => {
      const what = i.part === "grammar" ? "grammar" : `validation (${i.package})`;
      const size =
        i.bytes === undefined
          ? ""
          : `${formatBytes(i.bytes)}${i.size_kind === "download" ? " download" : ""}`;
      return `${i.name.padEnd(12)} ${what.padEnd(40)} ${paint(style(i.status), i.status.padEnd(14))} ${size.padStart(18)}`;
    });
    const head = `${"language".padEnd(12)} ${"part".padEnd(40)} ${"status".padEnd(14)} ${"size".padStart(18)}`;
    const hint = items.some((i) => i.status === "not installed")
      ? paint(
          "dim",
          "\nAdd one with `splice lang add LANGUAGE`, or every one with `splice lang add all`.",
        )
      : "";
    const broken = items
      .filter((i) => i.problem)
      .map((i) => paint("red", `\n${i.name} does not load: ${i.problem}. Install it again.`));
    return {
      json: { addon_dir: dir, languages: items },
      human: [paint("bold", head), ...rows].join("\n") + broken.join("") + hint,
    };
  },
});
