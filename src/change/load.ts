/**
 * Loading a guarded path as a text Document with its tag and hash, or the
 * ToolError a model can act on when it is not a text file we may edit.
 */
import path from "node:path";
import { nearNames } from "../code/near.js";
import { ToolError, useTool } from "../errors.js";
import type { GuardedPath } from "../guard/path-guard.js";
import { type DecodeFailure, type Document, documentFromBytes } from "../text/document.js";
import { reparseDocument } from "../text/document-bytes.js";
import {
  type Candidate,
  describeChar,
  type Encoding,
  guessEncodings,
  sureCandidate,
  UnencodableError,
  utf16Bom,
} from "../text/encoding.js";
import { formatBytes } from "../util/format.js";
import { identify } from "../util/hash.js";
import { WorkspaceError } from "../workspace/workspace.js";
import type { ChangeContext } from "./context.js";
import { decodedFiles } from "./decoded-cache.js";
import { configuredEncoding } from "./encoding-config.js";

export interface LoadedFile {
  bytes: Uint8Array;
  doc: Document;
  tag: string;
  sha: string;
  mode: number;
}

/** The error for a file that is not text; `reason` says why (a NUL byte, bad UTF-8). */
export function notTextError(display: string, reason: string): ToolError {
  const quote = (p: string) => `'${p.replaceAll("'", "'\\''")}'`;
  const [file, converted] = [quote(display), quote(`${display}.utf8`)];
  const convert = (from: string, tail: string) =>
    useTool(
      "run",
      (run) =>
        `If it is text, convert it with ${run}: iconv -f ${from} -t UTF-8 ${file} > ${converted} && mv ${converted} ${file}${tail}`,
    );
  const only = "splice reads and edits UTF-8 text only.";
  const facts = `${display} is not a text file (${reason}); ${only}`;
  const next = reason.includes("not valid UTF-8")
    ? convert("LATIN1", " (or the file's encoding: CP1252, SHIFT_JIS, ...).")
    : undefined;
  return new ToolError("binary", facts, { path: display }, next);
}

/**
 * A file's bytes as a Document, in the encoding `loadTextFile` would find,
 * or why they are not text (the refusal's sentence) for a caller that skips
 * such files rather than failing.
 */
export async function decodeFile(
  context: ChangeContext,
  file: GuardedPath,
  bytes: Uint8Array,
): Promise<Document | DecodeFailure> {
  const utf8 = documentFromBytes(bytes);
  if (!("kind" in utf8)) return utf8;
  try {
    return await decodeLegacy(context, file, bytes, utf8);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return error.code === "binary" ? utf8 : { kind: "binary", reason: error.facts };
  }
}

/**
 * The document of bytes that are not UTF-8, in the encoding a UTF-16 byte
 * order mark, the project's config or a sure guess names; or the ToolError
 * that says why not and how to name the encoding. Never a guess it is unsure of.
 */
async function decodeLegacy(
  context: ChangeContext,
  file: GuardedPath,
  bytes: Uint8Array,
  failure: DecodeFailure,
): Promise<Document> {
  const bom = utf16Bom(bytes);
  const configured = bom ? undefined : await configuredEncoding(context, file);
  if (configured && (!configured.encoding || configured.encoding === "utf-8")) {
    const why = configured.encoding
      ? "it is not valid UTF-8"
      : "splice does not know that encoding";
    const facts = `${configured.source} sets charset ${configured.name} for it, but ${why}`;
    throw encodingError(file.display, facts, bytes);
  }
  const encoding = bom ?? (configured?.encoding as Encoding | undefined);
  if (encoding) {
    const doc = documentFromBytes(bytes, encoding);
    if (!("kind" in doc)) return doc;
    const said = bom ? "its byte order mark says" : `${configured!.source} says`;
    throw encodingError(file.display, `${said} ${encoding}, but ${doc.reason}`, bytes);
  }
  if (failure.reason.includes("NUL")) throw notTextError(file.display, failure.reason);
  const candidates = guessEncodings(bytes);
  const sure = sureCandidate(candidates);
  if (sure) {
    const doc = documentFromBytes(bytes, sure.encoding);
    if (!("kind" in doc)) return doc;
  }
  throw unsureError(file.display, candidates);
}

/** The bytes `encode` makes, or the ToolError naming the characters the file's encoding cannot hold. */
export function encodedOrRefused(display: string, encode: () => Uint8Array): Uint8Array {
  try {
    return encode();
  } catch (error) {
    if (!(error instanceof UnencodableError)) throw error;
    const chars = error.chars.map(describeChar).join(", ");
    throw new ToolError(
      "unencodable",
      `${display} was not written: it is in ${error.encoding}, which cannot hold ${chars}. Write them another way (an escape such as \\u00E9 in source code, or other text), or convert the file to UTF-8 first.`,
      { path: display, encoding: error.encoding, chars: error.chars },
    );
  }
}

function encodingError(display: string, facts: string, bytes: Uint8Array): ToolError {
  return new ToolError(
    "unknown_encoding",
    `${display} cannot be read as text: ${facts}. Fix the setting, or convert the file.`,
    { path: display, size: bytes.length },
  );
}

/** Bytes that are neither UTF-8 nor in an encoding splice can name with confidence. */
function unsureError(display: string, candidates: Candidate[]): ToolError {
  if (candidates.length === 0) return notTextError(display, "it is not valid UTF-8");
  const likely = candidates
    .slice(0, 3)
    .map((c) => (c.confidence > 0 ? `${c.encoding} (${c.confidence}%)` : c.encoding))
    .join(", ");
  const encoding = candidates[0]!.encoding;
  return new ToolError(
    "unknown_encoding",
    `${display} is not UTF-8, and its encoding cannot be told for sure: likely ${likely}. a guess could write it back in the wrong encoding.`,
    { path: display, candidates: candidates.map((c) => c.encoding) },
    useTool(
      "write",
      (write) =>
        `Name it in .editorconfig (a section for the file with \`charset = ${encoding}\`) or in .gitattributes (\`${display} working-tree-encoding=${encoding}\`), with ${write} if neither exists yet, then read it again.`,
    ),
  );
}

/** Up to 3 names in the missing file's folder close to its name, that this guard lets be read. */
async function nearFiles(context: ChangeContext, file: GuardedPath): Promise<string[]> {
  const folder = path.dirname(file.real);
  let names: string[];
  try {
    names = (await context.workspace.readDir(folder)).map((e) => e.name);
  } catch {
    return []; // the folder is missing too
  }
  const shownFolder = path.posix.dirname(file.display);
  const readable = nearNames(path.basename(file.real), names).filter((name) => {
    try {
      context.guard.check(path.join(folder, name), "read");
      return true;
    } catch {
      return false;
    }
  });
  return readable.slice(0, 3).map((n) => (shownFolder === "." ? n : `${shownFolder}/${n}`));
}

/** Loads a text file or throws the ToolError a model can act on. */
export async function loadTextFile(context: ChangeContext, file: GuardedPath): Promise<LoadedFile> {
  const stat = await context.workspace.stat(file.real);
  if (!stat) {
    const near = await nearFiles(context, file);
    const similar = near.length > 0 ? ` Similar names there: ${near.join(", ")}.` : "";
    throw new ToolError(
      "not_found",
      `${file.display} does not exist.${similar}`,
      { path: file.display },
      {
        tool: "write",
        args: { path: file.display },
        say: (v) => `Check the path, or create it with ${v.tool("write")}.`,
      },
    );
  }
  if (stat.kind === "directory") {
    throw new ToolError(
      "is_directory",
      `${file.display} is a directory, not a file. Name a file inside it.`,
      { path: file.display },
    );
  }
  if (stat.kind === "other") throw notAFile(file.display);
  if (stat.size > context.limits.maxFileBytes) {
    throw new ToolError(
      "too_large",
      `${file.display} is ${formatBytes(stat.size)}, over the ${formatBytes(context.limits.maxFileBytes)} limit for text operations. Search it instead, or start splice with a larger maxFileBytes limit.`,
      { path: file.display, size: stat.size },
    );
  }
  const bytes = await readBytes(context, file);
  const cached = decodedFiles.get(file.real, bytes);
  if (cached) return { ...cached, bytes, mode: stat.mode };
  const prior = decodedFiles.latest(file.real);
  const utf8 =
    prior && !prior.doc.encoding
      ? reparseDocument(prior.bytes, prior.doc, bytes)
      : documentFromBytes(bytes);
  const doc = "kind" in utf8 ? await decodeLegacy(context, file, bytes, utf8) : utf8;
  const decoded = { bytes, doc, ...identify(bytes, undefined, doc.encoding) };
  decodedFiles.set(file.real, decoded);
  return { ...decoded, mode: stat.mode };
}

/**
 * A FIFO, socket or device: refused before it is opened for its bytes (a
 * FIFO blocks a read until something writes to it, a device may never end).
 */
function notAFile(display: string): ToolError {
  return new ToolError(
    "not_a_file",
    `${display} is not a regular file (a named pipe, socket or device), so splice does not read, edit or replace it.`,
    { path: display },
    {
      tool: "run",
      say: (v) => `Name a regular file; to use the special file itself, use ${v.tool("run")}.`,
    },
  );
}

async function readBytes(context: ChangeContext, file: GuardedPath): Promise<Uint8Array> {
  try {
    return await context.workspace.readFile(file.real);
  } catch (error) {
    if (error instanceof WorkspaceError && error.kind === "not_a_file") {
      throw notAFile(file.display);
    }
    if (error instanceof WorkspaceError && error.kind === "is_directory") {
      throw new ToolError(
        "is_directory",
        `${file.display} became a directory while it was read. Name a file inside it.`,
        { path: file.display },
      );
    }
    if (error instanceof WorkspaceError && error.kind === "missing") {
      throw new ToolError("not_found", `${file.display} disappeared while reading it. Try again.`);
    }
    throw error;
  }
}

/** Loads the file, or undefined when nothing is there yet. */
export async function loadIfExists(
  context: ChangeContext,
  file: GuardedPath,
): Promise<LoadedFile | undefined> {
  if (!(await context.workspace.stat(file.real))) return undefined;
  return loadTextFile(context, file);
}

/**
 * A file's bytes as a restore finds them, text or not: a restore backs up
 * and replaces whatever is there, so binary or oversized content must not
 * stop it. `doc` is absent when the bytes are not text within the size limit,
 * and `opaque` then says why.
 */
export interface Replaced {
  bytes: Uint8Array;
  sha: string;
  tag: string;
  mode: number;
  doc?: Document;
  opaque?: string;
}

/** Loads whatever the file holds now for a restore, or undefined when nothing is there. */
export async function loadReplaced(
  context: ChangeContext,
  file: GuardedPath,
): Promise<Replaced | undefined> {
  const stat = await context.workspace.stat(file.real);
  if (!stat) return undefined;
  if (stat.kind === "directory") {
    throw new ToolError(
      "is_directory",
      `${file.display} is now a directory, so no file can be restored there. Move the directory away first.`,
      { path: file.display },
    );
  }
  if (stat.kind === "other") throw notAFile(file.display);
  const limit = context.limits.maxFileBytes;
  if (stat.size <= limit) {
    try {
      return await loadTextFile(context, file);
    } catch (error) {
      if (!(error instanceof ToolError) || error.code !== "binary") throw error;
    }
  }
  const bytes = await readBytes(context, file);
  const decoded = bytes.length <= limit ? documentFromBytes(bytes) : undefined;
  if (decoded && !("kind" in decoded)) {
    return { bytes, ...identify(bytes), mode: stat.mode, doc: decoded };
  }
  const opaque = decoded
    ? decoded.reason
    : `it is ${formatBytes(bytes.length)}, over the ${formatBytes(limit)} limit for text operations`;
  return { bytes, ...identify(bytes), mode: stat.mode, opaque };
}

/** Stored bytes a restore writes back as they are, because they are not text splice can edit. */
export interface OpaqueContent {
  bytes: Uint8Array;
  /** Why the bytes are not shown as lines. */
  opaque: string;
}

/**
 * A stored version to restore: a Document when it is text (UTF-8, or the
 * `encoding` the file is in now), else its bytes as they are.
 */
export function restorable(bytes: Uint8Array, encoding?: Encoding): Document | OpaqueContent {
  let doc = documentFromBytes(bytes);
  if ("kind" in doc && encoding) doc = documentFromBytes(bytes, encoding);
  return "kind" in doc ? { bytes, opaque: doc.reason } : doc;
}
