import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** Starts `server` on `host:port` (0 for a free port); resolves with the port, rejects on EADDRINUSE and the like. */
export function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
