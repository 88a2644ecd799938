/**
 * One language server spoken to over stdio with JSON-RPC: initialize with the
 * root, answer the server's own requests, keep documents in sync and ask for
 * a document's diagnostics — pulled where the server offers
 * `textDocument/diagnostic`, else waited for as pushed `publishDiagnostics`
 * until they settle. Every request and wait has a deadline.
 */
import { fileURLToPath } from "node:url";
import { ResponseError } from "vscode-jsonrpc/node";
import type {
  Diagnostic,
  DocumentDiagnosticReport,
  InitializeResult,
  PublishDiagnosticsParams,
} from "vscode-languageserver-protocol";
import { ServerConnection } from "./connection.js";
import {
  answerServer,
  CONTENT_MODIFIED,
  fileUri,
  initializeParams,
  METHOD_NOT_FOUND,
  normalizeUri,
  SERVER_CANCELLED,
} from "./protocol.js";
import type { Launch } from "./servers.js";

export { LspExited, LspTimeout } from "./protocol.js";

export type Strategy = "pull" | "push";

export interface ClientOptions {
  root: string;
  launch: Launch;
  initializationOptions?: unknown;
  /** Answers to `workspace/configuration`, by section. */
  settings?: Record<string, unknown>;
  /** Push servers: the quiet time after the last publish before diagnostics count as settled. */
  settleMs: number;
  /** Documents kept open at once; the least recently used is closed beyond this. */
  maxOpen?: number;
  onExit?(client: LspClient): void;
}

export interface DiagnosticsReport {
  items: Diagnostic[];
  strategy: Strategy;
  /** False when the deadline passed first: `items` is then the last set pushed, maybe stale or none. */
  complete: boolean;
}

interface OpenDoc {
  languageId: string;
  text: string;
  version: number;
  /** The change counter when the server was last sent this document's text. */
  seq: number;
}

interface Published {
  items: Diagnostic[];
  version?: number;
  seq: number;
  at: number;
}

/** How long a pulled answer is reused while nothing was sent to the server. */
const PULL_REUSE_MS = 10_000;

const sleep = (ms: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)).unref());

export class LspClient {
  readonly startedAt = Date.now();
  /** What the server calls itself in its initialize answer ("typescript-go 7.0.0-dev..."). */
  serverInfo = "";
  private readonly channel: ServerConnection;
  private readonly docs = new Map<string, OpenDoc>();
  private readonly published = new Map<string, Published>();
  /** The last pulled set per document, with the change counter it answered. */
  private readonly pulled = new Map<string, { items: Diagnostic[]; seq: number; at: number }>();
  private readonly progress = new Set<string | number>();
  private readonly pullRegistrations = new Map<string, string | undefined>();
  private staticPull: { identifier?: string } | undefined;
  private pullBroken = false;
  private seq = 0;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly options: ClientOptions) {
    const context = {
      root: options.root,
      settings: options.settings,
      pullRegistrations: this.pullRegistrations,
    };
    this.channel = new ServerConnection(options.launch, options.root, {
      onRequest: (method, params) => {
        const answer = answerServer(method, params, context);
        this.channel.wake(); // a pull registration may be what a push wait was waiting for
        return answer;
      },
      onNotification: (method, params) => this.notice(method, params),
      onExit: () => this.options.onExit?.(this),
    });
  }

  /** Starts the server and runs `initialize`; rejects (and stops the process) by the deadline. */
  static async start(options: ClientOptions, deadline: number): Promise<LspClient> {
    const client = new LspClient(options);
    try {
      await client.initialize(deadline);
      return client;
    } catch (error) {
      client.kill();
      throw error;
    }
  }

  get strategy(): Strategy {
    return this.pulls() ? "pull" : "push";
  }

  /** Pull needs the server's offer: static in initialize, or registered later (pyright). */
  private pulls(): boolean {
    return !this.pullBroken && (this.staticPull !== undefined || this.pullRegistrations.size > 0);
  }

  /** The server reports work in progress (loading the project, indexing). */
  get busy(): boolean {
    return this.progress.size > 0;
  }

  get pid(): number | undefined {
    return this.channel.pid;
  }

  get exited(): boolean {
    return this.channel.exited;
  }

  /** Why the process is gone, for messages. */
  get exitReason(): string {
    return this.channel.exitDetail();
  }

  private async initialize(deadline: number): Promise<void> {
    const { root, initializationOptions } = this.options;
    const result = await this.request<InitializeResult>(
      "initialize",
      initializeParams(root, initializationOptions),
      deadline,
    );
    const provider = result.capabilities.diagnosticProvider;
    if (provider) {
      const identifier = "identifier" in provider ? provider.identifier : undefined;
      this.staticPull = identifier ? { identifier } : {};
    }
    const info = result.serverInfo;
    this.serverInfo = info ? `${info.name}${info.version ? ` ${info.version}` : ""}` : "";
    await this.channel.sendNotification("initialized", {});
  }

  private notice(method: string, params: unknown): void {
    if (method === "textDocument/publishDiagnostics") {
      const p = params as PublishDiagnosticsParams;
      this.published.set(normalizeUri(p.uri), {
        items: p.diagnostics,
        version: p.version,
        seq: this.seq,
        at: Date.now(),
      });
      this.channel.wake();
    } else if (method === "$/progress") {
      const p = params as { token: string | number; value?: { kind?: string } };
      if (p.value?.kind === "begin") this.progress.add(p.token);
      else if (p.value?.kind === "end") this.progress.delete(p.token);
      this.channel.wake();
    }
  }

  /** A request that is cancelled and rejected with LspTimeout at the deadline. */
  request<T>(method: string, params: unknown, deadline: number): Promise<T> {
    return this.channel.request(method, params, deadline);
  }

  /**
   * Runs `work` after every earlier exclusive work of this server: a validation
   * changes documents and reads diagnostics, and two of them must not interleave
   * (toolkits of one root share the server).
   */
  exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work);
    this.queue = run.catch(() => {});
    return run;
  }

  /** Makes the server hold `text` for the document (open, or a full-text change); returns its change number. */
  sync(path: string, languageId: string, text: string): number {
    const uri = fileUri(path);
    const doc = this.docs.get(uri);
    if (doc && doc.text === text) {
      this.docs.delete(uri);
      this.docs.set(uri, doc); // most recently used last
      return doc.seq;
    }
    const seq = ++this.seq;
    if (!doc) {
      this.docs.set(uri, { languageId, text, version: 1, seq });
      void this.notify("textDocument/didOpen", {
        textDocument: { uri, languageId, version: 1, text },
      });
      this.evict();
      return seq;
    }
    const version = doc.version + 1;
    this.docs.delete(uri);
    this.docs.set(uri, { languageId, text, version, seq });
    void this.notify("textDocument/didChange", {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
    return seq;
  }

  close(path: string): void {
    const uri = fileUri(path);
    if (!this.docs.delete(uri)) return;
    this.published.delete(uri);
    this.pulled.delete(uri);
    void this.notify("textDocument/didClose", { textDocument: { uri } });
  }

  private evict(): void {
    const max = this.options.maxOpen ?? 32;
    while (this.docs.size > max) {
      const oldest = this.docs.keys().next().value as string;
      this.close(fileURLToPath(oldest));
    }
  }

  private notify(method: string, params: unknown): Promise<void> {
    return this.channel.notify(method, params);
  }

  /**
   * The diagnostics of an open document for the text last synced: pulled when
   * the server offers pull (retried when the server cancels because the text
   * moved on), else the pushed set that arrived after the change, once no newer
   * one came for the settle window.
   */
  async diagnostics(path: string, deadline: number, since = 0): Promise<DiagnosticsReport> {
    const release = this.channel.hold();
    try {
      return await this.diagnosticsOf(path, deadline, since);
    } finally {
      release();
    }
  }

  private async diagnosticsOf(
    path: string,
    deadline: number,
    since: number,
  ): Promise<DiagnosticsReport> {
    const uri = fileUri(path);
    const doc = this.docs.get(uri);
    if (!doc) throw new Error(`${path} is not open`);
    // Push: only a set that arrived after this document's (or another's, `since`) last change counts.
    const floor = Math.max(doc.seq, since);
    for (;;) {
      if (this.pulls()) {
        // Nothing was sent since the last pull of this document: the server's answer stands.
        // (Bounded in time: a server may also see files change on disk.)
        const last = this.pulled.get(uri);
        if (last && last.seq === this.seq && Date.now() - last.at < PULL_REUSE_MS) {
          return { items: last.items, strategy: "pull", complete: true };
        }
        const seq = this.seq;
        const items = await this.pull(uri, deadline);
        if (!items) continue;
        this.pulled.set(uri, { items, seq, at: Date.now() });
        return { items, strategy: "pull", complete: true };
      }
      const fresh = () => {
        const p = this.published.get(uri);
        if (!p || p.seq < floor) return false;
        return p.version === undefined || p.version >= doc.version;
      };
      const arrived = await this.channel.waitUntil(() => fresh() || this.pulls(), deadline);
      if (this.pulls()) continue;
      const items = this.published.get(uri)?.items ?? [];
      if (!arrived) return { items, strategy: "push", complete: false };
      await this.settle(uri, deadline);
      return { items: this.published.get(uri)?.items ?? [], strategy: "push", complete: true };
    }
  }

  /** Waits until a document's pushed diagnostics stop changing for the settle window. */
  private async settle(uri: string, deadline: number): Promise<void> {
    const { settleMs } = this.options;
    for (;;) {
      const last = this.published.get(uri)?.at ?? 0;
      const quietAt = last + settleMs;
      if (Date.now() >= quietAt || Date.now() >= deadline) return;
      await this.channel.waitUntil(
        () => (this.published.get(uri)?.at ?? 0) > last,
        Math.min(quietAt, deadline),
      );
    }
  }

  /** One pull; undefined when the server cancelled it and it should be asked again. */
  private async pull(uri: string, deadline: number): Promise<Diagnostic[] | undefined> {
    const identifier =
      this.staticPull?.identifier ?? [...this.pullRegistrations.values()].find(Boolean);
    try {
      const report = await this.request<DocumentDiagnosticReport>(
        "textDocument/diagnostic",
        { textDocument: { uri }, ...(identifier ? { identifier } : {}) },
        deadline,
      );
      // "unchanged" answers a previousResultId, which splice never sends.
      return report.kind === "full" ? report.items : [];
    } catch (error) {
      if (!(error instanceof ResponseError)) throw error;
      if (error.code === METHOD_NOT_FOUND) {
        this.pullBroken = true;
        return undefined;
      }
      const data = error.data as { retriggerRequest?: boolean } | undefined;
      const retry =
        error.code === CONTENT_MODIFIED ||
        (error.code === SERVER_CANCELLED && data?.retriggerRequest !== false);
      if (!retry || Date.now() >= deadline) throw error;
      await sleep(Math.min(50, deadline - Date.now()));
      return undefined;
    }
  }

  /** Stops the process group at once; safe to call twice and from an exit handler. */
  kill(): void {
    this.channel.kill();
  }

  /** The polite way out: shutdown, exit, then SIGKILL if it lingers. */
  async shutdown(graceMs = 1000): Promise<void> {
    if (!this.exited) {
      const deadline = Date.now() + graceMs;
      try {
        await this.request("shutdown", null, deadline);
        await this.notify("exit", null);
        await this.channel.waitUntil(() => this.exited, deadline);
      } catch {}
    }
    this.kill();
  }
}
