/**
 * The last resort of a process that serves others (`splice serve`, the
 * engine): an error no call or background task caught (a rejection nothing
 * awaited, an exception thrown from a timer) is logged with its stack and the
 * process keeps serving, since every call's state is on disk and the next
 * call starts afresh. Only while serving: the one-shot CLI still exits 70 on
 * an internal error. One home for both, so they say the same thing.
 */

/** Installs the last resort, logging through `say`; returns what removes it. */
export function keepServing(say: (line: string) => void, who = "the server"): () => void {
  const report = (what: string) => (error: unknown) => {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    say(`internal error outside any call (${what}): ${detail}`);
    say(`${who} keeps serving; please report this with the lines above.`);
  };
  const onRejection = report("a promise rejected and nothing handled it");
  const onException = report("an exception nothing caught");
  process.on("unhandledRejection", onRejection);
  process.on("uncaughtException", onException);
  return () => {
    process.off("unhandledRejection", onRejection);
    process.off("uncaughtException", onException);
  };
}
