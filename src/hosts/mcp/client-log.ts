/**
 * A server's diagnostics: each goes to `log` (stderr), and to the client as
 * a log message once it is connected and wants that level. Over HTTP a
 * message said during a call rides on that call's stream.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  type LoggingLevel,
  LoggingLevelSchema,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";

/** Log levels from least to most severe, as the spec orders them. */
const SEVERITY: readonly LoggingLevel[] = LoggingLevelSchema.options;

/**
 * The call running now and whose log it belongs to, one storage for every
 * connection: Node copies each storage into every promise the process makes,
 * so one per connection made every call's work grow with the sessions open
 * (and never shrink: a storage once run stays in that list).
 */
const inCall = new AsyncLocalStorage<{ log: ClientLog; id: RequestId }>();

export class ClientLog {
  /** The least severe level the client wants to hear (logging/setLevel); all until it says. */
  wanted: LoggingLevel = "debug";
  readonly #log: (line: string) => void;
  #server: Server | undefined;

  constructor(log: (line: string) => void) {
    this.#log = log;
  }

  /** The server whose client hears the messages from now on. */
  attach(server: Server): void {
    this.#server = server;
  }

  /** Runs `fn` as part of call `id`: what it tells rides on that call's stream. */
  within<T>(id: RequestId, fn: () => T): T {
    return inCall.run({ log: this, id }, fn);
  }

  readonly tell = (level: LoggingLevel, line: string): void => {
    this.#log(line);
    const server = this.#server;
    if (!server?.transport || SEVERITY.indexOf(level) < SEVERITY.indexOf(this.wanted)) return;
    const call = inCall.getStore();
    // Another connection's call (a shared root's event told here) rides on no stream of this one.
    const relatedRequestId = call?.log === this ? call.id : undefined;
    server
      .notification(
        { method: "notifications/message", params: { level, logger: "splice", data: line } },
        relatedRequestId === undefined ? {} : { relatedRequestId },
      )
      .catch(() => {});
  };
}
