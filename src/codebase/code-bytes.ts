/**
 * Reading the files a syntax tool covers, in bulk: their bytes (too large or
 * unreadable files skipped, not fatal), the cheap word tests before a parse
 * (ripgrep over many files, a byte search over one), and the bytes as text in
 * the encoding `read` finds for them.
 */
import { isAscii, isUtf8 } from "node:buffer";
import type { ChangeContext } from "../change/context.js";
import { decodeFile, type LoadedFile } from "../change/load.js";
import type { GuardedPath } from "../guard/path-guard.js";
import { filesWithAny } from "../proc/ripgrep.js";
import { type DecodeFailure, documentFromBytes } from "../text/document.js";
import { formatBytes } from "../util/format.js";
import { identify } from "../util/hash.js";
import { mapLimit } from "../util/map-limit.js";
import type { CodeFile } from "./files.js";

/** Below this many files, reading them is as quick as starting ripgrep. */
const RIPGREP_MIN_FILES = 200;
/** Paths per ripgrep process: well under any system's argument limit. */
const RIPGREP_ARG_CHARS = 500_000;

/**
 * The files (by real path) that contain at least one of `words`, found by
 * ripgrep over exactly these files — or undefined when the caller should read
 * them itself: few files, no words, or a workspace that is not the local disk.
 */
export async function filesContaining(
  context: ChangeContext,
  files: readonly CodeFile[],
  words: readonly string[],
): Promise<Set<string> | undefined> {
  if (!context.workspace.capabilities?.localFiles || files.length < RIPGREP_MIN_FILES)
    return undefined;
  if (words.length === 0 || words.some((w) => w === "")) return undefined;
  // ripgrep looks for a word's UTF-8 bytes: one that is not ASCII may be in a file in another encoding.
  if (words.some((w) => !isAscii(Buffer.from(w)))) return undefined;
  const chunks: string[][] = [[]];
  let chars = 0;
  for (const { file } of files) {
    if (chars + file.real.length > RIPGREP_ARG_CHARS && chunks.at(-1)!.length > 0) {
      chunks.push([]);
      chars = 0;
    }
    chunks.at(-1)!.push(file.real);
    chars += file.real.length + 1;
  }
  const found = await mapLimit(chunks, 2, (chunk) => filesWithAny(chunk, [...words]));
  if (found.some((f) => f === undefined)) return undefined;
  return new Set(found.flatMap((f) => f!));
}

/** Why a file was passed over by a bulk read, or its bytes. */
export type RawRead = { bytes: Uint8Array } | { skipped: string };

/** Reads a file's bytes for a bulk scan; too large or unreadable files are skipped, not fatal. */
export async function readRaw(
  context: ChangeContext,
  code: { file: GuardedPath; size?: number },
): Promise<RawRead> {
  const limit = context.limits.maxFileBytes;
  const tooLarge = { skipped: `over the ${formatBytes(limit)} limit` };
  try {
    let size = code.size;
    if (size === undefined) {
      const stat = await context.workspace.stat(code.file.real);
      if (stat?.kind !== "file") return { skipped: "gone" };
      size = stat.size;
    }
    if (size > limit) return tooLarge;
    const bytes = await context.workspace.readFile(code.file.real);
    // It may have grown since the walk measured it.
    return bytes.length > limit ? tooLarge : { bytes };
  } catch {
    return { skipped: "unreadable" };
  }
}

/**
 * The bytes as a loaded text file (mode unknown: 0; `sha` when the caller
 * hashed them already), in the encoding `read` finds: UTF-8 at once, else a
 * legacy one from a UTF-16 BOM, the project's config or a sure detection;
 * or why they are not text.
 */
export async function loadedIn(
  context: ChangeContext,
  file: GuardedPath,
  bytes: Uint8Array,
  sha?: string,
): Promise<LoadedFile | DecodeFailure> {
  const utf8 = documentFromBytes(bytes);
  const doc = "kind" in utf8 ? await decodeFile(context, file, bytes) : utf8;
  if ("kind" in doc) return doc;
  return { bytes, doc, ...identify(bytes, sha, doc.encoding), mode: 0 };
}

/**
 * Whether the bytes may contain every word (a cheap test before parsing).
 * The words are looked for as UTF-8, so bytes that are not plain UTF-8 (a
 * file in another encoding, UTF-16's NUL bytes) may hold them: decoding says.
 */
export function containsAll(bytes: Uint8Array, words: readonly string[]): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (words.every((w) => buffer.includes(w))) return true;
  return !isUtf8(buffer) || buffer.includes(0);
}
