import { basename } from "node:path";
import { z } from "zod";
import { ToolError } from "../errors.js";
import { documentToBytes, normalizedText, parseDocument } from "../text/document.js";
import { header } from "../text/hashline.js";
import { generatedReason, looksLikeHashline, stripLegacyPrefixes } from "../text/write-text.js";
import { runBatch } from "./batch.js";
import type { ToolContext } from "./context.js";
import { defineTool, manual } from "./define.js";
import { commitDocument, type LoadedFile, loadIfExists, sameBytes } from "./files.js";

const target = z.strictObject({
  path: z.string().describe("File path, relative to the root."),
  text: z.string().describe("The complete new content of the file."),
  force: z.boolean().optional().describe("Write even a lockfile or a generated file."),
});

const input = z.strictObject({
  targets: z.array(target).min(1).describe("Files to write, in order."),
});

export interface WriteResult {
  path: string;
  file_hash: string;
  header: string;
  action: "create" | "overwrite";
  changed: boolean;
  diff: string;
  warnings: string[];
}

/** CRLF and a BOM are the file's style, not the model's choice: keep them. */
function adoptStyle(text: string, existing: LoadedFile | undefined, warnings: string[]) {
  const doc = parseDocument(text);
  if (!existing) return doc;
  const kept: string[] = [];
  if (existing.doc.bom && !doc.bom) {
    doc.bom = true;
    kept.push("BOM");
  }
  if (existing.doc.eol === "\r\n" && !doc.eols.includes("\r\n")) {
    doc.eols = doc.eols.map((e) => (e === "\n" ? "\r\n" : e));
    doc.eol = "\r\n";
    kept.push("CRLF line endings");
  }
  if (kept.length > 0) warnings.push(`Kept the existing file's ${kept.join(" and ")}.`);
  return doc;
}

async function writeOne(context: ToolContext, t: z.output<typeof target>): Promise<WriteResult> {
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
  const stripped = stripLegacyPrefixes(text);
  if (stripped !== undefined) {
    text = stripped;
    warnings.push('Removed "N:" line-number prefixes copied from read output.');
  }
  const existing = await loadIfExists(context, file);
  const generated = generatedReason(basename(file.real), existing && normalizedText(existing.doc));
  if (generated && !t.force) {
    throw new ToolError(
      "generated",
      `Refusing to write ${file.display}: ${generated}. Regenerate it with its tool instead, or pass "force": true if you must.`,
      { path: file.display },
    );
  }
  const doc = adoptStyle(text, existing, warnings);
  if (text === "") warnings.push(`${file.display} is now empty.`);
  const baseMode = existing?.mode ?? 0o644;
  const mode = text.startsWith("#!") ? baseMode | ((baseMode & 0o444) >> 2) : baseMode;
  if (mode !== baseMode) warnings.push(`Made ${file.display} executable (it starts with #!).`);
  const action = existing ? "overwrite" : "create";
  if (existing && mode === baseMode && sameBytes(existing.bytes, documentToBytes(doc))) {
    context.history.recordRead(file.rel, existing.bytes, existing.tag);
    warnings.push(`${file.display} already had this content; nothing was written.`);
    return {
      path: file.display,
      file_hash: existing.tag,
      header: header(file.display, existing.tag),
      action,
      changed: false,
      diff: "",
      warnings,
    };
  }
  const committed = await commitDocument(context, file, {
    kind: "write",
    before: existing,
    doc,
    mode,
    note: "write",
    action,
  });
  return {
    path: file.display,
    file_hash: committed.tag,
    header: committed.header,
    action,
    changed: true,
    diff: committed.diff,
    warnings,
  };
}
export const writeTool = defineTool({
  name: "write",
  description: manual("write"),
  example: { targets: [{ path: "src/hello.ts", text: 'export const hello = "world";\n' }] },
  input,
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  footprint: (args) => ({ reads: [], writes: args.targets.map((t) => t.path) }),
  call: (context, args) => runBatch(args.targets, (t) => writeOne(context, t)),
});
