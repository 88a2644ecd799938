import { z } from "zod";
import { parseCodeAsync } from "../../code/languages.js";
import { identifierNodes, isIdentifier, renameReplacements } from "../../code/rename.js";
import { applyReplacements } from "../../code/rewrite.js";
import { containsAll } from "../../codebase/code-bytes.js";
import type { CodeEditResult, Transform } from "../../codebase/code-edit.js";
import {
  CODE_EDIT_DEFAULT_MAX_FILES,
  codeEditFootprint,
  collectCodeFiles,
  langSchema,
  languageArg,
  maxFilesSchema,
  noFiles,
  onlyLooks,
  pathsSchema,
} from "../../codebase/files.js";
import { runCodeEdit } from "../../codebase/rewrite.js";
import { clip, ToolError } from "../../errors.js";
import { pathList } from "../../text/names.js";
import type { ToolContext } from "../define.js";
import { CHANGES, defineTool, manual } from "../define.js";
import { forceSchema, modeSchema, validateSchema, withSharedFields } from "../schemas.js";

const input = z.strictObject({
  name: z.string(),
  new_name: z.string(),
  paths: pathsSchema,
  max_files: maxFilesSchema(CODE_EDIT_DEFAULT_MAX_FILES),
  lang: langSchema,
  mode: modeSchema,
  force: forceSchema,
  validate: validateSchema,
});

type Args = z.output<typeof input>;

function checkNames(args: Args): void {
  for (const [field, value] of [
    ["The name", args.name],
    ["The new name", args.new_name],
  ] as const) {
    if (!isIdentifier(value)) {
      throw new ToolError(
        "invalid_input",
        `${field} ${JSON.stringify(clip(value))} is not an identifier: a rename renames one name (letters, digits, _ and $, not starting with a digit).`,
        {},
        { tool: "ast_edit", say: (v) => `To rewrite code, use ${v.tool("ast_edit")}.` },
      );
    }
  }
  if (args.name === args.new_name) {
    throw new ToolError(
      "invalid_input",
      `The name and the new name are both "${args.name}": nothing to rename.`,
    );
  }
}

async function astRename(context: ToolContext, args: Args): Promise<CodeEditResult> {
  checkNames(args);
  const language = languageArg(args.lang);
  const collected = await collectCodeFiles(context, args.paths, {
    maxFiles: args.max_files ?? CODE_EDIT_DEFAULT_MAX_FILES,
    ...(language ? { language } : {}),
  });
  if (collected.files.length === 0) throw noFiles(args.paths, collected);
  let total = 0;
  const transform: Transform = {
    words: [args.name],
    candidate: (bytes) => containsAll(bytes, [args.name]),
    async apply(lang, text, code) {
      const root = (await parseCodeAsync(lang, text)).root();
      const replacements = renameReplacements(root, args.name, args.new_name);
      total += replacements.length;
      const warnings: string[] = [];
      if (replacements.length === 0 && code.explicit) {
        warnings.push(
          `No identifier "${args.name}" here (only in strings, comments or longer names, if at all).`,
        );
      }
      if (replacements.length > 0 && identifierNodes(root, args.new_name).length > 0) {
        warnings.push(
          `"${args.new_name}" already names something in this file; check the renamed code for clashes.`,
        );
      }
      return {
        text: applyReplacements(text, replacements),
        matches: replacements.length,
        root,
        warnings,
      };
    },
    unmatched: (code) => (code.explicit ? [`"${args.name}" does not occur here.`] : []),
  };
  return runCodeEdit(
    context,
    collected,
    transform,
    {
      action: "ast_rename",
      what: `${args.name} -> ${args.new_name}`,
      mode: args.mode ?? "apply",
      force: args.force,
      validate: args.validate,
    },
    () =>
      total === 0
        ? [`No identifier "${args.name}" in the ${collected.files.length} file(s) covered.`]
        : [],
  );
}

export const astRenameTool = defineTool({
  name: "ast_rename",
  description: `Rename an identifier across files, token by token: never inside strings or comments, and blind to scopes.
Example: {"name": "parseConfig", "new_name": "loadConfig", "paths": ["src"]}`,
  manual: withSharedFields(manual("ast-rename/ast-rename.md"), "mode", "force", "validate"),
  example: { name: "parseConfig", new_name: "loadConfig", paths: ["src"], mode: "preview" },
  input,
  annotations: CHANGES,
  kind: "edit",
  needsApproval: (args) => !onlyLooks(args.mode),
  footprint: (args) => codeEditFootprint(args.paths, args.mode),
  summarize: (args) => {
    const subject = pathList(args.paths);
    return { subject, summary: `ast_rename ${args.name} -> ${args.new_name} in ${subject}` };
  },
  preview: async (context, args) => {
    const result = await astRename(context, { ...args, mode: "preview" });
    return result.files.map((f) => f.diff).join("");
  },
  call: astRename,
});
