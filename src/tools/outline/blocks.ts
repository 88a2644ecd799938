/**
 * The outline's text as it fills: one block per file until the line budget
 * or the output budget (bytes) is spent, then the notes on what was left
 * out. A named file's block may be cut to fit; a folder's files are shown
 * whole or not at all.
 */
import type { LoadedFile } from "../../change/load.js";
import type { OutlineEntry } from "../../code/outline.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import { header } from "../../text/hashline.js";
import { count } from "../../util/format.js";

export interface OutlineFile {
  path: string;
  file_hash: string;
  total_lines: number;
  definitions: OutlineEntry[];
}

/** What the outline of one file shows, from a parse or from the index. */
export interface Outlined {
  lines: string[];
  entries: OutlineEntry[];
  /** The first parse error, described. */
  broken?: string;
  tag: string;
  totalLines: number;
  loaded?: LoadedFile;
}

export class OutlineBlocks {
  readonly out: string[] = [];
  readonly files: OutlineFile[] = [];
  readonly notText: string[] = [];
  truncated = false;
  #empty = 0;
  #bytes = 0;
  /** The first file that did not fit. */
  #next: string | undefined;
  /** What stopped the outline: its line cap, or the output budget. */
  #cap = "";

  constructor(
    readonly folder: boolean,
    readonly maxLines: number,
    /** The output budget, less room for the notes. */
    readonly maxBytes: number,
    readonly warnings: string[],
    /** A file's outline names its version, so a block op may use its line numbers. */
    readonly recordRead: (file: GuardedPath, loaded: LoadedFile, tag: string) => void,
  ) {}

  /** Adds a file's block; false once the budget is spent (the outline is then truncated). */
  add(file: GuardedPath, o: Outlined): boolean {
    // The parser recovers by folding or dropping the definitions around an error.
    if (o.broken) {
      this.warnings.push(
        `${file.display} has parse errors (${o.broken}); its outline may be incomplete, definitions around them can be missing. Read the file there, or fix the syntax.`,
      );
    }
    if (o.entries.length === 0 && this.folder) {
      this.#empty++;
      return true;
    }
    const { tag } = o;
    const display = file.display;
    const block = [header(display, tag), ...(o.lines.length > 0 ? o.lines : ["[no definitions]"])];
    const size = block.reduce((n, line) => n + Buffer.byteLength(line) + 1, 0);
    const overLines = this.out.length + block.length > this.maxLines;
    if (overLines || this.#bytes + size > this.maxBytes) {
      this.#cap = overLines ? `${count(this.maxLines)} lines` : `${count(this.maxBytes)} bytes`;
      if (!this.folder) this.#addPart(block);
      this.truncated = true;
      this.#next = display;
      return false;
    }
    this.out.push(...block);
    this.#bytes += size;
    this.files.push({
      path: display,
      file_hash: tag,
      total_lines: o.totalLines,
      definitions: o.entries,
    });
    if (!this.folder && o.loaded) this.recordRead(file, o.loaded, tag);
    return true;
  }

  /** As much of a named file's block as fits, when it has room for more than its header. */
  #addPart(block: string[]): void {
    const part: string[] = [];
    for (const line of block) {
      const size = Buffer.byteLength(line) + 1;
      if (this.out.length + part.length + 2 > this.maxLines || this.#bytes + size > this.maxBytes)
        break;
      part.push(line);
      this.#bytes += size;
    }
    if (part.length > 1) this.out.push(...part);
  }

  /** The outline's text, with notes on the files not shown; `found` files were to be outlined. */
  finish(found: number): string {
    const { out, notText } = this;
    if (this.#empty > 0) out.push(`[${count(this.#empty)} file(s) with no definitions not shown]`);
    if (notText.length > 0) {
      const named = notText.slice(0, 5).join(", ") + (notText.length > 5 ? ", …" : "");
      const notice = `skipped ${count(notText.length)} file(s) that are not text (binary, or in an encoding that cannot be told for sure): ${named}`;
      out.push(`[${notice}]`);
      this.warnings.push(`${notice}.`);
    }
    if (this.truncated) {
      // Said first too, for a client that keeps only the two ends of a long result.
      out.unshift("[outline cut short; the last line says how to see the rest]");
      out.push(
        this.folder
          ? `[outline stopped at ${this.#cap} after ${count(this.files.length)} of ${count(found)} files; outline a subfolder or a file for the rest, the next being ${this.#next}]`
          : `[outline stopped at ${this.#cap}; read the file by symbol or line_range for the rest]`,
      );
    }
    return out.join("\n");
  }
}
