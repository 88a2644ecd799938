/**
 * What a non-text file is, from its first bytes (never its name alone: a
 * screenshot saved as `.txt` is still an image). Notebooks are JSON text, so
 * they are known by their extension.
 */

export type MediaKind =
  | { kind: "image"; mime: ImageMime }
  | { kind: "pdf"; mime: "application/pdf" }
  | { kind: "other"; mime: string; name: string };

/** The image types every host takes; SVG is text and reads as text. */
export type ImageMime = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

const startsWith = (bytes: Uint8Array, magic: readonly number[], at = 0): boolean =>
  magic.every((b, i) => bytes[at + i] === b);

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

/** Binary types splice does not show, named so the refusal can say what the file is. */
const OTHERS: [number[], number, string, string][] = [
  [[0x50, 0x4b, 0x03, 0x04], 0, "application/zip", "a ZIP archive"],
  [[0x1f, 0x8b], 0, "application/gzip", "a gzip archive"],
  [ascii("7z"), 0, "application/x-7z-compressed", "a 7-Zip archive"],
  [[0x7f, 0x45, 0x4c, 0x46], 0, "application/x-elf", "an ELF executable"],
  [ascii("MZ"), 0, "application/x-msdownload", "a Windows executable"],
  [ascii("SQLite format 3"), 0, "application/vnd.sqlite3", "an SQLite database"],
  [ascii("BM"), 0, "image/bmp", "a BMP image (not shown: convert it to PNG)"],
  [[0x49, 0x49, 0x2a, 0x00], 0, "image/tiff", "a TIFF image (not shown: convert it to PNG)"],
  [[0x4d, 0x4d, 0x00, 0x2a], 0, "image/tiff", "a TIFF image (not shown: convert it to PNG)"],
  [ascii("ftyp"), 4, "video/mp4", "an MP4/QuickTime media file"],
  [ascii("wOFF"), 0, "font/woff", "a WOFF font"],
  [ascii("wOF2"), 0, "font/woff2", "a WOFF2 font"],
  [[0x00, 0x61, 0x73, 0x6d], 0, "application/wasm", "a WebAssembly module"],
];

/** The kind of a file splice can show other than as text, or undefined for an unknown type. */
export function sniffMedia(bytes: Uint8Array): MediaKind | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return { kind: "image", mime: "image/png" };
  }
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { kind: "image", mime: "image/jpeg" };
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) {
    return { kind: "image", mime: "image/gif" };
  }
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) {
    return { kind: "image", mime: "image/webp" };
  }
  if (startsWith(bytes, ascii("%PDF-"))) return { kind: "pdf", mime: "application/pdf" };
  for (const [magic, at, mime, name] of OTHERS) {
    if (startsWith(bytes, magic, at)) return { kind: "other", mime, name };
  }
  return undefined;
}

const NOTEBOOK = /\.ipynb$/i;

export const isNotebookPath = (path: string): boolean => NOTEBOOK.test(path);
