/**
 * The one HTTP server every fake provider runs on: 127.0.0.1, a free port,
 * JSON bodies parsed, every request logged (method, path, body) so a run
 * that goes wrong can be read back, and SSE written the way the real APIs
 * frame it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface LoggedRequest {
  method: string;
  path: string;
  body: unknown;
}

export interface FakeServer {
  /** http://127.0.0.1:PORT, no trailing slash. */
  url: string;
  requests: LoggedRequest[];
  close(): Promise<void>;
}

export type Handler = (request: LoggedRequest, url: URL, res: ServerResponse) => void;

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function startFakeServer(handler: Handler): Promise<FakeServer> {
  const requests: LoggedRequest[] = [];
  const server = createServer((req, res) => {
    readBody(req).then(
      (body) => {
        const url = new URL(req.url ?? "/", "http://127.0.0.1");
        const request = { method: req.method ?? "GET", path: url.pathname, body };
        requests.push(request);
        try {
          handler(request, url, res);
        } catch (error) {
          sendJson(res, 500, { error: { message: String(error) } });
        }
      },
      (error) => sendJson(res, 400, { error: { message: String(error) } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Writes events as one SSE response; `event` lines only when the API names its events. */
export function sendEvents(
  res: ServerResponse,
  events: readonly { event?: string; data: unknown }[],
): void {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  for (const { event, data } of events) {
    res.write(`${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`);
  }
  res.end();
}
