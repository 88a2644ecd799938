/**
 * Arguments as real clients send them, made into the shape a tool's schema
 * takes before it is checked: fields a client adds to every call on its own
 * are dropped, a known field in another tool's or another case's spelling is
 * taken as that field, and a number written as digits is a number. Nothing
 * is dropped silently: a field that is neither stays for the schema to
 * refuse, and a spelling whose field is also given is refused by name.
 */
import type { z } from "zod";
import { clip } from "../errors.js";

/**
 * Fields clients put into every call's arguments, not the model's choice.
 * Gemini CLI adds `wait_for_previous` to every MCP tool's schema and asks its
 * model to set it; n8n's MCP Client Tool sends `toolCallId` (n8n-io/n8n#21500).
 * Accepted only at the top level and only where a tool has no such field.
 */
export const INJECTED_FIELDS: ReadonlySet<string> = new Set(["wait_for_previous", "toolCallId"]);

/**
 * Other agents' names for splice's fields (Claude Code's and Gemini CLI's
 * `file_path`, `old_string`, `new_string`; `content` for a file's text;
 * Gemini CLI's grep `include`; `path` for the `paths` of a tool without a
 * `path`). Used only where the target field exists.
 */
const SYNONYMS: Readonly<Record<string, string>> = {
  file_path: "path",
  filepath: "path",
  absolute_path: "path",
  target_file: "path",
  dir_path: "path",
  old_string: "old_text",
  new_string: "new_text",
  content: "text",
  include: "glob",
  new_path: "to",
  path: "paths",
  destination: "to",
};

/** `replaceAll` → `replace_all`, `oldText` → `old_text`. */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/-/g, "_")
    .toLowerCase();
}

/** The field a spelling stands for among `known`, if any. */
export function fieldFor(name: string, known: ReadonlySet<string>): string | undefined {
  const snake = snakeCase(name);
  for (const candidate of [snake, own(SYNONYMS, name), own(SYNONYMS, snake)]) {
    if (candidate !== undefined && candidate !== name && known.has(candidate)) return candidate;
  }
  return undefined;
}

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  innerType?: z.ZodType;
  in?: z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const WRAPPERS = new Set(["optional", "nullable", "default", "prefault", "readonly", "catch"]);

function unwrap(schema: z.ZodType): Def {
  let def = defOf(schema);
  for (;;) {
    if (WRAPPERS.has(def.type) && def.innerType) def = defOf(def.innerType);
    else if (def.type === "pipe" && def.in) def = defOf(def.in);
    else return def;
  }
}

/**
 * A record's own entry: arguments are data, so a key named like an
 * `Object.prototype` member (`constructor`, `__proto__`) is a key like any other.
 */
function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Sets `key` as an own field even when it is `__proto__`, which `=` would take as the prototype. */
function put(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The fields of each strict object met, by its path: what an "unknown field" error can list. */
export type KnownFields = Map<string, readonly string[]>;

export function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`))
    .join("");
}

const where = (path: readonly PropertyKey[]) =>
  path.length > 0 ? pathText(path) : "the arguments";

/** The union member a value is meant for: the object whose fields cover most of its keys. */
function pickOption(options: readonly z.ZodType[], value: unknown): z.ZodType | undefined {
  // Text where text is allowed stays text: a table cell "5" is not the number 5.
  if (typeof value === "string" && options.some((o) => unwrap(o).type === "string")) {
    return undefined;
  }
  const fits = options.filter((o) => {
    const def = unwrap(o);
    if (Array.isArray(value)) return def.type === "array";
    if (isPlainObject(value)) return def.type === "object";
    return def.type === "number" && typeof value === "string";
  });
  if (fits.length <= 1 || !isPlainObject(value)) return fits[0];
  const keys = Object.keys(value);
  const score = (o: z.ZodType) => {
    const known = new Set(Object.keys(unwrap(o).shape ?? {}));
    return keys.filter((k) => known.has(k) || fieldFor(k, known) !== undefined).length;
  };
  return fits.reduce((best, o) => (score(o) > score(best) ? o : best));
}

interface Seen {
  known: KnownFields;
  /** Sentences naming a field given in two spellings. */
  problems: string[];
}

function walk(schema: z.ZodType, value: unknown, path: PropertyKey[], seen: Seen): unknown {
  const def = unwrap(schema);
  if (def.type === "number" && typeof value === "string" && /^\s*-?\d+\s*$/.test(value)) {
    // Models behind some clients write every number as text ("40").
    return Number(value);
  }
  if (def.type === "union" && def.options) {
    const option = pickOption(def.options, value);
    return option ? walk(option, value, path, seen) : value;
  }
  if (def.type === "array" && def.element && Array.isArray(value)) {
    const element = def.element;
    return value.map((v, i) => walk(element, v, [...path, i], seen));
  }
  if (def.type !== "object" || !def.shape || !isPlainObject(value)) return value;
  const shape = def.shape;
  const strict = def.catchall !== undefined && defOf(def.catchall).type === "never";
  const fields = new Set(Object.keys(shape));
  if (strict) seen.known.set(pathText(path), [...fields]);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const field = own(shape, key);
    if (field) {
      put(out, key, walk(field, v, [...path, key], seen));
      continue;
    }
    if (!strict) {
      put(out, key, v);
      continue;
    }
    if (path.length === 0 && INJECTED_FIELDS.has(key)) continue;
    const meant = fieldFor(key, fields);
    if (meant === undefined) {
      put(out, key, v);
      continue;
    }
    if (Object.hasOwn(value, meant)) {
      seen.problems.push(
        `${where(path)} has both "${clip(key)}" and "${meant}", two spellings of one field; send only "${meant}"`,
      );
      continue;
    }
    put(out, meant, walk(shape[meant]!, v, [...path, meant], seen));
  }
  return out;
}

/**
 * The arguments in the schema's own spelling, the fields of every strict
 * object in them, and the fields given in two spellings (to refuse).
 */
export function normalizeArguments(
  schema: z.ZodType,
  args: Record<string, unknown>,
): { args: Record<string, unknown>; known: KnownFields; problems: string[] } {
  const seen: Seen = { known: new Map(), problems: [] };
  const out = walk(schema, args, [], seen) as Record<string, unknown>;
  return { args: out, known: seen.known, problems: seen.problems };
}
