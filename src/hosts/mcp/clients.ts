/**
 * What splice knows of an MCP client from measuring it headless (bench/clients,
 * `npm run bench -- clients`), told apart by the name its `initialize` sends
 * in clientInfo. Only what changes the result shape a model gets lives here;
 * an unknown client gets the defaults every measured client reads right.
 */

export interface ClientTraits {
  /**
   * The client hands its model an `isError` result whole, as JSON: Gemini CLI
   * writes "MCP tool 'edit' reported tool error … with response: [raw
   * result]", so a JSON copy in `_meta` or `structuredContent` would be read
   * as well as the text, the message twice. Its errors carry the text alone.
   */
  errorsAsRawJson: boolean;
}

const DEFAULTS: ClientTraits = { errorsAsRawJson: false };

/** clientInfo.name → its traits; names as each pinned client sends them. */
const KNOWN: Record<string, Partial<ClientTraits>> = {
  // Gemini CLI 0.61.0, DiscoveredMCPToolInvocation.execute.
  "gemini-cli-mcp-client": { errorsAsRawJson: true },
};

export function traitsOf(clientName: string | undefined): ClientTraits {
  const known = clientName === undefined ? undefined : KNOWN[clientName];
  return known ? { ...DEFAULTS, ...known } : DEFAULTS;
}
