/**
 * The engines under test, each scoring a case on a fresh copy of its file in
 * a scratch folder: exact-only matching (the baseline), and splice — through
 * the real edit tool when it takes text edits, else through the pure
 * replaceText with the tool's line-ending handling. The reference MCP server
 * lives in reference.ts.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { isToolError } from "../../src/errors.js";
import { createSplice, type Splice } from "../../src/splice.js";
import { documentFromBytes, normalizedText } from "../../src/text/document.js";
import { replaceText } from "../../src/text/replace.js";
import type { Case } from "./cases.js";
import type { Outcome } from "./scorer.js";

export interface Engine {
  name: string;
  /** How the engine was driven, for the report. */
  how: string;
  run(c: Case): Promise<Outcome>;
  close(): Promise<void>;
}

/** The case's folder and file under `root`, written with `text`. */
export function placeCase(root: string, c: Case, text: string): { rel: string; abs: string } {
  const dir = join(root, c.id);
  mkdirSync(dir, { recursive: true });
  const rel = `${c.id}/${basename(c.file)}`;
  const abs = join(root, rel);
  writeFileSync(abs, text);
  return { rel, abs };
}

/** Reads the file after the call and removes the case's folder. */
export function finish(
  root: string,
  c: Case,
  abs: string,
  outcome: Omit<Outcome, "after">,
): Outcome {
  const after = readFileSync(abs, "utf8");
  rmSync(join(root, c.id), { recursive: true, force: true });
  return { ...outcome, after };
}

const firstLine = (s: string) => s.split("\n", 1)[0]!;

/** (a) A plain exact, unique-match replacement: indexOf; 0 or 2+ matches refuse. */
export function exactOnly(root: string): Engine {
  mkdirSync(root, { recursive: true });
  return {
    name: "exact-only",
    how: "indexOf, unique match or refuse",
    async run(c) {
      const { abs } = placeCase(root, c, c.original);
      const text = readFileSync(abs, "utf8");
      const at = text.indexOf(c.oldText);
      if (at === -1) return finish(root, c, abs, { reported: "refused", message: "not found" });
      if (text.indexOf(c.oldText, at + 1) !== -1) {
        return finish(root, c, abs, { reported: "refused", message: "several matches" });
      }
      writeFileSync(abs, text.slice(0, at) + c.newText + text.slice(at + c.oldText.length));
      return finish(root, c, abs, { reported: "applied" });
    },
    close: async () => {},
  };
}

/**
 * Whether splice's edit tool takes `{path, edits: [{old_text, new_text}]}`:
 * one real edit in a probe folder.
 */
export async function spliceTakesTextEdits(root: string): Promise<{ ok: boolean; why: string }> {
  mkdirSync(join(root, "probe"), { recursive: true });
  writeFileSync(join(root, "probe", "probe.ts"), "const alpha = 1;\nconst beta = 2;\n");
  const splice = createSplice({ root, history: { session: "bench-probe" } });
  try {
    await splice.read({ targets: [{ path: "probe/probe.ts" }] });
    await splice.call("edit", {
      targets: [
        {
          path: "probe/probe.ts",
          edits: [{ old_text: "const beta = 2;", new_text: "const beta = 3;" }],
        },
      ],
    });
    const after = readFileSync(join(root, "probe", "probe.ts"), "utf8");
    if (after !== "const alpha = 1;\nconst beta = 3;\n") {
      return { ok: false, why: `the probe edit left ${JSON.stringify(after)}` };
    }
    return { ok: true, why: "the edit tool applied a probe text edit" };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      why: `the edit tool refused a text edit: ${firstLine(message).slice(0, 160)}`,
    };
  } finally {
    rmSync(join(root, "probe"), { recursive: true, force: true });
  }
}

const MAX_READ_LINES = 2000;

/** (b) splice through the real tool API: read the file, then edit it with one text edit. */
export function spliceTool(root: string): Engine {
  mkdirSync(root, { recursive: true });
  const splice: Splice = createSplice({ root, history: { session: "bench" } });
  return {
    name: "splice",
    how: "tool API: splice.read, then splice.edit({targets: [{path, edits: [{old_text, new_text}]}]})",
    async run(c) {
      const { rel, abs } = placeCase(root, c, c.read);
      const [read] = (await splice.read({ targets: [{ path: rel }] })).results;
      if ((read?.total_lines ?? 0) > MAX_READ_LINES) {
        // A model reads past the first page to the lines it edits.
        const first = Math.max(1, c.line - 20);
        const last = first + 80;
        await splice.read({ targets: [{ path: rel, line_range: [first, last] }] });
      }
      if (c.original !== c.read) writeFileSync(abs, c.original);
      try {
        const { results } = await splice.edit({
          targets: [{ path: rel, edits: [{ old_text: c.oldText, new_text: c.newText }] }],
        });
        const mode = results[0]?.match_mode;
        return finish(root, c, abs, { reported: "applied", ...(mode ? { mode } : {}) });
      } catch (error) {
        if (isToolError(error)) {
          return finish(root, c, abs, { reported: "refused", message: firstLine(error.message) });
        }
        const message = error instanceof Error ? error.message : String(error);
        return finish(root, c, abs, { reported: "refused", message, crashed: true });
      }
    },
    close: async () => {},
  };
}

/**
 * (b') splice's pure engine, with the edit tool's byte handling around it:
 * decode, normalize to LF without a BOM, replaceText, restore BOM and line
 * endings. It cannot know what the model read, so stale cases reach it as
 * plain not-found or fuzzy matches.
 */
export function splicePure(root: string): Engine {
  mkdirSync(root, { recursive: true });
  return {
    name: "splice",
    how: "pure replaceText (src/text/replace.ts) on the file's LF text, BOM and CRLF restored",
    async run(c) {
      const { abs } = placeCase(root, c, c.original);
      const doc = documentFromBytes(readFileSync(abs));
      if ("kind" in doc) return finish(root, c, abs, { reported: "refused", message: doc.reason });
      try {
        const out = replaceText(normalizedText(doc), { oldText: c.oldText, newText: c.newText });
        if (!out.ok) {
          return finish(root, c, abs, {
            reported: "refused",
            message: `${out.code}: ${firstLine(out.message)}`,
          });
        }
        const text = doc.eol === "\r\n" ? out.text.replace(/\n/g, "\r\n") : out.text;
        writeFileSync(abs, (doc.bom ? "\uFEFF" : "") + text);
        return finish(root, c, abs, { reported: "applied", mode: out.mode });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return finish(root, c, abs, { reported: "refused", message, crashed: true });
      }
    },
    close: async () => {},
  };
}
