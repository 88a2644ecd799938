/**
 * The exit codes a script can branch on, as grep, git apply and timeout(1)
 * use them. main.ts returns only these (or a command's own status for `run`);
 * `splice --help` and the README's table say the same.
 */
import { constants } from "node:os";

export const EXIT = {
  ok: 0,
  /** A tool said no; search and ast found nothing (stdout empty); a failed `--check`. */
  refused: 1,
  usage: 2,
  /** `--strict`: the change was written but introduced validation errors. */
  strict: 3,
  internal: 70,
  /** timeout(1)'s status for a command it stopped. */
  timeout: 124,
  /** 128 + SIGINT, as shells report a command stopped by Ctrl-C. */
  interrupted: 130,
} as const;

/** As help shows them; the README's table has a row for each and a test compares the two. */
export const EXIT_CODES: [string, string][] = [
  ["0", "done (a change written that introduced validation errors says so on stderr)"],
  [
    "1",
    "a tool said no (a missing file, a refused edit); search or ast found nothing; a --check that would not apply",
  ],
  ["2", "a wrong command line, or stdin is a terminal where input was expected; nothing was done"],
  ["3", "--strict: the change was written but introduced validation errors"],
  ["N", "splice run: the command's own status"],
  ["124", "splice run: the command timed out (as timeout(1))"],
  ["128+N", "splice run: signal N stopped the command"],
  ["70", "a bug in splice; please report it"],
  ["130", "stopped by Ctrl-C (run and plan stop their processes first)"],
];

/** How a shell reports a command a signal stopped: 128 + the signal's number on this system. */
export function signalStatus(signal: string): number {
  const n = (constants.signals as Record<string, number | undefined>)[signal];
  return 128 + (n ?? 0);
}
