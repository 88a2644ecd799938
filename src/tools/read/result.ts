/** What a read returns per target: the read tool's result, shared by its line and symbol views. */

export interface DefinitionInfo {
  name: string;
  qualified_name: string;
  kind: string;
  path: string;
  lines: [number, number];
}

export interface ReadResult {
  path: string;
  /** The 4-hex tag of the version shown; absent when nothing was read. */
  file_hash?: string;
  header?: string;
  content: string;
  total_lines?: number;
  warnings: string[];
  /** Set when this target could not be read; the batch still went on. */
  error?: { code: string; message: string };
  /** Symbol and line reads: the definitions shown or listed. */
  definitions?: DefinitionInfo[];
}
