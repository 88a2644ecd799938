/**
 * The run tool's spilled logs: a command's full output, written as it comes
 * into the state folder's `runs` through the workspace, the newest few kept.
 */
import path from "node:path";
import type { OutputSink } from "../../proc/output-limit.js";
import { randomId } from "../../util/ids.js";
import { stateLayout } from "../../util/state-folder.js";
import type { LogFile } from "../../workspace/workspace.js";
import type { ToolContext } from "../define.js";

/** A spilled log stops growing here. */
export const MAX_LOG_BYTES = 256 * 1024 * 1024;
/** Newest spilled logs kept in the state folder's `runs`. */
export const KEPT_LOGS = 20;

/** The full output of one run, written as it streams (never held in memory), in the state folder's `runs`. */
export class RunLog implements OutputSink {
  /** The path a model passes to a command: root-relative when the state folder is in the root. */
  readonly rel: string;
  readonly #file: LogFile;
  #written = 0;
  capped = false;
  /** Why writing stopped early (a full disk), if it did; the run itself goes on. */
  failed: string | undefined;

  constructor(file: LogFile, at: string, root: string) {
    this.#file = file;
    const rel = path.relative(root, at);
    this.rel = rel.startsWith("..") || path.isAbsolute(rel) ? at : rel.split(path.sep).join("/");
  }

  /** A new log in the context's state folder; throws when the workspace keeps none or it cannot be made. */
  static open(context: ToolContext): RunLog {
    const { workspace } = context;
    if (!workspace.openLog) throw new Error("this root keeps no logs");
    const stamp = new Date().toISOString().replace(/[:.]/g, "-");
    const at = path.join(stateLayout(context.history.dir).runs, `${stamp}-${randomId(3)}.log`);
    return new RunLog(workspace.openLog(at), at, context.guard.root);
  }

  write(chunk: Uint8Array): void {
    if (this.failed) return;
    const room = MAX_LOG_BYTES - this.#written;
    if (room <= 0) {
      this.capped = true;
      return;
    }
    const bytes = chunk.length > room ? chunk.subarray(0, room) : chunk;
    try {
      this.#file.write(bytes);
    } catch (error) {
      this.failed = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    }
    this.#written += bytes.length;
  }

  close(): void {
    this.#file.close();
  }

  /** Old logs are removed so the state folder's `runs` stays small. */
  static prune(context: ToolContext): void {
    context.workspace.pruneLogs?.(stateLayout(context.history.dir).runs, KEPT_LOGS);
  }
}
