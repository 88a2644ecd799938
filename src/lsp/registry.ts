/**
 * Running language servers: started on first use, one per root and server,
 * kept warm between edits, started again after a crash (but not in a loop),
 * and stopped when the program exits — SIGKILL to each server's process group
 * from an `exit` handler, which runs synchronously even when the host never
 * calls shutdown.
 */
import { LspClient, LspExited, type Strategy } from "./client.js";
import { type Launch, runnable, type ServerSpec } from "./servers.js";

export type ServerStatus =
  | "not_started"
  | "starting"
  | "indexing"
  | "ready"
  | "crashed"
  | "unavailable";

export interface RegistryOptions {
  /** How long a server may take to answer `initialize`. */
  startTimeoutMs?: number;
  /** Push servers: quiet time after the last publish. */
  settleMs?: number;
}

/** Crashes within CRASH_WINDOW_MS that stop automatic restarts. */
const MAX_CRASHES = 3;
const CRASH_WINDOW_MS = 60_000;

/** No usable server: not installed, or it could not start. */
export class ServerUnavailable extends Error {
  constructor(
    readonly reason: "missing" | "failed" | "crashing",
    message: string,
  ) {
    super(message);
    this.name = "ServerUnavailable";
  }
}

interface Entry {
  root: string;
  spec: ServerSpec;
  launch?: Launch;
  client?: LspClient;
  starting?: Promise<LspClient>;
  failed?: ServerUnavailable;
  crashes: number[];
  restarts: number;
  lastLatencyMs?: number;
  coldStartMs?: number;
  lastError?: string;
}

export interface ServerState {
  status: ServerStatus;
  /** What the running server calls itself, with its version. */
  server_info?: string;
  pid?: number;
  uptime_ms?: number;
  strategy?: Strategy;
  restarts: number;
  cold_start_ms?: number;
  last_validation_ms?: number;
  error?: string;
}

export class ServerRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly startTimeoutMs: number;
  private readonly settleMs: number;
  private hooked = false;
  private readonly onProcessExit = () => this.killAll();

  constructor(options: RegistryOptions = {}) {
    this.startTimeoutMs = options.startTimeoutMs ?? 30_000;
    this.settleMs = options.settleMs ?? 300;
  }

  private entry(root: string, spec: ServerSpec, launch?: Launch): Entry {
    const key = `${root}\u0000${spec.name}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { root, spec, launch, crashes: [], restarts: 0 };
      this.entries.set(key, entry);
    }
    if (launch) entry.launch = launch;
    return entry;
  }

  /**
   * The running server for a root, started (or started again after a crash)
   * when needed. Throws ServerUnavailable when there is no usable server.
   */
  acquire(root: string, spec: ServerSpec, launch?: Launch): Promise<LspClient> {
    const entry = this.entry(root, spec, launch);
    if (entry.client && !entry.client.exited) return Promise.resolve(entry.client);
    if (entry.starting) return entry.starting;
    if (entry.failed) return Promise.reject(entry.failed);
    const now = Date.now();
    entry.crashes = entry.crashes.filter((t) => now - t < CRASH_WINDOW_MS);
    if (entry.crashes.length >= MAX_CRASHES) {
      return Promise.reject(
        new ServerUnavailable(
          "crashing",
          `${spec.name} crashed ${entry.crashes.length} times in a minute (${entry.lastError ?? "no reason given"}), so splice stopped restarting it.`,
        ),
      );
    }
    return this.start(entry);
  }

  private start(entry: Entry): Promise<LspClient> {
    const { spec } = entry;
    const launch = entry.launch ?? spec.resolve();
    if (!launch || !runnable(launch.command)) {
      const what = launch ? `${launch.command} was not found` : `${spec.name} is not installed`;
      entry.failed = new ServerUnavailable("missing", `${what}.`);
      return Promise.reject(entry.failed);
    }
    this.hook();
    if (entry.client) entry.restarts++;
    const begun = Date.now();
    const starting = LspClient.start(
      {
        root: entry.root,
        launch,
        initializationOptions: spec.initializationOptions,
        settings: spec.settings,
        settleMs: this.settleMs,
        onExit: (client) => this.exited(entry, client),
      },
      begun + this.startTimeoutMs,
    ).then(
      (client) => {
        entry.client = client;
        entry.starting = undefined;
        entry.coldStartMs ??= Date.now() - begun;
        return client;
      },
      (error: unknown) => {
        entry.starting = undefined;
        const message = error instanceof Error ? error.message : String(error);
        entry.lastError = message;
        if (error instanceof LspExited || (error as { code?: string }).code === "ENOENT") {
          // It ran and died before answering: as good as not installed.
          entry.failed = new ServerUnavailable(
            "failed",
            `${spec.name} failed to start: ${message}`,
          );
          throw entry.failed;
        }
        throw error;
      },
    );
    entry.starting = starting;
    return starting;
  }

  private exited(entry: Entry, client: LspClient): void {
    if (entry.client !== client) return;
    entry.crashes.push(Date.now());
    entry.lastError = client.exitReason || "exited";
  }

  /** Stops a server (if running) and starts it again, forgetting earlier failures. */
  async restart(root: string, spec: ServerSpec, launch?: Launch): Promise<LspClient> {
    const entry = this.entry(root, spec, launch);
    const old = entry.client ?? (await entry.starting?.catch(() => undefined));
    entry.client = undefined;
    entry.failed = undefined;
    entry.crashes = [];
    if (old) {
      await old.shutdown(500);
      entry.restarts++;
    }
    return this.acquire(root, spec, launch);
  }

  recordLatency(root: string, spec: ServerSpec, ms: number): void {
    this.entry(root, spec).lastLatencyMs = Math.round(ms);
  }

  state(root: string, spec: ServerSpec): ServerState {
    const entry = this.entries.get(`${root}\u0000${spec.name}`);
    if (!entry) return { status: "not_started", restarts: 0 };
    const common = {
      restarts: entry.restarts,
      ...(entry.coldStartMs === undefined ? {} : { cold_start_ms: entry.coldStartMs }),
      ...(entry.lastLatencyMs === undefined ? {} : { last_validation_ms: entry.lastLatencyMs }),
    };
    const { client } = entry;
    if (entry.starting) return { status: "starting", ...common };
    if (client && !client.exited) {
      return {
        status: client.busy ? "indexing" : "ready",
        ...(client.serverInfo ? { server_info: client.serverInfo } : {}),
        ...(client.pid === undefined ? {} : { pid: client.pid }),
        uptime_ms: Date.now() - client.startedAt,
        strategy: client.strategy,
        ...common,
      };
    }
    const error = entry.failed?.message ?? entry.lastError;
    const status = entry.failed ? "unavailable" : client ? "crashed" : "not_started";
    return { status, ...common, ...(error ? { error } : {}) };
  }

  private hook(): void {
    if (this.hooked) return;
    this.hooked = true;
    process.on("exit", this.onProcessExit);
  }

  /** Kills every server at once (synchronous; for exit handlers). */
  killAll(): void {
    for (const entry of this.entries.values()) entry.client?.kill();
  }

  /** Asks every server to shut down, then kills what is left. */
  async shutdown(): Promise<void> {
    const clients = [...this.entries.values()].map(async (entry) => {
      const client = entry.client ?? (await entry.starting?.catch(() => undefined));
      entry.client = undefined;
      await client?.shutdown(500);
    });
    await Promise.all(clients);
    this.entries.clear();
    if (this.hooked) process.off("exit", this.onProcessExit);
    this.hooked = false;
  }
}

let shared: ServerRegistry | undefined;

/** The process-wide registry: toolkits on one root share its warm servers. */
export function sharedRegistry(): ServerRegistry {
  shared ??= new ServerRegistry();
  return shared;
}
