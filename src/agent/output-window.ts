/**
 * A command's output on screen while it runs. On a terminal: a window of its
 * last lines, redrawn in place, then (once it ends) the window gives way to
 * a summary: how many lines there were and the last of them. In a pipe or a
 * log nothing can be redrawn, so lines are printed as they arrive, up to a
 * limit. Only whole lines are shown, each redacted, so an API key split
 * across two chunks is never printed half by half.
 */
import { printable, type Terminal } from "./terminal.js";

/** Lines of the live window on a terminal. */
export const WINDOW_LINES = 6;
/** Lines kept on screen after the command ends. */
export const SUMMARY_LINES = 10;
/** Lines a pipe gets as they arrive; the model always gets the whole output. */
export const PIPED_LINES = 200;

export class OutputWindow {
  readonly #terminal: Terminal;
  readonly #redact: (text: string) => string;
  readonly #live: boolean;
  #partial = "";
  readonly #tail: string[] = [];
  #count = 0;
  /** Lines of the window now drawn (terminal only). */
  #drawn = 0;

  constructor(terminal: Terminal, redact: (text: string) => string) {
    this.#terminal = terminal;
    this.#redact = redact;
    this.#live = terminal.redraws;
  }

  /** New output, as the command wrote it. */
  add(chunk: string): void {
    const text = this.#partial + chunk;
    const lines = text.split("\n");
    this.#partial = lines.pop() ?? "";
    if (lines.length === 0) return;
    for (const line of lines) this.#push(line);
    if (this.#live) this.#draw();
  }

  /** The command ended: its last partial line counts, and the summary replaces the window. */
  finish(): void {
    if (this.#partial) {
      this.#push(this.#partial);
      this.#partial = "";
    }
    if (!this.#live) {
      if (this.#count > PIPED_LINES) {
        const more = this.#count - PIPED_LINES;
        this.#terminal.line(this.#terminal.paint("dim", `  │ [… ${more} more lines]`));
      }
      return;
    }
    this.#clear();
    if (this.#count === 0) return;
    const shown = this.#tail.slice(-SUMMARY_LINES);
    const before = this.#count - shown.length;
    const lines = shown.map((l) => `  │ ${l}`);
    if (before > 0) {
      lines.unshift(
        this.#terminal.paint("dim", `  │ [${this.#count} lines; the last ${shown.length}:]`),
      );
    }
    this.#terminal.line(lines.join("\n"));
  }

  #push(raw: string): void {
    // A progress bar redraws its line with \r: what it shows is the last part.
    const line = printable(this.#redact(raw.split("\r").filter(Boolean).at(-1) ?? ""));
    this.#count++;
    this.#tail.push(line);
    if (this.#tail.length > SUMMARY_LINES) this.#tail.shift();
    if (!this.#live && this.#count <= PIPED_LINES) this.#terminal.line(`  │ ${line}`);
  }

  #draw(): void {
    this.#clear();
    const width = this.#terminal.columns - 5;
    const lines = this.#tail
      .slice(-WINDOW_LINES)
      .map((l) => this.#terminal.paint("dim", `  │ ${l.length > width ? l.slice(0, width) : l}`));
    this.#terminal.line(lines.join("\n"));
    this.#drawn = lines.length;
  }

  #clear(): void {
    if (this.#drawn === 0) return;
    this.#terminal.erase(this.#drawn);
    this.#drawn = 0;
  }
}
