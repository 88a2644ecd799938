/**
 * What a multi-file syntax edit (ast_edit, ast_rename) is asked and answers:
 * the transform each file goes through, the request, and the per-file and
 * whole results. runCodeEdit (rewrite.ts) runs it.
 */
import type { SgNode } from "@ast-grep/napi";
import type { Mode } from "../change/change.js";
import type { Language } from "../code/languages.js";
import type { EditValidation } from "../lsp/verdict.js";
import type { CodeFile } from "./files.js";

export interface Rewritten {
  text: string;
  matches: number;
  /** The parse of the original text, when the transform made one. */
  root?: SgNode;
  warnings: string[];
}

export interface Transform {
  /** A file without any of these words cannot match (undefined: no such test). */
  words?: string[];
  /** A cheap test on the raw bytes: false means the file cannot match. */
  candidate(bytes: Uint8Array, file: CodeFile): boolean;
  /** Parses large texts on the thread pool (parseInBatch), so files are rewritten side by side. */
  apply(language: Language, text: string, file: CodeFile): Promise<Rewritten>;
  /** Warnings for a file that was not parsed (the prefilter ruled it out). */
  unmatched(file: CodeFile): string[];
}

export interface CodeEditRequest {
  /** "ast_edit": names the writes in history and events. */
  action: string;
  /** What the call does, for the summary: `1 op`, `rename foo -> bar`. */
  what: string;
  mode: Mode;
  /** Write read-only files too. */
  force?: boolean;
  /** The call's `validate`: false skips the validation pass, true forces it. */
  validate?: boolean;
}

export interface CodeEditFile {
  path: string;
  matches: number;
  changed: boolean;
  applied: boolean;
  /** The tag of the result (written or previewed); the current tag when nothing changed. */
  file_hash?: string;
  header?: string;
  diff: string;
  warnings: string[];
  /** What the language server says about the written file. */
  validation?: EditValidation;
}

export interface CodeEditResult {
  /** What a model reads: a summary, then each changed file's header, diff and warnings. */
  content: string;
  mode: Mode;
  applied: boolean;
  files: CodeEditFile[];
  files_scanned: number;
  files_matched: number;
  files_changed: number;
  matches: number;
  /** More files matched the paths than max_files allowed. */
  capped: boolean;
  backup_session?: string;
  warnings: string[];
}
