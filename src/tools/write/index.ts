import { basename } from "node:path";
import { z } from "zod";
import { runBatch } from "../../change/batch.js";
import { type ChangeResult, type CommitOptions, changeResult } from "../../change/change.js";
import { commit } from "../../change/commit.js";
import { type LoadedFile, loadIfExists } from "../../change/load.js";
import { serialized } from "../../change/lock.js";
import { ToolError } from "../../errors.js";
import { encodingOf, normalizedText, parseDocument } from "../../text/document.js";
import { pathList } from "../../text/names.js";
import { generatedReason, looksLikeHashline, stripReadPrefixes } from "../../text/write-text.js";
import type { ToolContext } from "../define.js";
import { defineTool, manual } from "../define.js";
import { forceSchema, modeSchema, validateSchema, withSharedFields } from "../schemas.js";
import { targetsInput } from "../targets.js";

/**
 * A target's `force` writes a lockfile, a generated file or text that looks
 * like read output as given; in a one-file call the top-level `force` is that
 * too (and, as in every writing tool, also writes a read-only file).
 */
const target = {
  fields: { path: z.string(), text: z.string(), force: z.boolean().optional() },
  about: {},
};

const input = targetsInput(target, {
  mode: modeSchema,
  force: forceSchema,
  validate: validateSchema,
});

type Target = z.output<typeof input>["targets"][number];

export interface WriteResult extends ChangeResult {
  file_hash: string;
  action: "create" | "overwrite";
}

/** CRLF and a BOM are the file's style, not the model's choice: keep them. */
function adoptStyle(text: string, existing: LoadedFile | undefined, warnings: string[]) {
  const doc = parseDocument(text);
  if (!existing) return doc;
  const kept: string[] = [];
  const { encoding } = existing.doc;
  if (encoding) kept.push(`encoding (${encoding})`);
  const bom = existing.doc.bom && !doc.bom;
  if (bom) kept.push("BOM");
  const crlf = existing.doc.eol === "\r\n" && !doc.eols.includes("\r\n");
  if (crlf) kept.push("CRLF line endings");
  if (kept.length === 0) return doc;
  warnings.push(`Kept the existing file's ${kept.join(" and ")}.`);
  return {
    ...doc,
    ...encodingOf(existing.doc),
    bom: doc.bom || bom,
    ...(crlf && { eols: doc.eols.map((e) => (e === "\n" ? "\r\n" : e)), eol: "\r\n" as const }),
  };
}

async function writeOne(
  context: ToolContext,
  t: Target,
  { mode, validate, force }: CommitOptions,
): Promise<WriteResult> {
  const file = context.guard.check(t.path, "write");
  const warnings: string[] = [];
  if (looksLikeHashline(t.text) && !t.force) {
    throw new ToolError(
      "invalid_input",
      `The text for ${file.display} looks like splice read output (a "¶path#TAG" header and "N| " line prefixes); splice does not strip those. Send the file's plain text without the header and prefixes.`,
      { path: file.display },
    );
  }
  let text = t.text;
  const stripped = t.force ? undefined : stripReadPrefixes(text);
  if (stripped !== undefined) {
    text = stripped;
    warnings.push(
      'Removed the "N| " line numbers copied from read output (every line had one, counting from 1). If they are part of the file, write again with "force": true.',
    );
  }
  const existing = await loadIfExists(context, file);
  const generated = generatedReason(basename(file.real), existing && normalizedText(existing.doc));
  if (generated && !t.force) {
    throw new ToolError(
      "generated",
      `Refusing to write ${file.display}: ${generated}.`,
      { path: file.display },
      {
        tool: "write",
        args: { force: true },
        say: (v) =>
          `Regenerate it with its tool instead, or pass ${v.option("force", true)} if you must.`,
      },
    );
  }
  // A new file takes the encoding the project declares for it as it is committed.
  const doc = existing ? adoptStyle(text, existing, warnings) : parseDocument(text);
  if (text === "") warnings.push(`${file.display} is now empty.`);
  const baseMode = existing?.mode ?? 0o644;
  const fileMode = text.startsWith("#!") ? baseMode | ((baseMode & 0o444) >> 2) : baseMode;
  if (fileMode !== baseMode) warnings.push(`Made ${file.display} executable (it starts with #!).`);
  const action = existing ? "overwrite" : "create";
  const outcome = await commit(
    context,
    { kind: "write", file, before: existing, doc, fileMode, note: "write", action },
    { mode, validate, force },
  );
  if (!outcome.changed)
    warnings.push(`${file.display} already had this content; nothing was written.`);
  if (outcome.validationNotice) warnings.push(outcome.validationNotice);
  return changeResult(file.display, outcome, warnings, { action });
}

function write(context: ToolContext, args: z.output<typeof input>) {
  return runBatch(args.targets, (t) =>
    serialized(context, t.path, () => writeOne(context, t, args)),
  );
}

export const writeTool = defineTool({
  name: "write",
  description: `Create or replace whole files (folders are created). To change part of a file, use edit.
Example: {"path": "src/new.ts", "text": "export const x = 1;\\n"}`,
  manual: withSharedFields(manual("write/write.md"), "mode", "force", "validate"),
  example: { path: "src/hello.ts", text: 'export const hello = "world";\n' },
  input,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  kind: "edit",
  needsApproval: true,
  footprint: (args) => ({ reads: [], writes: args.targets.map((t) => t.path) }),
  summarize: (args) => {
    const subject = pathList(args.targets.map((t) => t.path));
    return { subject, summary: `write ${subject}` };
  },
  preview: async (context, args) => {
    const { results } = await write(context, { ...args, mode: "preview" });
    return results.map((r) => r.diff).join("");
  },
  call: write,
});
