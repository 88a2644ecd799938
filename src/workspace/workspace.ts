/**
 * The one seam every byte passes through. Tools never import `fs`; they ask
 * a Workspace, so the same tools run on the local disk, in memory, or on an
 * overlay.
 */

export interface FileStat {
  kind: "file" | "directory" | "other";
  size: number;
  /** Permission bits (e.g. 0o644). */
  mode: number;
  mtimeMs: number;
}

export interface DirEntry {
  name: string;
  kind: "file" | "directory" | "symlink" | "other";
}

export interface WriteOptions {
  /** Permission bits for the file; default: keep the existing file's, else 0o644. */
  mode?: number;
}

export interface Workspace {
  readonly kind: string;
  /** Follows symlinks; undefined when nothing is there. */
  stat(path: string): Promise<FileStat | undefined>;
  /** Throws WorkspaceError("missing") when the file does not exist. */
  readFile(path: string): Promise<Uint8Array>;
  /**
   * Replaces the file atomically (readers see the old or the new bytes, never
   * a mix), creating parent folders. A symlink at `path` is replaced, not
   * followed.
   */
  writeFile(path: string, bytes: Uint8Array, options?: WriteOptions): Promise<void>;
  /** Removes a file; no error when it is already gone. */
  remove(path: string): Promise<void>;
  readDir(path: string): Promise<DirEntry[]>;
}

export type WorkspaceErrorKind = "missing" | "is_directory" | "escape" | "io";

export class WorkspaceError extends Error {
  readonly kind: WorkspaceErrorKind;
  readonly path: string;

  constructor(kind: WorkspaceErrorKind, path: string, message: string) {
    super(message);
    this.name = "WorkspaceError";
    this.kind = kind;
    this.path = path;
  }
}
