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

/** Files in a Map, keyed by absolute path; folders exist where files do. */
export class MemoryWorkspace implements Workspace {
  readonly kind = "memory";
  readonly capabilities: WorkspaceCapabilities = { statWalk: true };
  readonly #files = new Map<string, MemoryFile>();
  #clock = 0;

  constructor(files: Record<string, string | Uint8Array> = {}) {
    for (const [path, content] of Object.entries(files)) {
      const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
      this.#files.set(path, { bytes, mode: 0o644, mtimeMs: this.#clock++ });
    }
  }

  #isDir(path: string): boolean {
    const prefix = path.endsWith("/") ? path : `${path}/`;
    for (const key of this.#files.keys()) if (key.startsWith(prefix)) return true;
    return false;
  }

  async stat(path: string): Promise<FileStat | undefined> {
    const entry = this.#files.get(path);
    if (entry) {
      return { kind: "file", size: entry.bytes.length, mode: entry.mode, mtimeMs: entry.mtimeMs };
    }
    return this.#isDir(path) ? { kind: "directory", size: 0, mode: 0o755, mtimeMs: 0 } : undefined;
  }

  async readFile(path: string): Promise<Uint8Array> {
    const entry = this.#files.get(path);
    if (entry) return entry.bytes.slice();
    if (this.#isDir(path)) throw new WorkspaceError("is_directory", path, `${path} is a directory`);
    throw new WorkspaceError("missing", path, `${path} does not exist`);
  }

  async writeFile(path: string, bytes: Uint8Array, options: WriteOptions = {}): Promise<void> {
    if (this.#isDir(path)) throw new WorkspaceError("is_directory", path, `${path} is a directory`);
    const mode = options.mode ?? this.#files.get(path)?.mode ?? 0o644;
    this.#files.set(path, { bytes: bytes.slice(), mode, mtimeMs: this.#clock++ });
  }

  readonly #queue = new KeyedQueue();

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
    this.#files.delete(path);
  }

  removeIf(path: string, expected: string): Promise<boolean> {
    return compareAndRemove(this, path, expected);
  }

  async readDir(path: string): Promise<DirEntry[]> {
    const prefix = path.endsWith("/") ? path : `${path}/`;
    const names = new Map<string, DirEntry["kind"]>();
    for (const key of this.#files.keys()) {
      if (!key.startsWith(prefix)) continue;
      const rest = key.slice(prefix.length);
      const slash = rest.indexOf("/");
      names.set(slash === -1 ? rest : rest.slice(0, slash), slash === -1 ? "file" : "directory");
    }
    if (names.size === 0 && !this.#files.has(path)) {
      throw new WorkspaceError("missing", path, `${path} does not exist`);
    }
    return [...names].map(([name, kind]) => ({ name, kind }));
  }
}
