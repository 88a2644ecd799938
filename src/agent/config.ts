/**
 * Where the agent's model lives and how it authenticates: flags first, then
 * splice's own environment variables, then the config file, then the generic
 * ANTHROPIC_* variables. The API key itself is never stored here: the config
 * names where it lives (a variable or a file) and `readKey` reads it afresh
 * each time a request needs it, so a rotated key works without a restart and
 * the value never sits in an object that could be printed or written.
 */
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { z } from "zod";
import type { Price } from "./usage.js";

export const DEFAULT_BASE_URL = "https://api.anthropic.com";
export const DEFAULT_MODEL = "claude-sonnet-5-5";
export const DEFAULT_MAX_TOKENS = 16_000;

/** Where the key is read from; never the key. */
export type KeySource = { kind: "env"; name: string } | { kind: "file"; path: string };

export interface AgentConfig {
  baseURL: string;
  model: string;
  maxTokens: number;
  key: KeySource;
  tools: "minimal" | "coding" | "full";
  /** Approve every call without asking. */
  yes: boolean;
  /** The model's price, when the config names it: then each turn shows its cost. */
  price?: Price;
  /** Command prefixes `run` may start without asking (--allow and the config's "allow"). */
  allow: string[];
  /** Which earlier conversation of this folder to go on with, if any. */
  resume?: Resume;
  /** Watch the folder for changes made outside splice (off with --no-watch). */
  watch: boolean;
}

/** --continue: the one used last; --resume: a list to pick from, or the one named. */
export type Resume = { kind: "last" } | { kind: "pick" } | { kind: "id"; id: string };

/** A conversation's id as `.splice/agents/` names it, or its last six characters. */
export const CONVERSATION_ID = /^(?:\d{8}T\d{6}Z-)?[0-9a-f]{6}$/;

/** A setup problem the person fixes before starting: shown in one line, exit 2. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

type Flags = Record<string, string | boolean | undefined>;
type Env = Record<string, string | undefined>;

const fileSchema = z.strictObject({
  base_url: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  max_tokens: z.number().int().min(1).optional(),
  tools: z.enum(["minimal", "coding", "full"]).optional(),
  /** A file holding the key (relative paths resolve against the config file's folder). */
  key_file: z.string().min(1).optional(),
  /** The environment variable holding the key, e.g. OPENROUTER_API_KEY. */
  key_env: z.string().min(1).optional(),
  /** US dollars per million tokens, for the cost shown after each turn. */
  price: z
    .strictObject({
      input: z.number().min(0),
      output: z.number().min(0),
      cache_read: z.number().min(0).optional(),
      cache_write: z.number().min(0).optional(),
    })
    .optional(),
  /** Command prefixes `run` may start without asking, e.g. "npm test". */
  allow: z.array(z.string().min(1)).optional(),
});

type FileConfig = z.output<typeof fileSchema>;

/** `$SPLICE_CONFIG`, else `$XDG_CONFIG_HOME/splice/agent.json` (default `~/.config`). */
export function configPath(env: Env = process.env): string {
  if (env.SPLICE_CONFIG) return resolve(env.SPLICE_CONFIG);
  const base = env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return join(base, "splice", "agent.json");
}

function loadFile(path: string): FileConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new ConfigError(`cannot read ${path} (${(error as NodeJS.ErrnoException).code}).`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${path} is not valid JSON (${(error as Error).message}).`);
  }
  if (raw && typeof raw === "object" && ("api_key" in raw || "key" in raw)) {
    throw new ConfigError(
      `${path} must not hold the API key itself: put the key in a file of its own (chmod 600) and name it with "key_file", or name its variable with "key_env".`,
    );
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    const problem = parsed.error.issues
      .map((i) => `${i.path.join(".") || "the file"}: ${i.message}`)
      .join("; ");
    throw new ConfigError(
      `${path}: ${problem}. Fields: base_url, model, max_tokens, tools, key_file, key_env, price, allow.`,
    );
  }
  const file = parsed.data;
  if (file.key_file && !isAbsolute(file.key_file)) {
    file.key_file = resolve(path, "..", file.key_file);
  }
  return file;
}

const str = (value: string | boolean | undefined) =>
  typeof value === "string" ? value : undefined;

function keySource(flags: Flags, env: Env, file: FileConfig): KeySource {
  const flagFile = str(flags["key-file"]);
  if (flagFile !== undefined) {
    if (flagFile.trim() === "") throw new ConfigError("--key-file needs a file name.");
    return { kind: "file", path: resolve(flagFile) };
  }
  if (env.SPLICE_KEY_FILE) return { kind: "file", path: resolve(env.SPLICE_KEY_FILE) };
  if (env.SPLICE_API_KEY) return { kind: "env", name: "SPLICE_API_KEY" };
  if (file.key_env) return { kind: "env", name: file.key_env };
  if (file.key_file) return { kind: "file", path: file.key_file };
  return { kind: "env", name: "ANTHROPIC_API_KEY" };
}

export function resolveConfig(flags: Flags, env: Env = process.env): AgentConfig {
  const file = loadFile(configPath(env));
  const tools = str(flags.tools) ?? file.tools ?? "minimal";
  if (tools !== "minimal" && tools !== "coding" && tools !== "full") {
    throw new ConfigError(`--tools must be "minimal", "coding" or "full", not "${tools}".`);
  }
  const baseURL = (
    str(flags["base-url"]) ??
    env.SPLICE_BASE_URL ??
    file.base_url ??
    env.ANTHROPIC_BASE_URL ??
    DEFAULT_BASE_URL
  ).replace(/\/+$/, "");
  if (!/^https?:\/\/[^/]/.test(baseURL)) {
    throw new ConfigError(
      `the base URL "${baseURL}" is not an http(s) URL, e.g. https://api.anthropic.com.`,
    );
  }
  const model = str(flags.model) ?? env.SPLICE_MODEL ?? file.model ?? env.ANTHROPIC_MODEL;
  if (model !== undefined && model.trim() === "") throw new ConfigError("--model needs a name.");
  const maxTokens = env.SPLICE_MAX_TOKENS ? Number(env.SPLICE_MAX_TOKENS) : file.max_tokens;
  if (maxTokens !== undefined && !(Number.isInteger(maxTokens) && maxTokens > 0)) {
    throw new ConfigError("SPLICE_MAX_TOKENS must be a positive whole number.");
  }
  return {
    baseURL,
    model: model ?? DEFAULT_MODEL,
    maxTokens: maxTokens ?? DEFAULT_MAX_TOKENS,
    key: keySource(flags, env, file),
    tools,
    yes: flags.yes === true,
    watch: flags["no-watch"] !== true,
    ...(file.price ? { price: file.price } : {}),
    allow: allowRules(flags, file),
    ...resumeOf(flags),
  };
}

/** --allow's comma-separated prefixes, then the config file's. */
function allowRules(flags: Flags, file: FileConfig): string[] {
  const typed = str(flags.allow);
  if (typed !== undefined && typed.trim() === "") {
    throw new ConfigError('--allow needs command prefixes, e.g. --allow "npm test,git status".');
  }
  const fromFlag = (typed ?? "")
    .split(",")
    .map((r) => r.trim())
    .filter(Boolean);
  return [...new Set([...fromFlag, ...(file.allow ?? []).map((r) => r.trim()).filter(Boolean)])];
}

function resumeOf(flags: Flags): { resume?: Resume } {
  if (flags.continue === true && flags.resume === true) {
    throw new ConfigError("--continue and --resume pick a conversation each; pass one of them.");
  }
  if (flags.continue === true) return { resume: { kind: "last" } };
  if (flags.resume === true) return { resume: { kind: "pick" } };
  return {};
}

/** How to name the key's home in a message, e.g. `$ANTHROPIC_API_KEY`. */
export function describeKeySource(source: KeySource): string {
  return source.kind === "env" ? `$${source.name}` : `the key file ${source.path}`;
}

/**
 * The key, read now. Throws a ConfigError that says where to put it; the
 * message never contains the key.
 */
export function readKey(source: KeySource, env: Env = process.env): string {
  if (source.kind === "env") {
    const value = env[source.name]?.trim();
    if (!value) {
      throw new ConfigError(
        `no API key: $${source.name} is not set. Export it, or pass --key-file FILE (a file holding only the key).`,
      );
    }
    return value;
  }
  let value: string;
  try {
    value = readFileSync(source.path, "utf8").trim();
  } catch (error) {
    throw new ConfigError(
      `cannot read the key file ${source.path} (${(error as NodeJS.ErrnoException).code}). Check the path given with --key-file or key_file.`,
    );
  }
  if (value === "") throw new ConfigError(`the key file ${source.path} is empty.`);
  return value;
}

/** Replaces every copy of the key in `text`; short values are left alone (they would mangle output). */
export function redactKey(text: string, source: KeySource, env: Env = process.env): string {
  let key: string;
  try {
    key = readKey(source, env);
  } catch {
    return text;
  }
  return key.length >= 8 && text.includes(key) ? text.split(key).join("[redacted key]") : text;
}
