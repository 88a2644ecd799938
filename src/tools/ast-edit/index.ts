import { z } from "zod";
import type { Language } from "../../code/languages.js";
import {
  type FileRewrite,
  type PreparedOp,
  patternProblem,
  prepareOps,
  rewriteText,
} from "../../code/rewrite.js";
import { containsAll } from "../../codebase/code-bytes.js";
import type { CodeEditResult, Transform } from "../../codebase/code-edit.js";
import {
  CODE_EDIT_DEFAULT_MAX_FILES,
  type CodeFile,
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
import { ToolError } from "../../errors.js";
import { pathList } from "../../text/names.js";
import { count } from "../../util/format.js";
import type { ToolContext } from "../define.js";
import { CHANGES, defineTool, manual } from "../define.js";
import { forceSchema, modeSchema, validateSchema, withSharedFields } from "../schemas.js";
import { type AstFindResult, findMatches, renderFind } from "./find.js";

const op = z.strictObject({
  pat: z.string(),
  out: z.string().optional().describe("Uses the captures; omit in every op to find."),
});

/** A find (no op has `out`) only looks, whatever its mode says. */
const lookingMode = (args: { ops: { out?: string }[]; mode?: string }) =>
  args.ops.every((o) => o.out === undefined) ? "preview" : args.mode;

const input = z.strictObject({
  ops: z.array(op).min(1),
  paths: pathsSchema,
  max_files: maxFilesSchema(CODE_EDIT_DEFAULT_MAX_FILES),
  lang: langSchema,
  mode: modeSchema,
  force: forceSchema,
  validate: validateSchema,
});

type Args = z.output<typeof input>;

const quote = (pat: string) => JSON.stringify(pat.length > 60 ? `${pat.slice(0, 59)}…` : pat);

/** Per op, the languages (present in the files) its pattern does not parse in, with why. */
function patternProblems(
  ops: PreparedOp[],
  files: readonly CodeFile[],
): Map<number, Map<string, string>> {
  const languages = new Map<string, Language>();
  for (const f of files) languages.set(f.language.id, f.language);
  const out = new Map<number, Map<string, string>>();
  for (const o of ops) {
    const problems = new Map<string, string>();
    for (const language of languages.values()) {
      const problem = patternProblem(language, o.pat);
      if (problem) problems.set(language.id, problem);
    }
    if (problems.size === languages.size) {
      const why = [...problems.values()].join("; ");
      throw new ToolError(
        "invalid_input",
        `Op ${o.index + 1}'s pattern ${quote(o.pat)} is not a valid pattern: ${why}. Nothing was changed. A pattern is code in the file's language, with $NAME for one node and $$$NAME for any number.`,
        { op: o.index + 1 },
      );
    }
    out.set(o.index, problems);
  }
  return out;
}

/** Capture lines that could not move left with the rest of their capture (moveCapture). */
function keptWarning(o: PreparedOp, kept: string[]): string {
  return `Op ${o.index + 1}: moving a multi-line capture, splice kept the indentation of ${count(kept.length)} line(s) indented less than the capture's first line (first: ${quote(kept[0]!.trim())}). Check the diff and fix their indentation if it matters.`;
}

function transformFor(ops: PreparedOp[], problems: Map<number, Map<string, string>>) {
  const totals = ops.map(() => 0);
  const skip = (language: Language) => (o: PreparedOp) =>
    problems.get(o.index)?.has(language.id) === true;
  const perFile = (code: CodeFile, result?: FileRewrite): string[] => {
    const warnings: string[] = [];
    for (const o of ops) {
      const problem = problems.get(o.index)?.get(code.language.id);
      const kept = result?.kept[o.index] ?? [];
      if (problem) warnings.push(`${opName(ops, o)} pattern was not applied here: ${problem}.`);
      else if (code.explicit && (result?.counts[o.index] ?? 0) === 0) {
        warnings.push(`${opName(ops, o, false)} (${quote(o.pat)}) matched nothing here.`);
      }
      if (kept.length > 0) warnings.push(keptWarning(o, kept));
    }
    return warnings;
  };
  // The longest word of each op: a file without one of them cannot match any op.
  const longest = ops.map((o) => o.words.reduce((a, b) => (b.length > a.length ? b : a), ""));
  const transform: Transform = {
    ...(longest.every(Boolean) ? { words: [...new Set(longest)] } : {}),
    candidate: (bytes, code) =>
      ops.some((o) => !skip(code.language)(o) && containsAll(bytes, o.words)),
    async apply(language, text, code) {
      const result = await rewriteText(language, text, ops, skip(language));
      result.counts.forEach((n, i) => {
        totals[i]! += n;
      });
      const matches = result.counts.reduce((a, b) => a + b, 0);
      return {
        text: result.text,
        matches,
        ...(result.root ? { root: result.root } : {}),
        warnings: code.explicit || matches > 0 ? perFile(code, result) : [],
      };
    },
    unmatched: (code) => (code.explicit ? perFile(code, undefined) : []),
  };
  return { transform, totals };
}

/** "Op 2's" among several ops; a call of one op has only "The" pattern. */
function opName(ops: readonly PreparedOp[], o: PreparedOp, possessive = true): string {
  if (ops.length === 1) return possessive ? "The" : "The pattern";
  return `Op ${o.index + 1}${possessive ? "'s" : ""}`;
}

const plural = (n: number, noun: string) => `${count(n)} ${noun}${n === 1 ? "" : "s"}`;

function callWarnings(
  ops: PreparedOp[],
  problems: Map<number, Map<string, string>>,
  totals: number[],
  files: readonly CodeFile[],
): string[] {
  const warnings: string[] = [];
  for (const o of ops) {
    for (const [id, problem] of problems.get(o.index) ?? []) {
      const skipped = files.filter((f) => f.language.id === id);
      const name = skipped[0]?.language.name ?? id;
      warnings.push(
        `${opName(ops, o)} pattern was not applied to ${plural(skipped.length, `${name} file`)}: ${problem}.`,
      );
    }
    if (totals[o.index] === 0) {
      warnings.push(
        `${opName(ops, o, false)} (${quote(o.pat)}) matched nothing in ${plural(files.length, "file")} covered.`,
      );
    }
    if (o.unknown.length > 0) {
      const names = o.unknown.map((v) => `$${v}`).join(", ");
      warnings.push(
        `${ops.length === 1 ? "The rewrite" : `Op ${o.index + 1}'s rewrite`} uses ${names}, which the pattern does not capture; written as is.`,
      );
    }
  }
  return warnings;
}

/** Whether the call only finds: no op has an `out`. Some with and some without is an error. */
function finds(args: Args): boolean {
  const without = args.ops.filter((o) => o.out === undefined).length;
  if (without === 0) return false;
  if (without === args.ops.length) return true;
  const n = args.ops.findIndex((o) => o.out === undefined) + 1;
  throw new ToolError(
    "invalid_input",
    `Op ${n} has no out while other ops have one. Nothing was changed. Give every op an out to rewrite, or none to find.`,
    { op: n },
  );
}

async function astEdit(
  context: ToolContext,
  args: Args,
): Promise<CodeEditResult & { hits?: AstFindResult["hits"] }> {
  const language = languageArg(args.lang);
  const find = finds(args);
  const ops = prepareOps(args.ops.map((o) => ({ pat: o.pat, out: o.out ?? "" })));
  const collected = await collectCodeFiles(context, args.paths, {
    maxFiles: args.max_files ?? CODE_EDIT_DEFAULT_MAX_FILES,
    ...(language ? { language } : {}),
  });
  if (collected.files.length === 0) throw noFiles(args.paths, collected);
  const problems = patternProblems(ops, collected.files);
  const { transform, totals } = transformFor(ops, problems);
  const what = `${ops.length} op${ops.length === 1 ? "" : "s"}`;
  if (find) {
    const skip = (lang: Language) => (o: PreparedOp) =>
      problems.get(o.index)?.has(lang.id) === true;
    const { hits, files, skipped } = await findMatches(
      context,
      collected,
      ops,
      skip,
      transform.words,
    );
    for (const hit of hits) totals[hit.op - 1]! += 1;
    const result: AstFindResult = {
      content: "",
      mode: "preview",
      applied: false,
      files,
      files_scanned: collected.files.length,
      files_matched: files.length,
      files_changed: 0,
      matches: hits.length,
      capped: collected.capped,
      warnings: [
        ...collected.warnings,
        ...(skipped.length > 0 ? [`Skipped ${skipped.join(", ")}.`] : []),
        ...callWarnings(ops, problems, totals, collected.files),
      ],
      hits,
    };
    result.content = renderFind(result, what, context.limits.maxLines);
    return result;
  }
  return runCodeEdit(
    context,
    collected,
    transform,
    {
      action: "ast_edit",
      what,
      mode: args.mode ?? "apply",
      force: args.force,
      validate: args.validate,
    },
    () => callWarnings(ops, problems, totals, collected.files),
  );
}

export const astEditTool = defineTool({
  name: "ast_edit",
  description: `Find or rewrite code by syntax with ast-grep patterns ($A: one node, $$$A: any number); strings and comments never match by accident.
Example: {"ops": [{"pat": "console.log($$$A)", "out": "logger.debug($$$A)"}], "paths": ["src"], "mode": "preview"}`,
  manual: withSharedFields(manual("ast-edit/ast-edit.md"), "mode", "force", "validate"),
  example: {
    ops: [{ pat: "console.log($$$ARGS)", out: "logger.debug($$$ARGS)" }],
    paths: ["src"],
    mode: "preview",
  },
  input,
  annotations: CHANGES,
  kind: "edit",
  needsApproval: (args) => !onlyLooks(lookingMode(args)),
  footprint: (args) => codeEditFootprint(args.paths, lookingMode(args)),
  summarize: (args) => {
    const subject = pathList(args.paths);
    const first = args.ops[0]!;
    const to = first.out === undefined ? "" : ` -> ${quote(first.out)}`;
    return {
      subject,
      summary: `ast_edit ${first.out === undefined ? "find " : ""}${quote(first.pat)}${to} in ${subject}`,
    };
  },
  preview: async (context, args) => {
    const result = await astEdit(context, { ...args, mode: "preview" });
    return result.files.map((f) => f.diff).join("");
  },
  call: astEdit,
});
