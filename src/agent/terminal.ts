/**
 * Line-oriented terminal I/O: no full-screen UI, so it works in any terminal,
 * over ssh and through pipes. Text streams to stdout as it arrives; provider
 * errors go to stderr. Lines typed (or piped) ahead are queued and answer the
 * next question in order, so a script can feed prompts and approvals on stdin.
 *
 * Ctrl-C reaches us two ways: as SIGINT (pipes, `kill -INT`) or, on a TTY,
 * as a keypress readline turns into its own 'SIGINT' event. Both call the one
 * interrupt handler; what an interrupt means is the session's decision.
 */
import { createInterface, type Interface } from "node:readline";
import { styleText } from "node:util";

type Style = Parameters<typeof styleText>[0];

export interface TerminalStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream & { isTTY?: boolean };
  errors: NodeJS.WritableStream & { isTTY?: boolean };
}

/** What a question got: a line, the end of input, or an interrupt. */
export type Answer = { kind: "line"; text: string } | { kind: "end" } | { kind: "interrupted" };

/** Control characters from a model or a file could move the cursor or restyle the terminal. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Text from outside (the model, a file, a command) made safe to print: tabs and newlines stay. */
export const printable = (text: string) => text.replace(CONTROL, "");

export class Terminal {
  /** stdin is a terminal a person types into. */
  readonly interactive: boolean;
  readonly #streams: TerminalStreams;
  readonly #rl: Interface;
  readonly #queue: string[] = [];
  readonly #color: boolean;
  readonly #editing: boolean;
  #ended = false;
  #waiter: ((answer: Answer) => void) | undefined;
  #atLineStart = true;
  #onInterrupt: () => void = () => {};
  #onExit: () => void = () => {};
  readonly #sigint = () => this.#onInterrupt();
  readonly #sigterm = () => this.#onExit();

  constructor(streams: TerminalStreams) {
    this.#streams = streams;
    this.interactive = streams.input.isTTY === true;
    // Line editing needs a terminal on both ends; `splice agent | tee log` reads cooked lines.
    this.#editing = this.interactive && streams.output.isTTY === true;
    this.#color = streams.output.isTTY === true && !process.env.NO_COLOR;
    this.#rl = createInterface({
      input: streams.input,
      ...(this.#editing ? { output: streams.output, terminal: true } : { terminal: false }),
    });
    this.#rl.on("line", (line) => {
      this.#atLineStart = true;
      // Typing during a reply must not redraw an old question.
      if (this.#editing) this.#rl.setPrompt("");
      this.#deliver({ kind: "line", text: line });
    });
    this.#rl.on("close", () => {
      this.#ended = true;
      this.#deliver({ kind: "end" });
    });
    this.#rl.on("SIGINT", this.#sigint);
    process.on("SIGINT", this.#sigint);
    process.on("SIGTERM", this.#sigterm);
    process.on("SIGHUP", this.#sigterm);
  }

  /** Ctrl-C, from either source. */
  onInterrupt(handler: () => void): void {
    this.#onInterrupt = handler;
  }

  /** SIGTERM or SIGHUP: the session should stop now. */
  onExit(handler: () => void): void {
    this.#onExit = handler;
  }

  /** Input has ended (Ctrl-D, or the pipe closed) and nothing typed ahead is left. */
  get ended(): boolean {
    return this.#ended && this.#queue.length === 0;
  }

  paint(style: Style, text: string): string {
    return this.#color ? styleText(style, text) : text;
  }

  /** Output is a terminal, where lines already written can be redrawn. */
  get redraws(): boolean {
    return this.#streams.output.isTTY === true;
  }

  /** The terminal's width (80 when unknown). */
  get columns(): number {
    return (this.#streams.output as { columns?: number }).columns || 80;
  }

  /** Erases the last `lines` whole lines written, leaving the cursor where the first began. */
  erase(lines: number): void {
    if (lines <= 0 || !this.redraws) return;
    this.#streams.output.write(`\x1b[${lines}A\x1b[0J`);
    this.#atLineStart = true;
  }

  /** Streams text as it arrives. */
  write(text: string): void {
    if (text === "") return;
    this.#streams.output.write(text);
    this.#atLineStart = text.endsWith("\n");
  }

  /** Streams text from outside (the model's reply) without its control characters. */
  text(text: string): void {
    this.write(printable(text));
  }

  /** A whole line, starting on a fresh line. */
  line(text: string): void {
    this.write(`${this.#atLineStart ? "" : "\n"}${text}\n`);
  }

  /** Ends the current line, if text left one open. */
  endLine(): void {
    if (!this.#atLineStart) this.write("\n");
  }

  /** One line on stderr, after finishing the current stdout line. */
  error(text: string): void {
    this.endLine();
    const color = this.#streams.errors.isTTY === true && !process.env.NO_COLOR;
    this.#streams.errors.write(`${color ? styleText("red", text) : text}\n`);
  }

  /** The next prompt line; the prompt is shown only to a person at a terminal. */
  prompt(text: string, signal?: AbortSignal): Promise<Answer> {
    return this.#read(this.interactive ? text : "", signal, true);
  }

  /**
   * A question shown always (in a pipe too, so a script's log says what was
   * answered). At a terminal only a line typed after the question answers it:
   * a message typed ahead waits for the next prompt instead.
   */
  ask(question: string, signal?: AbortSignal): Promise<Answer> {
    return this.#read(question, signal, !this.interactive);
  }

  close(): void {
    process.off("SIGINT", this.#sigint);
    process.off("SIGTERM", this.#sigterm);
    process.off("SIGHUP", this.#sigterm);
    this.#rl.close();
    // A pipe nobody reads must not keep the process alive.
    (this.#streams.input as NodeJS.ReadStream).destroy?.();
  }

  #deliver(answer: Answer): void {
    const waiter = this.#waiter;
    if (waiter) {
      this.#waiter = undefined;
      waiter(answer);
    } else if (answer.kind === "line") {
      this.#queue.push(answer.text);
    }
  }

  #read(question: string, signal: AbortSignal | undefined, typedAhead: boolean): Promise<Answer> {
    if (signal?.aborted) return Promise.resolve({ kind: "interrupted" });
    if (question) {
      if (!this.#atLineStart) this.write("\n");
      if (this.#editing) {
        this.#rl.setPrompt(question);
        this.#rl.prompt();
        this.#atLineStart = false;
      } else {
        this.write(question);
      }
    }
    const queued = typedAhead ? this.#queue.shift() : undefined;
    if (queued !== undefined) {
      // Show the answer after its question: a terminal did not echo it yet, a pipe never does.
      if (question) this.write(`${queued}\n`);
      return Promise.resolve({ kind: "line", text: queued });
    }
    if (this.#ended) return Promise.resolve({ kind: "end" });
    return new Promise((resolve) => {
      const onAbort = () => {
        this.#waiter = undefined;
        resolve({ kind: "interrupted" });
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiter = (answer) => {
        signal?.removeEventListener("abort", onAbort);
        // A piped answer is not echoed: show it, so a script's log reads like the session.
        if (!this.#editing && question) {
          this.write(answer.kind === "line" ? `${answer.text}\n` : "\n");
        }
        resolve(answer);
      };
    });
  }
}
