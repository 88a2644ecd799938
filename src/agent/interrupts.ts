/**
 * Ctrl-C in the agent: the first press during a turn stops that turn, a
 * second before the next message leaves; and the exit codes that say so.
 */
import type { Terminal } from "./terminal.js";

/** Exit codes: 0 done, 1 the last turn failed at the provider, 130 left with Ctrl-C. */
export const EXIT_INTERRUPTED = 130;
/** SIGTERM or SIGHUP. */
export const EXIT_TERMINATED = 143;

/** Tracks Ctrl-C presses since the last message and the turn they stop. */
export class Interrupts {
  #presses = 0;
  #turn: AbortController | undefined;
  readonly #exit: () => void;
  readonly #terminal: Terminal;

  constructor(terminal: Terminal, exit: () => void) {
    this.#terminal = terminal;
    this.#exit = exit;
  }

  begin(): AbortSignal {
    this.#turn = new AbortController();
    return this.#turn.signal;
  }

  end(): void {
    this.#turn = undefined;
  }

  /** A new message was sent: the count starts again. */
  reset(): void {
    this.#presses = 0;
  }

  press(): void {
    this.#presses++;
    if (this.#presses >= 2) {
      this.#turn?.abort();
      this.#exit();
      return;
    }
    if (this.#turn && !this.#turn.signal.aborted) {
      this.#turn.abort();
      return;
    }
    this.#terminal.line(this.#terminal.paint("dim", "(Ctrl-C again to exit, or type /exit)"));
  }

  /** Stops whatever runs, for an exit. */
  stopAll(): void {
    this.#turn?.abort();
  }
}
