import type { ImageContent } from "../../media/image.js";

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
  /** Images the model is shown: an image file, a notebook's image outputs. */
  images?: ImageContent[];
  /** What a non-text file is: its MIME type and size (pixels, pages or cells). */
  media?: MediaInfo;
  /** Symbol and line reads: the definitions shown or listed. */
  definitions?: DefinitionInfo[];
}

export interface MediaInfo {
  type: string;
  bytes?: number;
  width?: number;
  height?: number;
  pages?: number;
  cells?: number;
}
