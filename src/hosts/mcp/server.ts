/**
 * The MCP host: splice's tools over the Model Context Protocol. One server
 * object serves one connection, with its own history session, so one agent's
 * reads never vouch for another agent's edits. It only translates: tools and
 * schemas out, calls in (call.ts), results and errors back; the toolkit's
 * HostSession keeps the connection's roots, watches, index and client name.
 */
import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  ListToolsRequestSchema,
  type Tool as McpTool,
  RootsListChangedNotificationSchema,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { HostSession, type Tool, type ToolkitOptions } from "../../toolkit/index.js";
import { VERSION } from "../../util/version.js";
import { toolJsonSchema } from "../json-schema.js";
import { answerCall, type CallDeps, LooseCallToolRequestSchema } from "./call.js";
import { ClientLog } from "./client-log.js";
import { traitsOf } from "./clients.js";
import { instructionsFor } from "./instructions.js";
import { ClientRoots, rootsBound } from "./roots.js";
import { LineTransport } from "./stdio.js";
import { titleOf } from "./titles.js";

export interface McpServerOptions extends Omit<ToolkitOptions, "root" | "history"> {
  /** Where paths resolve unless the client names its roots; default the current folder. */
  root?: string;
  history?: Omit<NonNullable<ToolkitOptions["history"]>, "session">;
  /**
   * Watch the roots for changes made outside splice and tell the client as
   * log messages (ToolkitOptions.watch); default false, on for `splice serve`.
   */
  watch?: boolean;
  /** Follow the client's roots when it offers them (MCP roots); default true. */
  clientRoots?: boolean;
  /**
   * Keep the client's roots inside this folder: a root that holds it is
   * narrowed to it, one elsewhere ignored. Default: none (the client decides).
   */
  rootsWithin?: string;
  /**
   * Send each result's JSON as `structuredContent` (default: under
   * `_meta["splice/result"]`, since Claude Code and Codex show a model the
   * structuredContent instead of the text whenever it is present).
   */
  structured?: boolean;
  /** Diagnostics, one line each. Never stdout: on stdio that is the protocol. */
  log?: (line: string) => void;
}

export interface SpliceMcpServer {
  /** The SDK server: connect it to one transport. */
  readonly server: Server;
  /** This connection's history session, `mcp-<uuid>`. */
  readonly session: string;
  /** The roots calls resolved against last; the first is where relative paths start. */
  roots(): string[];
  /** Settles when no call is running and every answer went to the transport. */
  idle(): Promise<void>;
  /** The largest message this server reads: twice the largest file, so any file fits JSON-escaped. */
  readonly maxMessageBytes: number;
  /** Stops the root watches and flushes; for when the connection closed. */
  release(): Promise<void>;
}

const listings = new WeakMap<Tool, McpTool>();

/** The tools/list entry; computed once per tool, since every connection lists the same tools. */
function listing(tool: Tool): McpTool {
  let entry = listings.get(tool);
  if (!entry) {
    const title = titleOf(tool.description, tool.name);
    entry = {
      name: tool.name,
      title,
      description: tool.description,
      inputSchema: toolJsonSchema(tool) as McpTool["inputSchema"],
      annotations: { title, ...tool.annotations },
    };
    listings.set(tool, entry);
  }
  return entry;
}

export function createMcpServer(options: McpServerOptions = {}): SpliceMcpServer {
  const {
    root = process.cwd(),
    clientRoots = true,
    rootsWithin,
    structured = false,
    log = () => {},
    history,
    ...toolkitOptions
  } = options;
  const session = `mcp-${randomUUID()}`;
  const within = rootsBound(root, rootsWithin);
  const clientLog = new ClientLog(log);
  const { tell } = clientLog;
  // Changes made outside splice reach the client as a log message: clients show those
  // (resources/updated would need resources the client subscribed to).
  const host = new HostSession({ ...toolkitOptions, history, session, tell });
  const roots = new ClientRoots((paths) => host.open(paths), root, tell, within);

  const server = new Server(
    { name: "splice", title: "splice", version: VERSION },
    {
      // logging: the client hears what stderr hears (roots followed or ignored, failures).
      capabilities: { tools: { listChanged: false }, logging: {} },
      instructions: instructionsFor(roots.known.tools),
    },
  );

  // Lines that are no JSON-RPC message, failed sends, stray responses: the SDK reports them only here.
  server.onerror = (error) => {
    tell("warning", `protocol error: ${error.message}`);
  };

  clientLog.attach(server);
  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    clientLog.wanted = request.params.level;
    return {};
  });

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: roots.known.tools.map(listing),
  }));

  const running = new Set<Promise<unknown>>();
  const idle = () => settled(running);
  const client = () => traitsOf(server.getClientVersion()?.name);
  const calls: CallDeps = { roots, structured, tell: clientLog.tell, client, running };
  server.setRequestHandler(LooseCallToolRequestSchema, (request, extra) =>
    clientLog.within(extra.requestId, () => answerCall(request, extra, calls)),
  );
  // A remote root is not replaced by the client's roots: those are folders of the client's machine.
  const followRoots = () => {
    const offered = server.getClientCapabilities()?.roots;
    if (clientRoots && !HostSession.remote(roots.known) && offered) roots.markStale();
  };
  server.oninitialized = () => {
    host.nameClient(server.getClientVersion()?.name, roots.known);
    followRoots();
    // The symbol index fills once the client is connected, paused during calls.
    host.indexInBackground(
      roots.known,
      () => running.size > 0,
      () => !server.transport,
    );
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, followRoots);

  return {
    server,
    session,
    roots: () => roots.known.roots,
    maxMessageBytes: HostSession.maxMessageBytes(roots.known),
    release: async () => {
      // Calls the closed connection aborted settle first (a bounded wait): they still use the roots.
      await Promise.race([idle(), new Promise((r) => setTimeout(r, SETTLE_MS).unref())]);
      await host.release(roots.known);
    },
    idle,
  };
}

/** Settles when no call is running and every answer went to the transport. */
async function settled(running: Set<Promise<unknown>>): Promise<void> {
  while (running.size > 0) await Promise.allSettled(running);
  // The SDK sends an answer a few promise turns after the handler returns.
  await new Promise((resolve) => setImmediate(resolve));
}

/** How long a closing connection waits for the calls it aborted to settle. */
const SETTLE_MS = 5_000;

/**
 * Serves one client over stdin/stdout until stdin ends, the client
 * disconnects or `signal` aborts.
 */
/** The streams a stdio server speaks over: this process's, or (in the engine) its client's. */
export interface StdioStreams {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
}

export async function serveStdio(
  options: McpServerOptions,
  signal?: AbortSignal,
  streams: StdioStreams = { stdin: process.stdin, stdout: process.stdout },
): Promise<void> {
  const mcp = createMcpServer(options);
  const { server } = mcp;
  const { stdin, stdout } = streams;
  const transport = new LineTransport(mcp.maxMessageBytes, stdin, stdout);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  const stop = () => void server.close();
  // A client that closes stdin may still read the answers to calls it sent:
  // finish those (an edit half-way is better completed than abandoned).
  const drain = () => void mcp.idle().then(stop);
  // The SDK's transport notices neither a closed stdin nor a reader that
  // went away (EPIPE on stdout).
  stdin.once("end", drain);
  stdin.once("close", drain);
  stdout.once("error", stop);
  signal?.addEventListener("abort", stop, { once: true });
  await server.connect(transport);
  options.log?.(`serving over stdio; root ${options.root ?? process.cwd()}`);
  await closed;
  await mcp.release();
  stdin.off("end", drain);
  stdin.off("close", drain);
  stdout.off("error", stop);
  signal?.removeEventListener("abort", stop);
}
