/**
 * The review page's event stream: every open page is told when a backup
 * session appears, whether this process's tools made it (their events) or
 * another process did (the history folder's watch).
 */
import { type FSWatcher, watch } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Listener } from "../events.js";
import type { Toolkit } from "../toolkit/index.js";

/**
 * How long the history folder's events are gathered before history is
 * asked whether a backup session appeared: one change is several appends.
 */
const SETTLE_MS = 30;

/**
 * What changes whenever anyone (this server, an agent in another process)
 * opens or finishes a backup session: a count of the journal's index, not
 * a list with diffs, since every append in the history folder asks it.
 */
function stamp(toolkit: Toolkit): string {
  const { count, newest } = toolkit.backupMark();
  return `${count} ${newest ?? ""}`;
}

/** Who noticed a change: this process's tools (their event bus) or the history folder's watch. */
type Noticed = "events" | "watch";

/** The open pages' streams, and what tells them of a change. */
export class SessionStream {
  private readonly streams = new Set<ServerResponse>();
  private last: string | undefined;
  private watcher: FSWatcher | undefined;
  private settling: NodeJS.Timeout | undefined;
  private telling: NodeJS.Immediate | undefined;
  private readonly off: () => void;

  constructor(private readonly toolkit: Toolkit) {
    this.off = toolkit.events.on(this.hear);
  }

  /** Told of a toolkit's events: a change is news for the pages. */
  readonly hear: Listener = (event) => {
    if (event.type === "files_changed") this.soon("events");
  };

  /** Tells every open page when a backup session appeared (by this process or any other). */
  private tell(by: Noticed): void {
    let now: string | undefined;
    try {
      now = stamp(this.toolkit);
    } catch {
      return; // History unreadable for a moment (gc rewriting it): the next change sees it.
    }
    if (now === this.last) return;
    this.last = now;
    const data = JSON.stringify({ stamp: now, by });
    for (const res of this.streams) res.write(`event: sessions\ndata: ${data}\n\n`);
  }

  /**
   * Looks once the change is done: right after a tool's call said so, or
   * once the folder settles. A tool's word comes after its own appends were
   * seen in the folder, and makes waiting for them needless.
   */
  private soon(by: Noticed): void {
    if (this.streams.size === 0) return;
    if (by === "events") {
      clearTimeout(this.settling);
      this.settling = undefined;
      this.telling ??= setImmediate(() => {
        this.telling = undefined;
        this.tell("events");
      });
    } else {
      this.settling ??= setTimeout(() => {
        this.settling = undefined;
        this.tell("watch");
      }, SETTLE_MS);
    }
  }

  /**
   * Other processes (an agent, a `splice` command) append to the same
   * journal: the history folder's events say when, instead of a timer. Any
   * event there may be one (the journal, its lock, a compaction's rename);
   * the stamp tells which made a backup session.
   */
  private watchHistory(): void {
    try {
      this.watcher = watch(this.toolkit.historyDir, { persistent: false }, () =>
        this.soon("watch"),
      );
      this.watcher.on("error", this.unwatch);
    } catch {
      // No folder to watch (history unavailable): only this process's changes are heard.
    }
  }

  private readonly unwatch = (): void => {
    this.watcher?.close();
    this.watcher = undefined;
  };

  /** Answers GET /review/events: the stream stays open until the page goes. */
  open(req: IncomingMessage, res: ServerResponse): void {
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-store",
      connection: "keep-alive",
    });
    try {
      // What the page just loaded is the baseline; only what comes after is news. With no
      // page listening nobody was told, so the stamp is taken again.
      if (this.streams.size === 0) this.last = stamp(this.toolkit);
    } catch {}
    res.write("retry: 1000\nevent: hello\ndata: {}\n\n");
    this.streams.add(res);
    if (!this.watcher) this.watchHistory();
    req.once("close", () => {
      this.streams.delete(res);
      if (this.streams.size === 0) this.unwatch();
    });
  }

  /** Ends every stream and stops listening. */
  close(): void {
    this.off();
    this.unwatch();
    clearTimeout(this.settling);
    if (this.telling) clearImmediate(this.telling);
    for (const res of this.streams) res.end();
    this.streams.clear();
  }
}
