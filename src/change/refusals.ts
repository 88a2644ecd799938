/**
 * The changes a commit refuses before anything moves: a result splice could
 * not read back, a read-only file, a link to delete or move.
 */
import { ToolError } from "../errors.js";
import type { GuardedPath } from "../guard/path-guard.js";
import { sniffBinary } from "../text/document.js";
import type { Encoding } from "../text/encoding.js";
import { formatBytes } from "../util/format.js";
import type { ChangeContext } from "./context.js";

/**
 * Why a write must not produce these bytes: splice reads, edits and undoes
 * text files within max_file_bytes, and a result it would refuse to read back
 * (a NUL in the first 8 KiB makes a file binary, as it does for git) would
 * leave the model a file it can neither fix nor undo.
 */
export function unreadableResult(
  context: ChangeContext,
  file: GuardedPath,
  bytes: Uint8Array,
  encoding?: Encoding,
): ToolError | undefined {
  if (sniffBinary(bytes, encoding)) {
    const nul = bytes.indexOf(0);
    let line = 1;
    for (let nl = bytes.indexOf(10); nl !== -1 && nl < nul; nl = bytes.indexOf(10, nl + 1)) line++;
    return new ToolError(
      "invalid_input",
      `${file.display} was not written: the new text has a NUL character (U+0000) on line ${line}, which would make it a binary file that splice cannot read, edit or undo. Remove it; in source code, write an escape such as \\0 or \\u0000 instead.`,
      { path: file.display, line },
    );
  }
  const limit = context.limits.maxFileBytes;
  if (bytes.length > limit) {
    return new ToolError(
      "too_large",
      `${file.display} was not written: it would be ${formatBytes(bytes.length)}, over the ${formatBytes(limit)} limit for text operations, so splice could not read, edit or undo it afterwards. Split the text into smaller files, or start splice with a larger maxFileBytes limit.`,
      { path: file.display, size: bytes.length },
    );
  }
  return undefined;
}

/**
 * A path that is itself a link is not deleted or moved: removing the target
 * would leave the link dangling, and removing the link is not something
 * history can undo (it keeps file versions, not links).
 */
export function refuseLinkRemoval(file: GuardedPath, verb: "delete" | "move" = "delete"): void {
  if (!file.link) return;
  const target = file.rel === "" ? "." : file.rel;
  throw new ToolError(
    "is_link",
    `${file.display} is a symbolic link to ${target}, so it was not ${verb === "delete" ? "deleted" : "moved"}: splice ${verb}s files, not links.`,
    { path: file.display, target },
    {
      tool: "run",
      say: (v) =>
        `To change the file it leads to, use its own path, ${target}; to ${verb} the link itself, use ${v.tool("run")} (rm or mv).`,
    },
  );
}

/**
 * A file nobody may write (no write bit, as after chmod a-w) is kept as it
 * is: a rename in a writable folder would replace it regardless, as root
 * would, and its owner made it read-only on purpose.
 */
export function refuseReadOnly(file: GuardedPath, mode: number | undefined): void {
  if (mode === undefined || (mode & 0o222) !== 0) return;
  const octal = `0${(mode & 0o777).toString(8)}`;
  throw new ToolError(
    "read_only",
    `${file.display} was not written: it is read-only (mode ${octal}).`,
    { path: file.display, file_mode: octal },
    {
      tool: "write",
      say: (v) =>
        `If it should change, pass ${v.option("force", true)} to write it anyway (it stays read-only); otherwise leave it as it is.`,
    },
  );
}
