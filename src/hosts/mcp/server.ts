/**
 * The MCP host: splice's tools over the Model Context Protocol. One server
 * object serves one connection, with its own history session, so one agent's
 * reads never vouch for another agent's edits. It only translates: tools and
 * schemas out, calls in, results and errors back.
 *
 * Errors follow the 2025-11-25 spec ("Error Handling" in server/tools): an
 * unknown tool is a protocol error (-32602); arguments that fail validation
 * and every failure inside a tool are `isError` results, because those carry
 * a sentence the model can act on and clients pass them to the model.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestParamsSchema,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListRootsResultSchema,
  ListToolsRequestSchema,
  type LoggingLevel,
  LoggingLevelSchema,
  type Tool as McpTool,
  type RequestId,
  RootsListChangedNotificationSchema,
  type ServerNotification,
  type ServerRequest,
  SetLevelRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { isToolError } from "../../errors.js";
import {
  buildIndexInBackground,
  outsideLine,
  RootSet,
  type Tool,
  type ToolkitOptions,
} from "../../toolkit/index.js";
import { VERSION } from "../../util/version.js";
import { toolJsonSchema } from "../json-schema.js";
import { instructionsFor } from "./instructions.js";
import { progressSender } from "./progress.js";
import { errorResult, successResult } from "./result.js";
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

/** Log levels from least to most severe, as the spec orders them. */
const SEVERITY: readonly LoggingLevel[] = LoggingLevelSchema.options;

/** A client that never answers roots/list must not hold calls up for the SDK's default minute. */
const ROOTS_TIMEOUT_MS = 10_000;

/** Where a call's `arguments` travel when they are not an object. */
const GIVEN = Symbol("arguments as given");

/**
 * tools/call with `arguments` of any type, or none. The SDK answers a JSON
 * string or null there with a protocol error holding a raw zod dump; splice
 * takes the JSON text of an object, and answers anything else with a sentence
 * (define.ts argumentsObject). Missing `arguments` are `{}`: the spec makes
 * them optional. What is not an object is set aside under GIVEN, so the SDK's
 * own check of the request, which runs on this schema's output, passes.
 */
const LooseCallToolRequestSchema = CallToolRequestSchema.extend({
  params: CallToolRequestParamsSchema.extend({ arguments: z.unknown().optional() }).transform(
    ({ arguments: given, ...params }) => {
      const args = given === undefined ? {} : given;
      const object = typeof args === "object" && args !== null && !Array.isArray(args);
      return {
        ...params,
        arguments: object ? (args as Record<string, unknown>) : undefined,
        [GIVEN]: args,
      };
    },
  ),
});

/**
 * A JSON-RPC error for the SDK to send. Not McpError: its message already
 * reads "MCP error -32602: …", and the client's McpError adds that again.
 */
function protocolError(code: ErrorCode, message: string): Error {
  return Object.assign(new Error(message), { code });
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
  let server: Server | undefined;
  /** A diagnostic for stderr, and for the client as a log message once it is connected. */
  /** The least severe level the client wants to hear (logging/setLevel); all until it says. */
  let wanted: LoggingLevel = "debug";
  /** The call a diagnostic happens in: over HTTP its message rides on that call's stream. */
  const inCall = new AsyncLocalStorage<RequestId>();
  const tell = (level: LoggingLevel, line: string) => {
    log(line);
    if (!server?.transport || SEVERITY.indexOf(level) < SEVERITY.indexOf(wanted)) return;
    const relatedRequestId = inCall.getStore();
    server
      .notification(
        { method: "notifications/message", params: { level, logger: "splice", data: line } },
        relatedRequestId === undefined ? {} : { relatedRequestId },
      )
      .catch(() => {});
  };
  const within = rootsBound(root, rootsWithin);
  /** The client's name from initialize: its changes carry it, so a person sees who made them. */
  let client: string | undefined;
  const named = (set: RootSet) => {
    if (client) for (const toolkit of set.toolkits) toolkit.context.history.nameClient(client);
    return set;
  };
  /**
   * Changes made outside splice reach the client as a log message: clients
   * show those (resources/updated would need resources the client subscribed to).
   */
  let lastSet: RootSet | undefined;
  const watched = (set: RootSet) => {
    // Roots the client replaced are watched no longer (a call still running there walks instead).
    for (const toolkit of lastSet?.toolkits ?? []) void toolkit.close();
    lastSet = set;
    for (const toolkit of set.toolkits) {
      toolkit.events.on((event) => {
        if (event.type === "outside_changes") tell("notice", outsideLine(toolkit.root, event));
      });
      void toolkit.watching().then((why) => {
        if (why && toolkitOptions.watch) tell("warning", `not watching ${toolkit.root}: ${why}`);
      });
    }
    return set;
  };
  const roots = new ClientRoots(
    (paths) =>
      watched(named(new RootSet(paths, { ...toolkitOptions, history: { ...history, session } }))),
    root,
    tell,
    within,
  );

  server = new Server(
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

  server.setRequestHandler(SetLevelRequestSchema, (request) => {
    wanted = request.params.level;
    return {};
  });

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: roots.known.tools.map(listing),
  }));

  const running = new Set<Promise<unknown>>();
  server.setRequestHandler(LooseCallToolRequestSchema, (request, extra) =>
    inCall.run(extra.requestId, () => answer(request, extra)),
  );
  const answer = async (
    request: z.output<typeof LooseCallToolRequestSchema>,
    extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  ): Promise<CallToolResult> => {
    const { name, [GIVEN]: args } = request.params;
    const ask = () =>
      extra.sendRequest({ method: "roots/list" }, ListRootsResultSchema, {
        timeout: ROOTS_TIMEOUT_MS,
      });
    const token = request.params._meta?.progressToken;
    const progress =
      token === undefined
        ? undefined
        : progressSender(token, (params) =>
            extra.sendNotification({ method: "notifications/progress", params }),
          );
    // The SDK aborts extra.signal when the client cancels the call or the connection closes.
    const options = { signal: extra.signal, ...(progress && { onProgress: progress.listener }) };
    const pending = roots.current(ask).then((set) => set.call(name, args, options));
    running.add(pending);
    try {
      const result = await pending;
      await progress?.finish();
      return successResult(name, result, { structured });
    } catch (error) {
      if (isToolError(error) && error.code === "unknown_tool") {
        throw protocolError(ErrorCode.InvalidParams, error.message);
      }
      // A cancelled call's answer is never sent; its abort error is no failure.
      if (extra.signal.aborted) tell("info", `${name} stopped: cancelled or the connection closed`);
      else if (!isToolError(error)) {
        tell("error", `${name} failed: ${error instanceof Error ? error.stack : String(error)}`);
      }
      await progress?.finish();
      return errorResult(name, error, { structured });
    } finally {
      running.delete(pending);
    }
  };

  // A remote root is not replaced by the client's roots: those are folders of the client's machine.
  const remoteRoot = () => roots.known.toolkits.some((t) => t.context.guard.host !== undefined);
  const followRoots = () => {
    if (clientRoots && !remoteRoot() && server.getClientCapabilities()?.roots) roots.markStale();
  };
  // The symbol index fills once the client is connected, a few files at a time, paused during calls.
  let indexing = false;
  const indexInBackground = () => {
    const toolkit = roots.known.toolkits[0];
    // A remote root is not indexed ahead: every file would be a round trip.
    if (indexing || !toolkit || toolkit.context.guard.host) return;
    indexing = true;
    const build = () =>
      buildIndexInBackground(
        { ...toolkit.context, backup: "index" },
        { busy: () => running.size > 0, stopped: () => !server?.transport },
      ).catch(() => {});
    setTimeout(build, 200).unref();
  };
  server.oninitialized = () => {
    client = server?.getClientVersion()?.name;
    named(roots.known);
    followRoots();
    indexInBackground();
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, followRoots);

  return {
    server,
    session,
    roots: () => roots.known.roots,
    maxMessageBytes: 2 * roots.known.toolkits[0]!.context.limits.maxFileBytes,
    release: async () => {
      await Promise.all((lastSet ?? roots.known).toolkits.map((t) => t.close()));
    },
    idle: async () => {
      while (running.size > 0) await Promise.allSettled(running);
      // The SDK sends an answer a few promise turns after the handler returns.
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

/**
 * Serves one client over stdin/stdout until stdin ends, the client
 * disconnects or `signal` aborts.
 */
export async function serveStdio(options: McpServerOptions, signal?: AbortSignal): Promise<void> {
  const mcp = createMcpServer(options);
  const { server } = mcp;
  const transport = new LineTransport(mcp.maxMessageBytes);
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  const stop = () => void server.close();
  // A client that closes stdin may still read the answers to calls it sent:
  // finish those (an edit half-way is better completed than abandoned).
  const drain = () => void mcp.idle().then(stop);
  // The SDK's transport notices neither a closed stdin nor a reader that
  // went away (EPIPE on stdout).
  process.stdin.once("end", drain);
  process.stdin.once("close", drain);
  process.stdout.once("error", stop);
  signal?.addEventListener("abort", stop, { once: true });
  await server.connect(transport);
  options.log?.(`serving over stdio; root ${options.root ?? process.cwd()}`);
  await closed;
  await mcp.release();
  process.stdin.off("end", drain);
  process.stdin.off("close", drain);
  process.stdout.off("error", stop);
  signal?.removeEventListener("abort", stop);
}
