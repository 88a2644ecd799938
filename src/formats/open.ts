/**
 * The editor for a document format. Kept apart from formats.ts because it
 * loads every parser (yaml, jsonc-parser, toml-patch): the doc tool imports
 * it only when a call runs, so starting splice does not pay for them.
 */
import type { OpenEditor } from "./editor.js";
import type { DocFormat } from "./formats.js";
import { openJson, readJson } from "./json.js";
import { openToml } from "./toml.js";
import { openYaml } from "./yaml.js";

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
