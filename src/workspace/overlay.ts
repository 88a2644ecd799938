import {
  compareAndRemove,
  compareAndWrite,
  type DirEntry,
  type FileStat,
  KeyedQueue,
  type MemoryFile,
  type Workspace,
  type WorkspaceCapabilities,
  WorkspaceError,
  type WriteIfOptions,
  type WriteOptions,
} from "./workspace.js";

export class OverlayWorkspace implements Workspace {
  readonly kind = "overlay";
  // Its files are not on the disk as it holds them, so only the walk is offered.
  readonly capabilities: WorkspaceCapabilities = { statWalk: true };
  /** Written files, and `null` for files removed here. */
  readonly #layer = new Map<string, MemoryFile | null>();
  readonly #queue = new KeyedQueue();
  #clock = 0;

  constructor(readonly base: Workspace) {}

  /** Every path written or removed here, with its bytes (null: removed). */
  changes(): [string, Uint8Array | null][] {
    return [...this.#layer].map(([path, e]) => [path, e ? e.bytes : null]);
  }

  #hasLayerFileUnder(path: string): boolean {
    const prefix = path.endsWith("/") ? path : `${path}/`;
    for (const [key, e] of this.#layer) if (e && key.startsWith(prefix)) return true;
    return false;
  }

  async stat(path: string): Promise<FileStat | undefined> {
    const own = this.#layer.get(path);
    if (own) return { kind: "file", size: own.bytes.length, mode: own.mode, mtimeMs: own.mtimeMs };
    if (own === null) return undefined;
    const base = await this.base.stat(path);
    if (base) return base;
    return this.#hasLayerFileUnder(path)
      ? { kind: "directory", size: 0, mode: 0o755, mtimeMs: 0 }
      : undefined;
  }

  async readFile(path: string): Promise<Uint8Array> {
    const own = this.#layer.get(path);
    if (own) return own.bytes.slice();
    if (own === null) throw new WorkspaceError("missing", path, `${path} does not exist`);
    // A folder made only here, by writing files into it: the base has no such path.
    if (this.#hasLayerFileUnder(path)) {
      throw new WorkspaceError("is_directory", path, `${path} is a directory`);
    }
    return this.base.readFile(path);
  }

  async writeFile(path: string, bytes: Uint8Array, options: WriteOptions = {}): Promise<void> {
    const stat = await this.stat(path);
    if (stat?.kind === "directory") {
      throw new WorkspaceError("is_directory", path, `${path} is a directory`);
    }
    const mode = options.mode ?? stat?.mode ?? 0o644;
    this.#layer.set(path, { bytes: bytes.slice(), mode, mtimeMs: this.#clock++ });
  }

  exclusive<T>(path: string, fn: () => Promise<T>): Promise<T> {
    return this.#queue.run(path, fn);
  }

  writeIf(
    path: string,
    bytes: Uint8Array,
    expected: string | null,
    options: WriteIfOptions = {},
  ): Promise<boolean> {
    return compareAndWrite(this, path, bytes, expected, options);
  }

  async remove(path: string): Promise<void> {
    this.#layer.set(path, null);
  }

  removeIf(path: string, expected: string): Promise<boolean> {
    return compareAndRemove(this, path, expected);
  }

  async readDir(path: string): Promise<DirEntry[]> {
    const names = new Map<string, DirEntry["kind"]>();
    let found = false;
    try {
      for (const e of await this.base.readDir(path)) names.set(e.name, e.kind);
      found = true;
    } catch (error) {
      if (
        !(error instanceof WorkspaceError) &&
        (error as NodeJS.ErrnoException).code !== "ENOENT"
      ) {
        throw error;
      }
    }
    const prefix = path.endsWith("/") ? path : `${path}/`;
    for (const [key, e] of this.#layer) {
      if (!key.startsWith(prefix)) continue;
      const rest = key.slice(prefix.length);
      const slash = rest.indexOf("/");
      if (slash !== -1) {
        if (e) names.set(rest.slice(0, slash), "directory");
      } else if (e) names.set(rest, "file");
      else names.delete(rest);
      if (e) found = true; // a removal alone makes no folder exist
    }
    if (!found) throw new WorkspaceError("missing", path, `${path} does not exist`);
    return [...names].map(([name, kind]) => ({ name, kind }));
  }
}
