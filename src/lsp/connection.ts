/**
 * The JSON-RPC channel to one server process over stdio: requests cancelled
 * and rejected at their deadline, notifications that never throw, and waits
 * that end at a deadline or when the process exits. What the messages mean
 * is the client's (client.ts).
 */
import {
  CancellationTokenSource,
  createMessageConnection,
  type MessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-jsonrpc/node";
import { LspExited, LspTimeout } from "./protocol.js";
import { ServerProcess } from "./server-process.js";
import type { Launch } from "./servers.js";

export interface ConnectionHandlers {
  /** Answers a request the server sends (`workspace/configuration`, registrations). */
  onRequest(method: string, params: unknown): unknown;
  onNotification(method: string, params: unknown): void;
  /** After the process is gone and every wait was woken. */
  onExit(): void;
}

export class ServerConnection {
  private readonly process: ServerProcess;
  private readonly connection: MessageConnection;
  private readonly wakers = new Set<() => void>();

  constructor(launch: Launch, root: string, handlers: ConnectionHandlers) {
    this.process = new ServerProcess(launch, root, () => {
      this.connection.dispose();
      this.wake();
      handlers.onExit();
    });
    this.connection = createMessageConnection(
      new StreamMessageReader(this.process.stdout),
      new StreamMessageWriter(this.process.stdin),
    );
    this.connection.onRequest((method, params) => handlers.onRequest(method, params));
    this.connection.onNotification((method, params) => handlers.onNotification(method, params));
    this.connection.onError(() => {});
    this.connection.listen();
  }

  get pid(): number | undefined {
    return this.process.pid;
  }

  get exited(): boolean {
    return this.process.exited;
  }

  /** Why the process is gone, for messages. */
  exitDetail(): string {
    return this.process.exitDetail();
  }

  /** Keeps Node alive while someone waits on the server; call the result to let go. */
  hold(): () => void {
    return this.process.hold();
  }

  /** Runs every pending wait's check: something it waits for may have come. */
  wake(): void {
    for (const w of [...this.wakers]) w();
  }

  /** Resolves true once `ready()` holds, false at the deadline or when the server exits. */
  waitUntil(ready: () => boolean, deadline: number): Promise<boolean> {
    if (ready()) return Promise.resolve(true);
    if (this.exited) return Promise.reject(new LspExited(this.process.exitDetail()));
    const release = this.process.hold();
    return new Promise((resolve, reject) => {
      const done = (value: boolean | Error) => {
        clearTimeout(timer);
        release();
        this.wakers.delete(check);
        if (value instanceof Error) reject(value);
        else resolve(value);
      };
      const check = () => {
        if (this.exited) done(new LspExited(this.process.exitDetail()));
        else if (ready()) done(true);
      };
      const timer = setTimeout(() => done(false), Math.max(0, deadline - Date.now()));
      timer.unref();
      this.wakers.add(check);
    });
  }

  /** A request that is cancelled and rejected with LspTimeout at the deadline. */
  request<T>(method: string, params: unknown, deadline: number): Promise<T> {
    if (this.exited) return Promise.reject(new LspExited(this.process.exitDetail()));
    const cancel = new CancellationTokenSource();
    const release = this.process.hold();
    return new Promise<T>((resolve, reject) => {
      const finish = (fn: () => void) => {
        clearTimeout(timer);
        release();
        this.wakers.delete(onExit);
        cancel.dispose();
        fn();
      };
      const onExit = () => {
        if (this.exited) finish(() => reject(new LspExited(this.process.exitDetail())));
      };
      const timer = setTimeout(
        () => {
          cancel.cancel();
          finish(() => reject(new LspTimeout(method)));
        },
        Math.max(0, deadline - Date.now()),
      );
      timer.unref();
      this.wakers.add(onExit);
      this.connection.sendRequest<T>(method, params, cancel.token).then(
        (value) => finish(() => resolve(value)),
        (error: unknown) => finish(() => reject(error)),
      );
    });
  }

  /** A notification whose failure is thrown (the handshake's `initialized`). */
  sendNotification(method: string, params: unknown): Promise<void> {
    return this.connection.sendNotification(method, params);
  }

  /** A notification that never throws: a dead process is reported by its exit handler. */
  async notify(method: string, params: unknown): Promise<void> {
    if (this.exited) return;
    try {
      await this.connection.sendNotification(method, params);
    } catch {
      // The process died; its exit handler reports it.
    }
  }

  /** Stops the process group at once; safe to call twice and from an exit handler. */
  kill(): void {
    this.process.kill();
  }
}
