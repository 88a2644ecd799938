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

export class ClientLog {
  /** The least severe level the client wants to hear (logging/setLevel); all until it says. */
  wanted: LoggingLevel = "debug";
  readonly #log: (line: string) => void;
  readonly #inCall = new AsyncLocalStorage<RequestId>();
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
    return this.#inCall.run(id, fn);
  }

  readonly tell = (level: LoggingLevel, line: string): void => {
    this.#log(line);
    const server = this.#server;
    if (!server?.transport || SEVERITY.indexOf(level) < SEVERITY.indexOf(this.wanted)) return;
    const relatedRequestId = this.#inCall.getStore();
    server
      .notification(
        { method: "notifications/message", params: { level, logger: "splice", data: line } },
        relatedRequestId === undefined ? {} : { relatedRequestId },
      )
      .catch(() => {});
  };
}
