/**
 * The JSON-RPC initialize request an MCP client sends first, for the tests and
 * benchmarks that speak to a server raw (no SDK), to set headers or count bytes.
 */
export function initializeRequest(client = "raw") {
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: client, version: "1" },
    },
  };
}
