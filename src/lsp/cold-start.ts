/**
 * What an edit does when its language server is not up yet. A long-lived
 * host waits for it (up to the timeout): its process keeps the server for
 * every later call. A one-shot command must not hold a person for the
 * seconds a cold start takes: in the engine the server starts in the
 * background for the next command ("background"); in a process about to
 * exit, starting it would be wasted ("skip"). Either way the result says
 * the change was not type-checked, and how to wait for it.
 */

import { loud, type ValidationOutcome } from "./outcomes.js";
import type { ServerRegistry } from "./registry.js";
import type { Language, Launch, ServerSpec } from "./servers.js";
import { uncertain } from "./verdict.js";

export type ColdStart = "wait" | "background" | "skip";

/** The outcome of not waiting for a server that is not ready; undefined when it is up or the caller waits. */
export function notWaiting(
  policy: ColdStart,
  registry: ServerRegistry,
  root: string,
  server: { spec: ServerSpec; launch?: Launch; language: Language },
): ValidationOutcome | undefined {
  if (policy === "wait") return undefined;
  const { spec, launch, language } = server;
  const { status } = registry.state(root, spec);
  if (status === "ready" || status === "indexing") return undefined;
  if (status === "unavailable") return undefined; // waiting costs nothing: it says why at once
  const starting = policy === "background";
  if (starting) registry.acquire(root, spec, launch).catch(() => {});
  return loud(
    uncertain(
      starting
        ? `This change was not type-checked: ${spec.name} is starting for ${language.label} (a first start takes seconds).`
        : `This change was not type-checked: ${spec.name} is not running, and this command does not wait for it to start.`,
      starting
        ? `The next edit gets its verdict once it is up (splice lsp-health shows when); --validate waits for it now.`
        : `--validate waits for it; the engine (splice engine status) keeps it running between commands.`,
      { server: spec.name },
    ),
  );
}
