/**
 * A call's progress as MCP `notifications/progress`, sent only when the
 * client asked (a `progressToken` in the request's `_meta`). The spec wants
 * `progress` to grow with every notification, while a tool's phases each
 * count from zero ("scanning" 1..n, then "writing" 1..m): phases are laid end
 * to end. Notifications are spaced at least PROGRESS_INTERVAL_MS apart, a
 * command's output gathered in between, and the last state is sent before
 * the result (nothing may follow it).
 */
import type { ProgressNotification, ProgressToken } from "@modelcontextprotocol/sdk/types.js";
import type { CallProgress } from "../../toolkit/index.js";

export const PROGRESS_INTERVAL_MS = 100;
/** The most output one notification carries; older output of the interval is dropped. */
export const PROGRESS_OUTPUT_CHARS = 4000;

type Params = ProgressNotification["params"];

export interface ProgressSender {
  /** The listener for toolkit.call's `onProgress`. */
  listener(progress: CallProgress): void;
  /** Sends what is still pending and stops: call before answering. */
  finish(): Promise<void>;
}

export function progressSender(
  progressToken: ProgressToken,
  send: (params: Params) => Promise<void>,
): ProgressSender {
  let phase: string | undefined;
  let offset = 0;
  let phaseEnd = 0;
  let sent = -1;
  let latest: Params | undefined;
  let output = "";
  let timer: NodeJS.Timeout | undefined;
  let finished = false;
  let sending: Promise<void> = Promise.resolve();

  const flush = () => {
    if (!latest || latest.progress <= sent) return;
    const params: Params = output
      ? { ...latest, message: output.slice(-PROGRESS_OUTPUT_CHARS) }
      : latest;
    sent = latest.progress;
    latest = undefined;
    output = "";
    // A client that went away must not fail the call.
    sending = sending.then(() => send(params)).catch(() => {});
  };

  const tick = () => {
    timer = undefined;
    if (!latest) return;
    flush();
    timer = setTimeout(tick, PROGRESS_INTERVAL_MS);
  };

  return {
    listener(p) {
      if (finished) return;
      if (p.phase !== phase) {
        // The next phase starts where the last one ended, so progress keeps growing.
        offset = phaseEnd;
        phase = p.phase;
      }
      const progress = offset + p.done;
      phaseEnd = Math.max(phaseEnd, p.total === undefined ? progress : offset + p.total);
      const describe =
        p.total === undefined ? `${p.phase} ${p.done}` : `${p.phase} ${p.done}/${p.total}`;
      latest = {
        progressToken,
        progress,
        ...(p.total === undefined ? {} : { total: offset + p.total }),
        message: describe,
      };
      if (p.output) output = (output + p.output).slice(-PROGRESS_OUTPUT_CHARS);
      if (!timer) tick();
    },
    async finish() {
      finished = true;
      if (timer) clearTimeout(timer);
      const last = latest !== undefined && latest.progress > sent;
      flush();
      await sending;
      // The SDK's client hands a notification to its handler a microtask late but
      // a response at once, dropping the call's progress handler: a last state
      // read in the same chunk as the result would be lost. A moment apart, it is
      // read first.
      if (last) await new Promise((resolve) => setTimeout(resolve, 2));
    },
  };
}
