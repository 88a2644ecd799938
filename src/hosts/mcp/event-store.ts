/**
 * The events of one HTTP session's SSE streams, kept so a client whose
 * stream broke can resume it (GET with Last-Event-ID) without losing an
 * answer: the 2025-11-25 resumability rules. With an event store the SDK
 * also primes every stream with an event id and the `retry` field. Bounded:
 * the oldest events go first past MAX_EVENTS or MAX_EVENT_BYTES, so an
 * abandoned session holds little until it expires.
 */
import type { EventStore } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export const MAX_EVENTS = 1000;
export const MAX_EVENT_BYTES = 16 * 1024 * 1024;

interface Stored {
  streamId: string;
  message: JSONRPCMessage;
  bytes: number;
}

export class SessionEventStore implements EventStore {
  /** In the order stored; ids grow, so a Map keeps them sorted. */
  readonly #events = new Map<string, Stored>();
  #next = 0;
  #bytes = 0;

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const id = `${++this.#next}`;
    const bytes = JSON.stringify(message).length;
    this.#events.set(id, { streamId, message, bytes });
    this.#bytes += bytes;
    for (const [old, event] of this.#events) {
      if (this.#events.size <= MAX_EVENTS && this.#bytes <= MAX_EVENT_BYTES) break;
      this.#events.delete(old);
      this.#bytes -= event.bytes;
    }
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.#events.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = this.#events.get(lastEventId);
    // An event already dropped cannot be resumed from: the SDK then answers with an error.
    if (!last) return "";
    const after = Number(lastEventId);
    for (const [id, event] of this.#events) {
      // A priming event holds no message ({}): nothing to send again.
      if (Number(id) <= after || event.streamId !== last.streamId) continue;
      if ("method" in event.message || "id" in event.message) await send(id, event.message);
    }
    return last.streamId;
  }

  get size(): number {
    return this.#events.size;
  }
}
