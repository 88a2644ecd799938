/**
 * What every format editor (JSON/JSONC, YAML, TOML) offers the actions:
 * look a path up, set or remove one value, and give the text back. An
 * editor changes only the bytes of the value it touches.
 */
import type { Segment } from "./selector.js";
import type { Json } from "./values.js";

export type Kind = "object" | "array" | "scalar";

export interface Found {
  found: true;
  kind: Kind;
  /** Keys of an object, items of an array, 0 for a scalar. */
  size: number;
  /** The value as a program reads it (YAML aliases and merge keys resolved). */
  data(): unknown;
  /** The value as the file spells it (YAML aliases kept as markers): what read-back checks compare. */
  raw(): unknown;
  /** Set when the last key comes from a YAML merge key (`<<: *defaults`), not the map itself. */
  inherited?: string;
  /** Set when the value's container is shared through a YAML alias or merge key. */
  shared?: string;
}

export interface Missing {
  found: false;
  /** `path.slice(0, depth)` is the deepest value that exists. */
  depth: number;
  /** What that deepest value is. */
  kind: Kind;
  size: number;
  isNull: boolean;
  /** Its keys when it is an object (for "did you mean"). */
  keys: string[];
  /** Its scalar value, for messages. */
  scalar?: unknown;
  /** Set when writing into it would change a value shared through a YAML alias or merge key. */
  shared?: string;
}

export type Probe = Found | Missing;

export interface DocEditor {
  probe(path: readonly Segment[]): Probe;
  /**
   * Replaces the value at `path`, or adds it: a new key of an existing object,
   * or index == length of an existing array.
   */
  set(path: readonly Segment[], value: Json): void;
  /**
   * What `set` should store at `path` for the JSON a caller gave: the format's own types put
   * back where the old value had them (TOML: a date-time stays one when given in date-time
   * form), with a warning for each value that loses its type.
   */
  typed?(path: readonly Segment[], value: Json): { value: Json; warnings: string[] };
  /** Removes the value at `path` from its object or array; it must exist. */
  remove(path: readonly Segment[]): void;
  /** The document's text with every change so far. */
  text(): string;
  /** Throws when the document parses but would not load (e.g. a YAML alias without its anchor). */
  validate?(): void;
}

/** Opens a document's text for editing, or throws a DocError saying where it does not parse. */
export interface OpenEditor {
  (text: string): DocEditor;
  /** Reads a result back for the check after a change; default: the opener itself. */
  reread?: (text: string) => DocEditor;
}
