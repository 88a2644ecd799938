/**
 * The symbol index on disk: every byte of it passes through this module, so
 * confining `.splice/` (resolving beneath the root) covers it in one place.
 * Files are shards of JSON under `<history dir>/index/`, replaced whole by
 * temp + rename: a reader sees an old shard or a new one, never half of one,
 * and no lock is held. A shard that does not parse is read as empty; the next
 * write replaces it.
 */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { ChangeContext } from "../change/context.js";
import { randomId } from "../util/ids.js";
import { stateLayout } from "../util/state-folder.js";

/** Bump when an entry's shape changes: shards of another version are read as empty. */
export const INDEX_VERSION = 1;
export const SHARDS = 64;
/** A shard that would grow past this keeps its old entries and skips new ones (64 MiB in all). */
export const MAX_SHARD_BYTES = 1024 * 1024;

/** A shard's identity on disk: a changed one is read again. */
export interface ShardStamp {
  ino: number;
  size: number;
  mtimeMs: number;
}

export interface ShardFile<T> {
  stamp?: ShardStamp;
  files: Record<string, T>;
}

const shardName = (shard: number) => `s${shard.toString(16).padStart(2, "0")}.json`;

export class IndexStore {
  readonly dir: string;

  constructor(historyDir: string) {
    this.dir = stateLayout(historyDir).index;
  }

  /** The shard's stamp now, or undefined when it does not exist. */
  stamp(shard: number): ShardStamp | undefined {
    const s = statSync(join(this.dir, shardName(shard)), { throwIfNoEntry: false });
    return s ? { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs } : undefined;
  }

  /** The shard's entries; a missing, torn or foreign shard is empty. */
  read<T>(shard: number): ShardFile<T> {
    const path = join(this.dir, shardName(shard));
    const stamp = this.stamp(shard);
    if (!stamp) return { files: {} };
    try {
      const parsed = JSON.parse(readFileSync(path, "utf8")) as { v?: number; files?: unknown };
      if (parsed.v !== INDEX_VERSION || typeof parsed.files !== "object" || !parsed.files) {
        return { stamp, files: {} };
      }
      return { stamp, files: parsed.files as Record<string, T> };
    } catch {
      return { stamp, files: {} };
    }
  }

  /** Replaces the shard atomically; false when the index folder cannot be written. */
  write<T>(shard: number, files: Record<string, T>): ShardStamp | undefined {
    const path = join(this.dir, shardName(shard));
    const temp = join(this.dir, `.${shardName(shard)}.${process.pid}.${randomId()}`);
    try {
      mkdirSync(this.dir, { recursive: true });
      writeFileSync(temp, JSON.stringify({ v: INDEX_VERSION, files }));
      renameSync(temp, path);
      return this.stamp(shard);
    } catch {
      try {
        unlinkSync(temp);
      } catch {}
      return undefined;
    }
  }

  /** Temp files a killed writer left behind (older than a minute). */
  sweep(now = Date.now()): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (!name.startsWith(".s")) continue;
      const s = statSync(join(this.dir, name), { throwIfNoEntry: false });
      if (s && now - s.mtimeMs > 60_000) {
        try {
          unlinkSync(join(this.dir, name));
        } catch {}
      }
    }
  }
}

/**
 * A code file's size and mtime, by one lstat of the real path the walk gave
 * (the workspace's confined stat walks every folder again, 30 times the cost).
 * A stamp only decides whether the bytes are read again, through the
 * workspace; it never lets a byte through. Undefined: not a regular file.
 */
export function fileStamp(real: string): { size: number; mtimeMs: number } | undefined {
  try {
    const s = lstatSync(real, { throwIfNoEntry: false });
    return s?.isFile() ? { size: s.size, mtimeMs: s.mtimeMs } : undefined;
  } catch {
    return undefined;
  }
}

/** FNV-1a of the path: which shard holds it. */
export function shardOf(rel: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < rel.length; i++) {
    h ^= rel.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % SHARDS;
}

/**
 * The history dir whose index serves this context, or undefined where stamps
 * mean nothing (memory and overlay workspaces, a dry run's history), history
 * is unavailable, or `SPLICE_SYMBOL_INDEX=0` asks for a scan on every lookup.
 */
export function indexHome(context: ChangeContext): string | undefined {
  if (!context.workspace.capabilities?.localFiles || process.env.SPLICE_SYMBOL_INDEX === "0") {
    return undefined;
  }
  const dir = (context.history as { dir?: string }).dir;
  if (!dir || (context.history as { unavailable?: unknown }).unavailable) return undefined;
  return dir;
}
