import { defineCommand } from "../define.js";

/** How long a stopped server may wait for its aborted calls before it exits anyway. */
const SERVE_EXIT_MS = 5_000;

export const serve = defineCommand({
  name: "serve",
  summary: "run the MCP server (stdio, or Streamable HTTP with --http PORT)",
  usage:
    "[--tools full|coding|minimal] [--descriptions short|full] [--output-budget BYTES] [--roots-within DIR] [--structured] [--no-watch] [--http PORT [--host HOST] [--token T] [--session-idle S]]",
  description: `Runs splice's tools as an MCP server. Over stdio by default (for a client that
starts it); with --http, over Streamable HTTP at http://HOST:PORT/mcp. Each
connection gets its own history session. When the client offers roots, its
roots replace --root (where paths resolve); --roots-within DIR keeps them
inside DIR (pass the --root folder to never go beyond it). Logs go to stderr. Stops on
SIGINT/SIGTERM, or on stdio when the client closes stdin.

A result's text is what the model reads; its JSON travels under
_meta["splice/result"]. --structured sends the JSON as structuredContent
instead, for clients that are programs: Claude Code and Codex show a model
structuredContent in place of the text. A result's text is at most 24,000
bytes (--output-budget), what Claude Code, Codex and Gemini CLI all pass to
their models whole; a longer one stops there and ends with how to see the rest.

A file is replaced only once the version it replaces is fsynced into the
history kept for undo; the new bytes are fsynced in the background and before
the server stops. SPLICE_DURABLE=full fsyncs everything before a call returns;
SPLICE_DURABLE=0 never fsyncs (still atomic; a power loss may take the last
writes and their backups).`,
  flags: {
    tools: {
      type: "string",
      valueName: "SET",
      description:
        '"full" (default: every tool), "coding" (read, outline, search, list, edit, patch, write, run, undo) or "minimal" (the few tools small models handle best)',
    },
    descriptions: {
      type: "string",
      valueName: "STYLE",
      description:
        '"short" (default: what each tool does and one example; the help tool gives a manual) or "full" (every manual, sent with each request)',
    },
    "output-budget": {
      type: "string",
      valueName: "BYTES",
      description:
        "the most text one result shows the model (default 24000, what every client measured passes whole); raise it for a client that passes more",
    },
    "roots-within": {
      type: "string",
      valueName: "DIR",
      description:
        "keep the client's roots inside DIR: one that holds DIR is narrowed to it, one elsewhere ignored",
    },
    structured: {
      type: "boolean",
      description:
        "send each result's JSON as structuredContent (models in Claude Code and Codex then read JSON)",
    },
    "no-watch": {
      type: "boolean",
      description:
        "do not watch the root for changes made outside splice (they are then neither kept in history nor told)",
    },
    http: {
      type: "string",
      valueName: "PORT",
      description: "serve over HTTP on PORT (0 picks a free one) instead of stdio",
    },
    host: {
      type: "string",
      valueName: "HOST",
      description:
        "address to bind (default 127.0.0.1; requests must name this host, localhost or 127.0.0.1 in Host, and a localhost Origin)",
    },
    token: {
      type: "string",
      valueName: "T",
      description:
        'require "Authorization: Bearer T" (or set SPLICE_TOKEN, which ps does not show); never printed',
      secret: true,
    },
    "session-idle": {
      type: "string",
      valueName: "S",
      description:
        "close an HTTP session no request used for S seconds (default 1800; 0: only on DELETE)",
    },
  },
  json: false,
  examples: [
    "splice serve --root ~/src/app",
    'splice serve --http 3000 --token "$(openssl rand -hex 16)"',
  ],
  // Stopping the server aborted its calls (a run's processes get SIGTERM, SIGKILL 2 s later);
  // one that ignores the abort must not keep a stopped server alive.
  exitGraceMs: SERVE_EXIT_MS,
  async run({ root, remotes, flags }) {
    // The MCP SDK (with ajv) loads only for serve: the other commands start without it.
    const { serveCommand } = await import("../serve.js");
    return serveCommand(root, flags, remotes);
  },
});
