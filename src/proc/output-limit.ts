/**
 * Bounded capture of a command's output: the first bytes and the last bytes
 * are kept, the middle is only scanned for its first and last error-looking
 * lines and handed to a sink (the spill file). Memory stays at about the
 * budget however much the command prints. No I/O here: the sink is injected.
 */

/** Lines a person would look for first in a failed build or test run. */
export const ERROR_LINE = /error|fail|exception|traceback|panic/i;

/** A line longer than this is cut when quoted, and only its end is kept while scanning. */
const MAX_QUOTED_LINE = 300;
const MAX_CARRY = 4096;

export interface OutputSink {
  write(chunk: Uint8Array): void;
}

export interface ErrorLine {
  /** 1-based line number in the full output. */
  line: number;
  text: string;
}

export interface LimitedOutput {
  /** All the output when nothing was elided, else the kept head (ends at a line break when one is near). */
  head: string;
  /** The kept tail; "" when nothing was elided. */
  tail: string;
  truncated: boolean;
  totalBytes: number;
  elidedBytes: number;
  elidedLines: number;
  /** First and last error-looking lines of the elided part (0, 1 or 2). */
  errorLines: ErrorLine[];
  /** Line number where the elided part starts. */
  elidedFrom: number;
}

/** A byte loop: several times faster than charCodeAt over a long string. */
function countNewlines(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let n = 0;
  for (let i = from; i < to; i++) if (bytes[i] === 10) n++;
  return n;
}

function quoteLine(latin1: string): string {
  const text = Buffer.from(latin1, "latin1").toString("utf8").replace(/\r$/, "");
  return text.length > MAX_QUOTED_LINE ? `${text.slice(0, MAX_QUOTED_LINE)}…` : text;
}

/** Scans the elided middle, in order, for error-looking lines; counts its lines. */
class MiddleScanner {
  /** Line number of the first byte not yet scanned. */
  line: number;
  newlines = 0;
  first: ErrorLine | undefined;
  last: ErrorLine | undefined;
  #carry = "";
  readonly #global = new RegExp(ERROR_LINE.source, "gi");

  constructor(startLine: number) {
    this.line = startLine;
  }

  feed(bytes: Uint8Array): void {
    // latin1 maps bytes 1:1 to characters: cheap, and the pattern is ASCII.
    const carry = this.#carry.length;
    const text =
      this.#carry + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("latin1");
    const end = text.lastIndexOf("\n") + 1;
    // The carry holds no line break, so text positions count on the bytes shifted by its length.
    this.#scan(text, end, (a, b) => countNewlines(bytes, Math.max(0, a - carry), b - carry));
    const rest = text.slice(end);
    this.#carry = rest.length > MAX_CARRY ? rest.slice(-MAX_CARRY) : rest;
  }

  /** Scans the unfinished last line (it continues into the kept tail). */
  finish(): void {
    const line = `${this.#carry}\n`;
    if (this.#carry !== "") this.#scan(line, line.length, () => 0, false);
    this.#carry = "";
  }

  /** Cost: one regex pass over the text plus constant work per matching line. */
  #scan(text: string, end: number, newlines: (from: number, to: number) => number, counted = true) {
    if (end === 0) return;
    const re = this.#global;
    re.lastIndex = 0;
    let pos = 0;
    let line = this.line;
    let lastStop = -1;
    for (let found = re.exec(text); found !== null && found.index < end; found = re.exec(text)) {
      const start = text.lastIndexOf("\n", found.index) + 1;
      lastStop = text.indexOf("\n", found.index);
      line += newlines(pos, start);
      pos = start;
      if (!this.first) this.first = { line, text: quoteLine(text.slice(start, lastStop)) };
      re.lastIndex = lastStop + 1;
    }
    // `pos` and `line` were left at the last matching line.
    if (lastStop !== -1) this.last = { line, text: quoteLine(text.slice(pos, lastStop)) };
    if (!counted) return;
    const lines = line - this.line + newlines(pos, end);
    this.line += lines;
    this.newlines += lines;
  }
}

/** Keeps the head (`headShare` of the budget) and the tail (the rest) of a byte stream. */
export class OutputLimiter {
  readonly #headMax: number;
  readonly #tailMax: number;
  readonly #head: Buffer[] = [];
  #headBytes = 0;
  #tail: Buffer[] = [];
  #tailBytes = 0;
  #total = 0;
  #scanner: MiddleScanner | undefined;
  #sink: OutputSink | undefined;
  readonly #openSink: () => OutputSink | undefined;
  #sinkTried = false;

  /** `openSink` is called once, when the output first exceeds the budget. */
  constructor(maxBytes: number, openSink: () => OutputSink | undefined, headShare = 0.4) {
    this.#headMax = Math.floor(maxBytes * headShare);
    this.#tailMax = maxBytes - this.#headMax;
    this.#openSink = openSink;
  }

  get totalBytes(): number {
    return this.#total;
  }

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.#total += chunk.length;
    this.#spill(chunk);
    let rest = chunk;
    if (this.#headBytes < this.#headMax) {
      const take = Math.min(rest.length, this.#headMax - this.#headBytes);
      this.#head.push(Buffer.from(rest.subarray(0, take)));
      this.#headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0) return;
    this.#tail.push(rest);
    this.#tailBytes += rest.length;
    while (this.#tailBytes > this.#tailMax) {
      const front = this.#tail[0]!;
      const excess = this.#tailBytes - this.#tailMax;
      const dropped = front.length <= excess ? front : front.subarray(0, excess);
      if (front.length <= excess) this.#tail.shift();
      else this.#tail[0] = front.subarray(excess);
      this.#tailBytes -= dropped.length;
      this.#middle().feed(dropped);
    }
  }

  /** Starts the sink with everything so far the moment the budget is first exceeded. */
  #spill(chunk: Buffer): void {
    if (this.#sink) {
      this.#sink.write(chunk);
      return;
    }
    if (this.#sinkTried || this.#total <= this.#headMax + this.#tailMax) return;
    this.#sinkTried = true;
    this.#sink = this.#openSink();
    if (!this.#sink) return;
    // Nothing was dropped yet: head and tail hold every earlier byte.
    for (const b of this.#head) this.#sink.write(b);
    for (const b of this.#tail) this.#sink.write(b);
    this.#sink.write(chunk);
  }

  #middle(): MiddleScanner {
    if (!this.#scanner) {
      this.#scanner = new MiddleScanner(1 + countNewlines(Buffer.concat(this.#head)));
    }
    return this.#scanner;
  }

  finish(): LimitedOutput {
    const head = Buffer.concat(this.#head);
    const tail = Buffer.concat(this.#tail);
    if (!this.#scanner) {
      return {
        head: Buffer.concat([head, tail]).toString("utf8"),
        tail: "",
        truncated: false,
        totalBytes: this.#total,
        elidedBytes: 0,
        elidedLines: 0,
        errorLines: [],
        elidedFrom: 0,
      };
    }
    const scanner = this.#scanner;
    const elidedFrom = scanner.line - scanner.newlines;
    scanner.finish();
    // Cut at line breaks when one is near, so no half lines are shown.
    const headEnd = head.lastIndexOf(10);
    const headCut = headEnd >= head.length * 0.75 ? headEnd + 1 : head.length;
    const tailStart = tail.indexOf(10);
    const tailCut = tailStart !== -1 && tailStart < tail.length * 0.25 ? tailStart + 1 : 0;
    const shownHead = head.subarray(0, headCut);
    const shownTail = tail.subarray(tailCut);
    const errorLines = [scanner.first, scanner.last].filter((l): l is ErrorLine => !!l);
    if (errorLines.length === 2 && errorLines[0]!.line === errorLines[1]!.line) errorLines.pop();
    return {
      head: shownHead.toString("utf8"),
      tail: shownTail.toString("utf8"),
      truncated: true,
      totalBytes: this.#total,
      elidedBytes: this.#total - shownHead.length - shownTail.length,
      elidedLines: scanner.newlines + (tailCut > 0 ? 1 : 0),
      errorLines,
      elidedFrom,
    };
  }
}
