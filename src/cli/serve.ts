/**
 * `splice serve`: the MCP server, over stdio (default) or Streamable HTTP
 * (`--http PORT`). Runs until SIGINT/SIGTERM, which cancel the calls still
 * running, or on stdio until the client closes stdin. Everything it says goes to stderr: on stdio, stdout is the
 * protocol.
 */
import { Writable } from "node:stream";
import { isToolError } from "../errors.js";
import { serveHttp } from "../hosts/mcp/http.js";
import { type McpServerOptions, type StdioStreams, serveStdio } from "../hosts/mcp/server.js";
import { type DescriptionStyle, TOOL_PROFILES, type ToolProfile } from "../index.js";
import { newReviewToken } from "../review/guard.js";
import { reviewRoutes, reviewToolkit, reviewUrl } from "../review/server.js";
import { MIN_OUTPUT_BUDGET } from "../toolkit/index.js";
import { flushBackground, syncStats } from "../util/durable.js";
import type { Remotes } from "../workspace/remote/hosts.js";
import { io, type Out } from "./io.js";
import { keepServing } from "./last-resort.js";

interface Flags {
  tools?: string;
  descriptions?: string;
  "output-budget"?: string;
  http?: string;
  host?: string;
  token?: string;
  structured?: boolean;
  "session-idle"?: string;
  "roots-within"?: string;
  "no-watch"?: boolean;
}

/** Why the port could not be opened: in use, privileged, or an address this machine does not have. */
const LISTEN_ERRORS = new Set(["EADDRINUSE", "EACCES", "EADDRNOTAVAIL"]);

type Log = (line: string) => void;

/** What a server says goes to the stderr of whoever started it (taken once: it speaks from callbacks too). */
const loggerTo =
  (stderr: Out): Log =>
  (line) =>
    stderr.write(`splice serve: ${line}\n`);

function usage(log: Log, message: string): number {
  log(`${message}\nSee: splice serve --help`);
  return 2;
}

/** Stdio as the protocol's streams: a client's in the engine, where stdout is a function. */
function stdioStreams(): StdioStreams {
  const { stdin, stdout } = io();
  const out = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      stdout.write(chunk.toString());
      done();
    },
  });
  return { stdin, stdout: stdout === process.stdout ? process.stdout : out };
}

/**
 * Relaxed durability flushes the new bytes in the background: the server
 * stops only once they are on the disk. SPLICE_SYNC_STATS=1 logs how often a
 * write still waited for an fsync (the hosts benchmark reads it).
 */
async function flushed(log: Log): Promise<void> {
  try {
    await flushBackground();
  } catch (error) {
    log(
      `the last writes may not be on the disk: an fsync failed (${(error as Error).message}); the files are in place, but a power loss now could take the newest of them.`,
    );
  }
  if (io().env.SPLICE_SYNC_STATS === "1") log(`sync stats ${JSON.stringify(syncStats)}`);
}

/** Resolves on the first SIGINT or SIGTERM. */
function untilSignal(controller: AbortController, log: Log): () => void {
  const stop = (signal: string) => {
    log(`${signal}: shutting down`);
    controller.abort();
  };
  const onTerm = () => stop("SIGTERM");
  // Ctrl-C is the client's (in the engine, its client's); SIGTERM only this process's own.
  io().onInterrupt(stop);
  if (io().warm) return () => {};
  process.once("SIGTERM", onTerm);
  return () => process.off("SIGTERM", onTerm);
}

/** Serves MCP over HTTP with the review page beside it, until `signal`; the exit code. */
async function serveOverHttp(
  options: McpServerOptions & { root: string },
  flags: Flags,
  token: string | undefined,
  signal: AbortSignal,
  log: Log,
): Promise<number> {
  const { host } = flags;
  const port = Number(flags.http);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    return usage(log, "--http needs a port number, e.g. --http 3000 (0 picks a free port).");
  }
  const idle = flags["session-idle"];
  const seconds = idle === undefined ? undefined : Number(idle);
  if (seconds !== undefined && !(Number.isFinite(seconds) && seconds >= 0 && idle?.trim())) {
    return usage(
      log,
      "--session-idle needs a number of seconds, e.g. --session-idle 600 (0: never).",
    );
  }
  const sessionIdleMs = seconds === undefined ? {} : { sessionIdleMs: seconds * 1000 };
  // The review page at /review, behind the serve token (or one made for this start).
  const pageToken = token ?? newReviewToken();
  const review = reviewToolkit(options.root);
  const routes = reviewRoutes(review, pageToken);
  // Every MCP connection's changes reach the page through its toolkit's events, at once.
  const server = await serveHttp({
    ...options,
    listeners: [routes.hear],
    port,
    host,
    token,
    routes,
    ...sessionIdleMs,
  });
  const page = reviewUrl(host ?? "127.0.0.1", server.port, pageToken);
  // The person's own token is never printed: clients and supervisors keep stderr in their logs.
  // A token made for this start guards only the page, which an open /mcp already grants.
  log(
    token === undefined
      ? `review page at ${page}`
      : `review page at ${page.replace(/\?token=.*$/, "?token=<token>")} (<token>: the serve token, --token or SPLICE_TOKEN)`,
  );
  await new Promise((resolve) => signal.addEventListener("abort", resolve));
  await server.close();
  // The review toolkit's writes are flushed with every other toolkit's (one process-wide flush).
  await flushed(log);
  return 0;
}

export async function serveCommand(
  root: string,
  flags: Flags,
  remotes: Remotes = {},
): Promise<number> {
  const log = loggerTo(io().stderr);
  const tools = (flags.tools ?? "full") as ToolProfile;
  if (!TOOL_PROFILES.includes(tools)) {
    const names = TOOL_PROFILES.map((p) => `"${p}"`).join(", ");
    return usage(log, `--tools must be one of ${names}, not "${tools}".`);
  }
  const descriptions = (flags.descriptions ?? "short") as DescriptionStyle;
  if (descriptions !== "short" && descriptions !== "full") {
    return usage(log, `--descriptions must be "short" or "full", not "${descriptions}".`);
  }
  const budget = flags["output-budget"];
  const outputBudget = budget === undefined ? undefined : Number(budget);
  if (
    outputBudget !== undefined &&
    !(Number.isSafeInteger(outputBudget) && outputBudget >= MIN_OUTPUT_BUDGET)
  ) {
    return usage(
      log,
      `--output-budget must be a whole number of bytes, at least ${MIN_OUTPUT_BUDGET}, not "${budget}".`,
    );
  }
  const token = flags.token ?? io().env.SPLICE_TOKEN;
  if (token !== undefined && token.trim() === "") return usage(log, "the token is empty.");
  const { host } = flags;
  const within = flags["roots-within"];
  const options = {
    root,
    remotes,
    tools,
    descriptions,
    ...(outputBudget === undefined ? {} : { outputBudget }),
    log,
    structured: flags.structured === true,
    // The serve token is the clients'; a command the model runs has no use for it.
    hiddenEnv: ["SPLICE_TOKEN"] as string[],
    watch: flags["no-watch"] !== true,
    ...(within === undefined ? {} : { rootsWithin: within }),
  } as const;

  const controller = new AbortController();
  const forget = untilSignal(controller, log);
  // In the engine, the engine's own last resort serves every client (cli/engine-process.ts).
  const lastResort = io().warm ? () => {} : keepServing(log);
  try {
    if (flags.http === undefined) {
      if (host !== undefined || flags.token !== undefined || flags["session-idle"] !== undefined) {
        return usage(log, "--host, --token and --session-idle apply to --http only.");
      }
      await serveStdio(options, controller.signal, stdioStreams());
      await flushed(log);
      return 0;
    }
    return await serveOverHttp(options, flags, token, controller.signal, log);
  } catch (error) {
    // A root that does not exist, a port in use, a host that is not this machine: say so, without a stack.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTFOUND" || code === "EAI_AGAIN") {
      log(
        `--host ${host} does not resolve (${code}); pass a name or address of this machine, e.g. 127.0.0.1.`,
      );
      return 1;
    }
    if (!isToolError(error) && !LISTEN_ERRORS.has(code ?? "")) throw error;
    log((error as Error).message);
    return 1;
  } finally {
    forget();
    lastResort();
  }
}
