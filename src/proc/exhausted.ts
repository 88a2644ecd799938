/**
 * What this process or the machine ran out of: open files (EMFILE, ENFILE),
 * processes (EAGAIN from a spawn), disk (ENOSPC, EDQUOT), memory (ENOMEM).
 * Any step of any call can meet one, so they are told in one way: a coded
 * `io` error that names the limit and says what to do, never an `internal`
 * fault that blames splice. The call stopped where it met it; a file it had
 * already changed is in history like any other change.
 */
import { ToolError } from "../errors.js";

const LIMITS: Readonly<Record<string, string>> = {
  EMFILE: "splice has as many files open as this process may (EMFILE; the limit is `ulimit -n`)",
  ENFILE: "the system has as many files open as it allows (ENFILE)",
  ENOSPC: "the disk is full (ENOSPC)",
  EDQUOT: "the disk quota is used up (EDQUOT)",
  ENOMEM: "the system is out of memory (ENOMEM)",
};

const ADVICE =
  "Try again in a moment or with fewer files at once, or free what ran out; any file the call had already changed is kept in history, where undo lists it.";

/** The errno code of a system error, if `error` is one. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

/** Whether `error` says a limit was reached (not that something is wrong with a file). */
export const isExhausted = (error: unknown) => LIMITS[errnoOf(error) ?? ""] !== undefined;

/** The coded error for a limit reached, or undefined for any other error. */
export function exhaustedError(error: unknown): ToolError | undefined {
  const errno = errnoOf(error);
  const what = errno === undefined ? undefined : LIMITS[errno];
  if (what === undefined) return undefined;
  const { path, syscall } = error as NodeJS.ErrnoException;
  const where = path ? ` (${syscall ?? "open"} of ${path})` : "";
  return new ToolError("io", `The call stopped: ${what}${where}. ${ADVICE}`, {
    errno,
    ...(path ? { path } : {}),
  });
}
