/**
 * A persistent, incremental index of what each code file defines, so folder
 * reads and outlines parse only the files that changed. An entry is keyed by
 * the file's size, mtime and SHA-256; it is trusted on size + mtime alone only
 * when the mtime was already 2 s old when the entry was made (git's "racy"
 * rule: a same-size edit within the mtime's tick would look unchanged), and
 * bytes a caller read anyway are always compared by hash. Anything else is
 * parsed again first, so a location shown is never one of an older version.
 * Where the walk cache watches the folders, a file the watch vouches for
 * (checked while watched, no event since) is trusted without its lstat.
 */

import type { ChangeContext } from "../change/context.js";
import type { DefKind } from "../code/def-spec.js";
import { parseCodeAsync } from "../code/languages.js";
import { outlineEntries, outlineLines } from "../code/outline.js";
import { extractDefinitions } from "../code/symbols.js";
import { describeProblem, syntaxProblems } from "../code/syntax-check.js";
import { normalizedText } from "../text/document.js";
import { sha256 } from "../util/hash.js";
import { mapLimit } from "../util/map-limit.js";
import type { Ticket, TreeWatch } from "../workspace/watch.js";
import { loadedIn, readRaw } from "./code-bytes.js";
import type { CodeFile } from "./files.js";
import {
  fileStamp,
  IndexStore,
  indexHome,
  MAX_SHARD_BYTES,
  SHARDS,
  type ShardStamp,
  shardOf,
} from "./symbol-index-store.js";
import { watchFor } from "./symbol-index-walk.js";

export interface IndexedDef {
  name: string;
  qualified: string;
  kind: DefKind;
  start: number;
  end: number;
  depth: number;
  /** The outline line: `40..60 parse(input: string): Node`, indented by depth. */
  line: string;
}

export interface IndexEntry {
  size: number;
  mtimeMs: number;
  /** When the stat was taken (ms since the epoch). */
  checkedAt: number;
  sha: string;
  tag: string;
  lines: number;
  /** The first parse error, described, when the file has one. */
  broken?: string;
  defs: IndexedDef[];
}

/** Files larger than this are parsed on every lookup, never stored. */
export const MAX_INDEXED_FILE_BYTES = 1024 * 1024;
const RACY_MS = 2000;

/** A file's entry as of now, or why it has none. */
export type Indexed =
  | { code: CodeFile; entry: IndexEntry; bytes?: Uint8Array }
  | { code: CodeFile; skipped: string; bytes?: Uint8Array };

interface Shard {
  stamp?: ShardStamp;
  files: Record<string, IndexEntry>;
  dirty: Map<string, IndexEntry | null>;
}

/** Parses bytes into an entry (undefined when they are not text). */
export async function entryOf(
  context: ChangeContext,
  code: CodeFile,
  bytes: Uint8Array,
  stat: { size: number; mtimeMs: number },
  checkedAt: number,
  sha?: string,
): Promise<IndexEntry | undefined> {
  const loaded = await loadedIn(context, code.file, bytes, sha);
  if ("kind" in loaded) return undefined;
  const root = (await parseCodeAsync(code.language, normalizedText(loaded.doc))).root();
  const defs = extractDefinitions(root, code.language, loaded.doc.lines);
  const outline = outlineLines(defs, loaded.doc.lines);
  const broken = syntaxProblems(root)[0];
  return {
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    checkedAt,
    sha: loaded.sha,
    tag: loaded.tag,
    lines: loaded.doc.lines.length,
    ...(broken ? { broken: describeProblem(broken) } : {}),
    defs: outlineEntries(defs, code.language).map((e, i) => ({
      name: e.name,
      qualified: e.qualified_name,
      kind: e.kind,
      start: e.lines[0],
      end: e.lines[1],
      depth: e.depth,
      line: outline[i]!,
    })),
  };
}

export class SymbolIndex {
  readonly store: IndexStore;
  readonly #shards: Shard[] = [];
  /** Bumped by every change to the entries held (a put, a shard read again). */
  #changes = 0;
  /** The last lookup in which the watch vouched for every file, kept while nothing changed. */
  #quiet?: {
    files: readonly CodeFile[];
    onlyKnown: boolean;
    changes: number;
    watched: number;
    out: readonly Indexed[];
  };

  constructor(historyDir: string) {
    this.store = new IndexStore(historyDir);
    for (let i = 0; i < SHARDS; i++) this.#shards.push({ files: {}, dirty: new Map() });
  }

  /** Takes in shards another process replaced since this one read them. */
  refresh(): void {
    for (let i = 0; i < SHARDS; i++) {
      const shard = this.#shards[i]!;
      const stamp = this.store.stamp(i);
      if (sameStamp(stamp, shard.stamp)) continue;
      const read = this.store.read<IndexEntry>(i);
      this.#changes++;
      shard.stamp = read.stamp;
      shard.files = read.files;
      for (const [rel, entry] of shard.dirty) {
        if (entry) shard.files[rel] = entry;
        else delete shard.files[rel];
      }
    }
  }

  get(rel: string): IndexEntry | undefined {
    return this.#shards[shardOf(rel)]!.files[rel];
  }

  put(rel: string, entry: IndexEntry | null): void {
    const shard = this.#shards[shardOf(rel)]!;
    if (entry) shard.files[rel] = entry;
    else if (rel in shard.files) delete shard.files[rel];
    else return;
    shard.dirty.set(rel, entry);
    this.#changes++;
  }

  /** Paths with an entry, under `prefix` ("" for all). */
  *paths(prefix: string): Iterable<string> {
    const under = prefix === "" || prefix === "." ? "" : `${prefix}/`;
    for (const shard of this.#shards) {
      for (const rel of Object.keys(shard.files)) if (rel.startsWith(under)) yield rel;
    }
  }

  /**
   * Writes the shards this process changed: each is read again first, so
   * entries another process wrote meanwhile are kept (a shard both replace
   * at once keeps one side's new entries; the other's are parsed again later).
   */
  flush(): void {
    for (let i = 0; i < SHARDS; i++) {
      const shard = this.#shards[i]!;
      if (shard.dirty.size === 0) continue;
      const onDisk = this.store.read<IndexEntry>(i).files;
      let bytes = JSON.stringify(onDisk).length;
      for (const [rel, entry] of shard.dirty) {
        if (!entry) {
          delete onDisk[rel];
          continue;
        }
        const size = JSON.stringify(entry).length + rel.length + 4;
        if (!(rel in onDisk) && bytes + size > MAX_SHARD_BYTES) continue;
        onDisk[rel] = entry;
        bytes += size;
      }
      const stamp = this.store.write(i, onDisk);
      shard.dirty.clear();
      if (stamp) {
        shard.stamp = stamp;
        shard.files = onDisk;
      }
    }
  }

  /**
   * The current entry of each file: a trusted stat hit costs one lstat; else
   * the bytes are read and hashed, and parsed only when the hash differs.
   * With `onlyKnown`, a file without an entry is returned as `missing`
   * instead of parsed (the caller decides which of those to parse). The
   * result is shared with later lookups of the same list: do not change it.
   */
  async lookup(
    context: ChangeContext,
    files: readonly CodeFile[],
    options: { onEach?: () => void; onlyKnown?: boolean } = {},
  ): Promise<readonly Indexed[]> {
    this.refresh();
    const watch = watchFor(context);
    await watch?.settle();
    const onlyKnown = options.onlyKnown === true;
    // Every file vouched for last time, and no event, drop or entry change since: the same answer.
    const quiet = this.#quiet;
    if (watch && quiet?.files === files && quiet.onlyKnown === onlyKnown) {
      if (quiet.changes === this.#changes && quiet.watched === watch.changes) return quiet.out;
    }
    const out: Indexed[] = new Array(files.length);
    const rest: number[] = [];
    // Files the watch vouches for are answered here, without a promise each.
    for (let i = 0; i < files.length; i++) {
      const code = files[i]!;
      const old = this.get(code.file.rel);
      if (old && watch?.vouches(code.file.real, old.sha)) {
        out[i] = { code, entry: old };
        options.onEach?.();
      } else if (!old && onlyKnown) {
        // A file never indexed costs nothing here: the caller scans those as without an index.
        out[i] = { code, skipped: "missing" };
        options.onEach?.();
      } else rest.push(i);
    }
    await mapLimit(rest, 16, async (i) => {
      out[i] = await this.#current(context, files[i]!, onlyKnown, watch);
      options.onEach?.();
    });
    this.flush();
    this.#quiet =
      watch && rest.length === 0
        ? { files, onlyKnown, changes: this.#changes, watched: watch.changes, out }
        : undefined;
    return out;
  }

  /** The entry for bytes a caller already read (stat taken before the read). */
  async forBytes(
    context: ChangeContext,
    code: CodeFile,
    bytes: Uint8Array,
    stat: { size: number; mtimeMs: number } | undefined,
    checkedAt: number,
  ): Promise<IndexEntry | undefined> {
    const rel = code.file.rel;
    const old = this.get(rel);
    const sha = sha256(bytes);
    if (old && old.sha === sha) {
      // Same bytes: a new stamp (or an entry no longer racy) is stored without parsing.
      if (stat && (old.size !== stat.size || old.mtimeMs !== stat.mtimeMs || racy(old))) {
        const moved = { ...old, size: stat.size, mtimeMs: stat.mtimeMs, checkedAt };
        this.put(rel, moved);
        return moved;
      }
      return old;
    }
    const at = stat ?? { size: -1, mtimeMs: -1 };
    const entry = await entryOf(context, code, bytes, at, checkedAt, sha);
    this.put(rel, entry && bytes.length <= MAX_INDEXED_FILE_BYTES && stat ? entry : null);
    return entry;
  }

  async #current(
    context: ChangeContext,
    code: CodeFile,
    onlyKnown: boolean,
    watch: TreeWatch | undefined,
  ): Promise<Indexed> {
    const rel = code.file.rel;
    const old = this.get(rel);
    // An entry another call dropped since the loop above looked: scanned like one never made.
    if (!old && onlyKnown) return { code, skipped: "missing" };
    const ticket: Ticket | undefined = watch?.ticket(code.file.real);
    const checkedAt = Date.now();
    // The stat comes before the read: a change after it leaves a stamp that no longer matches.
    const stat = fileStamp(code.file.real);
    if (!stat) {
      this.put(rel, null);
      return { code, skipped: "gone" };
    }
    const sameStat = old && old.size === stat.size && old.mtimeMs === stat.mtimeMs;
    // A stat that looks the same vouches for a settled file, unless an event named it since.
    if (sameStat && !racy(old) && !watch?.touched(code.file.real)) {
      watch?.vouch(code.file.real, ticket, old.sha);
      return { code, entry: old };
    }
    const raw = await readRaw(context, { file: code.file, size: stat.size });
    if ("skipped" in raw) {
      this.put(rel, null);
      return { code, skipped: raw.skipped };
    }
    const entry = await this.forBytes(context, code, raw.bytes, stat, checkedAt);
    if (!entry) return { code, skipped: "not text", bytes: raw.bytes };
    // Bytes read after the ticket: a change since is an event (an entry not stored is not vouched).
    if (this.get(rel) === entry) watch?.vouch(code.file.real, ticket, entry.sha);
    return { code, entry, bytes: raw.bytes };
  }
}

/** Whether the file was modified too shortly before its stat for the stat to vouch for it. */
const racy = (entry: IndexEntry) => entry.mtimeMs >= entry.checkedAt - RACY_MS;

function sameStamp(a: ShardStamp | undefined, b: ShardStamp | undefined): boolean {
  if (!a || !b) return a === b;
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs;
}

const indexes = new Map<string, SymbolIndex>();

/** The index of this context's root, or undefined where it has none (see `indexHome`). */
export function symbolIndexFor(context: ChangeContext): SymbolIndex | undefined {
  const dir = indexHome(context);
  if (!dir) return undefined;
  let index = indexes.get(dir);
  if (!index) {
    index = new SymbolIndex(dir);
    index.store.sweep();
    indexes.set(dir, index);
  }
  return index;
}
