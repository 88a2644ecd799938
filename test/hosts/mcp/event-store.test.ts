import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { MAX_EVENTS, SessionEventStore } from "../../../src/hosts/mcp/event-store.js";

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { progressToken: 1, progress: n },
});

async function replay(store: SessionEventStore, after: string) {
  const sent: [string, JSONRPCMessage][] = [];
  const stream = await store.replayEventsAfter(after, {
    send: async (id, message) => {
      sent.push([id, message]);
    },
  });
  return { stream, sent };
}

describe("SessionEventStore", () => {
  it("replays a stream's events after the last one seen, without priming events", async () => {
    const store = new SessionEventStore();
    const prime = await store.storeEvent("a", {} as JSONRPCMessage);
    const one = await store.storeEvent("a", note(1));
    await store.storeEvent("b", note(99));
    const two = await store.storeEvent("a", note(2));
    expect(await store.getStreamIdForEventId(two)).toBe("a");
    expect(await replay(store, prime)).toEqual({
      stream: "a",
      sent: [
        [one, note(1)],
        [two, note(2)],
      ],
    });
    expect(await replay(store, "404")).toEqual({ stream: "", sent: [] });
  });

  it("keeps at most MAX_EVENTS, dropping the oldest", async () => {
    const store = new SessionEventStore();
    const first = await store.storeEvent("a", note(0));
    for (let i = 1; i <= MAX_EVENTS; i++) await store.storeEvent("a", note(i));
    expect(store.size).toBe(MAX_EVENTS);
    expect(await store.getStreamIdForEventId(first)).toBeUndefined();
  });
});
