/**
 * Which document format a file is, by its name, and the editor for it.
 * `.json` is strict JSON except for files whose tools read comments and
 * trailing commas (tsconfig, jsconfig, VS Code settings, devcontainer).
 */
import type { OpenEditor } from "./editor.js";
import { DocError } from "./errors.js";
import { openJson, readJson } from "./json.js";
import { openToml } from "./toml.js";
import { openYaml } from "./yaml.js";

export type DocFormat = "json" | "jsonc" | "yaml" | "toml";

export const DOC_FORMATS: readonly DocFormat[] = ["json", "jsonc", "yaml", "toml"];

const JSONC_NAMES =
  /^(tsconfig|jsconfig)([.-][^/]*)?\.json$|^(\.?devcontainer|\.eslintrc|\.babelrc|biome|deno|turbo)\.json$/;

export function formatOf(path: string): DocFormat | undefined {
  const parts = path.split(/[\\/]/);
  const name = parts.at(-1)!.toLowerCase();
  const folder = parts.at(-2)?.toLowerCase();
  const ext = name.includes(".") ? name.slice(name.lastIndexOf(".")) : "";
  if (ext === ".jsonc" || ext === ".code-workspace") return "jsonc";
  if (ext === ".json") return JSONC_NAMES.test(name) || folder === ".vscode" ? "jsonc" : "json";
  if (ext === ".yaml" || ext === ".yml") return "yaml";
  if (ext === ".toml" || name === "pipfile") return "toml";
  return undefined;
}

/** The format of `path`, or a DocError saying which files doc can edit. */
export function requireFormat(path: string, override?: DocFormat): DocFormat {
  const format = override ?? formatOf(path);
  if (format) return format;
  throw new DocError(
    "invalid_input",
    `doc does not know the format of ${path}: it edits .json, .jsonc (and tsconfig*.json, .vscode/*.json), .yaml/.yml and .toml files. Pass "format" ("json", "jsonc", "yaml" or "toml") if the file is one of those under another name, or use the edit tool.`,
    { path },
  );
}

export function editorFor(format: DocFormat, label: string): OpenEditor {
  switch (format) {
    case "json":
      return Object.assign((text: string) => openJson(text, { jsonc: false, label }), {
        reread: (text: string) => readJson(text, label),
      });
    case "jsonc":
      return (text) => openJson(text, { jsonc: true, label });
    case "yaml":
      return (text) => openYaml(text, label);
    case "toml":
      return (text) => openToml(text, label);
  }
}
