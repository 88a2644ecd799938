/**
 * Which document format a file is, by its name (the editors are in open.ts,
 * so naming a format loads no parser).
 * `.json` is strict JSON except for files whose tools read comments and
 * trailing commas (tsconfig, jsconfig, VS Code settings, devcontainer,
 * Renovate's renovate.json, which real projects write with trailing commas).
 */
import { DocError } from "./errors.js";

export type DocFormat = "json" | "jsonc" | "yaml" | "toml";

export const DOC_FORMATS: readonly DocFormat[] = ["json", "jsonc", "yaml", "toml"];

const JSONC_NAMES =
  /^(tsconfig|jsconfig)([.-][^/]*)?\.json$|^(\.?devcontainer|\.eslintrc|\.babelrc|biome|deno|turbo|renovate|\.renovaterc)\.json$/;

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
    `doc does not know the format of ${path}: it edits .json, .jsonc (and tsconfig*.json, .vscode/*.json), .yaml/.yml and .toml files.`,
    { path },
    {
      tool: "doc",
      say: (v) =>
        `Pass ${v.arg("format")} ("json", "jsonc", "yaml" or "toml") if the file is one of those under another name, or use ${v.tool("edit")}.`,
    },
  );
}
