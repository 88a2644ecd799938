/**
 * ripgrep opens the files it searches by path, so a folder swapped for a
 * link out of the root in the middle of its walk makes it read (and print)
 * outside bytes. Every file a search shows is therefore read again through
 * the workspace, which resolves it beneath the root at that moment, and is
 * shown only when each line rg printed is that file's own line.
 */
import { bomLength, decodeWhatwg, type Encoding, utf16Bom } from "../../text/encoding.js";
import type { Collected, FileHits } from "./collect.js";

/** Reads a root-relative file through the confined workspace; undefined when it cannot. */
export type ConfinedRead = (rel: string) => Promise<Uint8Array | undefined>;

/** Line `n` (1-based) of each wanted number, decoded as rg decodes it, without its line break. */
function linesAt(
  bytes: Uint8Array,
  wanted: ReadonlySet<number>,
  last: number,
  given: Encoding | undefined,
): Map<number, string> {
  const found = new Map<number, string>();
  // In another encoding rg reads the whole file through a decoder (a UTF-16 BOM picks one itself).
  const encoding = given ?? utf16Bom(bytes);
  if (encoding) {
    const lines = decodeWhatwg(bytes, encoding).split("\n");
    for (const n of wanted) {
      const line = lines[n - 1];
      if (line !== undefined) found.set(n, line.replace(/\r$/, ""));
    }
    return found;
  }
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // rg drops a UTF-8 byte order mark before the first line.
  let start = bomLength(bytes, undefined);
  for (let n = 1; n <= last && start <= buffer.length; n++) {
    let end = buffer.indexOf(10, start);
    if (end === -1) end = buffer.length;
    if (wanted.has(n)) {
      const stop = end > start && buffer[end - 1] === 13 ? end - 1 : end;
      found.set(n, buffer.toString("utf8", start, stop));
    }
    start = end + 1;
  }
  return found;
}

/**
 * Whether every line rg showed for `file` is in `bytes` at its number; read
 * in `encoding` when rg was told one (`--encoding`), else as rg reads a file
 * by default (UTF-8, or UTF-16 after its byte order mark). `own` is the same
 * bytes' lines as `read` decodes them: where the two decoders differ on a
 * character, either reading of the file's own bytes confirms the line.
 */
export function sameLines(
  file: FileHits,
  bytes: Uint8Array,
  encoding?: Encoding,
  own?: readonly string[],
): boolean {
  const wanted = new Set(file.lines.map((l) => l.line));
  const last = Math.max(0, ...wanted);
  const actual = linesAt(bytes, wanted, last, encoding);
  return file.lines.every((l) => actual.get(l.line) === l.raw || own?.[l.line - 1] === l.raw);
}

/**
 * Drops from `found` every file whose confined read fails or differs from
 * what rg printed, with its hits; binary files count only when the confined
 * read has a NUL byte. Returns the paths dropped.
 */
export async function confirmHits(found: Collected, read: ConfinedRead): Promise<string[]> {
  const dropped: string[] = [];
  const kept: FileHits[] = [];
  // Side by side: on a remote root each read is a round trip (the transport caps how many at once).
  const contents = await Promise.all(found.files.map((file) => read(file.path)));
  found.files.forEach((file, i) => {
    const bytes = contents[i];
    if (bytes && sameLines(file, bytes)) kept.push(file);
    else dropped.push(file.path);
  });
  if (dropped.length > 0) {
    const gone = new Set(dropped);
    found.files = kept;
    found.hits = found.hits.filter((h) => !gone.has(h.path));
  }
  const binaries = await Promise.all(found.binary.map((rel) => read(rel)));
  const binary = found.binary.filter((_, i) => binaries[i]?.includes(0));
  found.binary = binary;
  return dropped;
}

/** rg's message about one file: `./a/b.txt: No such file or directory (os error 2)`. */
const FILE_MESSAGE = /^(?:rg: )?(.+?): .*\(os error \d+\)$/;

/**
 * rg's stderr without the lines about files the confined workspace cannot
 * see now: a folder swapped mid-walk makes rg name outside files (or files
 * that vanished with the swap), and those names must not reach the model.
 */
export async function confirmStderr(
  stderr: string,
  visible: (rel: string) => Promise<boolean>,
): Promise<string> {
  const kept: string[] = [];
  for (const line of stderr.split("\n")) {
    if (line.trim() === "") continue;
    const path = FILE_MESSAGE.exec(line)?.[1];
    if (path !== undefined && !(await visible(path.replace(/^\.\//, "")))) continue;
    kept.push(line);
  }
  return kept.join("\n");
}
