/**
 * A conversation kept per folder, in its state folder's `agents/` (util/state-folder.ts):
 *
 * - `<id>.jsonl`: append-only, one event per line: `start`, every `message`
 *   exactly as sent to the model, and a `call` line per tool call (summary and
 *   status). `--continue` rebuilds the messages from it.
 * - `<id>.txt`: the same conversation for people to read: what was asked,
 *   what the model said, and one line per tool call with its status.
 *
 * Ids start with a UTC time stamp of the start; `--continue` takes the one
 * whose file was written last (the one used last), `--resume` lists them. A
 * line cut short by a crash is skipped on load, and a tool call that never got
 * its result is answered as "not run", so a resumed conversation is always
 * one the Messages API accepts.
 */

import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
} from "node:fs";
import { dirname, join } from "node:path";
import type Anthropic from "@anthropic-ai/sdk";
import { randomId } from "../util/ids.js";
import { agentsFolderOf } from "../util/state-folder.js";

export type Block = Anthropic.Messages.ContentBlockParam;
export type ToolResultBlock = Anthropic.Messages.ToolResultBlockParam;

export interface Message {
  role: "user" | "assistant";
  content: Block[];
}

export interface StartInfo {
  model: string;
  base_url: string;
  tools: string;
}

export type CallStatus = string;

const NOT_RUN =
  "not run: the agent stopped before this call ran. Call it again if it is still needed.";

function newId(): string {
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `${stamp}-${randomId(3)}`;
}

/** Appends `message` to `messages`, merging it into the last one when both have the same role. */
function push(messages: Message[], message: Message): void {
  const last = messages.at(-1);
  if (last && last.role === message.role) last.content.push(...message.content);
  else messages.push({ role: message.role, content: [...message.content] });
}

const toolUseIds = (m: Message) => m.content.flatMap((b) => (b.type === "tool_use" ? [b.id] : []));

/** Every tool_use gets a tool_result right after it; missing ones say the call never ran. */
export function repair(messages: Message[]): Message[] {
  const out: Message[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    out.push(message);
    if (message.role !== "assistant") continue;
    const ids = toolUseIds(message);
    if (ids.length === 0) continue;
    const next = messages[i + 1];
    const answered = new Set(
      next?.role === "user"
        ? next.content.flatMap((b) => (b.type === "tool_result" ? [b.tool_use_id] : []))
        : [],
    );
    const missing: ToolResultBlock[] = ids
      .filter((id) => !answered.has(id))
      .map((id) => ({ type: "tool_result", tool_use_id: id, content: NOT_RUN, is_error: true }));
    if (missing.length === 0) continue;
    if (next?.role === "user") next.content.unshift(...missing);
    else out.push({ role: "user", content: missing });
  }
  return out;
}

export interface ConversationInfo {
  id: string;
  /** When its file was last written. */
  usedAt: Date;
  messages: number;
  /** The person's first words. */
  first: string;
}

/** The messages a conversation file holds; a line cut short by a crash is skipped. */
function load(file: string): Message[] {
  const messages: Message[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    let event: { type?: string; message?: Message };
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    const m = event.message;
    if (event.type === "message" && m && Array.isArray(m.content)) push(messages, m);
  }
  return messages;
}

export class Conversation {
  readonly id: string;
  readonly messages: Message[];
  readonly #jsonl: string;
  readonly #txt: string;
  /** Written before the first real line, so a session that says nothing leaves no file. */
  #header: { event: Record<string, unknown>; line: string } | undefined;

  private constructor(
    dir: string,
    id: string,
    messages: Message[],
    kind: "start" | "resume",
    info: StartInfo,
  ) {
    this.id = id;
    this.messages = messages;
    this.#jsonl = join(dir, `${id}.jsonl`);
    this.#txt = join(dir, `${id}.txt`);
    const at = new Date().toISOString();
    const title = kind === "start" ? "# splice agent" : "\n# resumed";
    this.#header = {
      event: { type: kind, at, ...info },
      line: `${title} · ${at} · ${info.model} · ${info.base_url}`,
    };
  }

  static start(root: string, info: StartInfo): Conversation {
    return new Conversation(agentsFolderOf(root), newId(), [], "start", info);
  }

  /** This root's conversations, the one used last first. */
  static list(root: string): ConversationInfo[] {
    const dir = agentsFolderOf(root);
    if (!existsSync(dir)) return [];
    const found: ConversationInfo[] = [];
    for (const name of readdirSync(dir)) {
      if (!name.endsWith(".jsonl")) continue;
      let usedAt: Date;
      try {
        usedAt = statSync(join(dir, name)).mtime;
      } catch {
        continue; // Removed meanwhile.
      }
      const messages = load(join(dir, name));
      const first = messages.find((m) => m.role === "user")?.content.find((b) => b.type === "text");
      found.push({
        id: name.slice(0, -".jsonl".length),
        usedAt,
        messages: messages.length,
        first: first?.type === "text" ? first.text : "",
      });
    }
    return found.sort((a, b) => b.usedAt.getTime() - a.usedAt.getTime() || (a.id < b.id ? 1 : -1));
  }

  /** The conversation `id`, else the one used last; undefined when there is none. */
  static resume(root: string, info: StartInfo, id?: string): Conversation | undefined {
    const dir = agentsFolderOf(root);
    const pick = id ?? Conversation.list(root)[0]?.id;
    if (pick === undefined || !existsSync(join(dir, `${pick}.jsonl`))) return undefined;
    return new Conversation(dir, pick, repair(load(join(dir, `${pick}.jsonl`))), "resume", info);
  }

  /** The last message, when it is the person's and still waits for an answer. */
  get pending(): boolean {
    return this.messages.at(-1)?.role === "user";
  }

  add(message: Message): void {
    if (message.content.length === 0) return;
    push(this.messages, message);
    this.#event({ type: "message", message });
  }

  /** A person's words, for the readable transcript (the message itself goes through `add`). */
  said(text: string): void {
    this.#text(`\n> ${text.replace(/\n/g, "\n> ")}\n`);
  }

  /** The model's text of one reply. */
  answered(text: string): void {
    if (text.trim()) this.#text(text.trimEnd());
  }

  call(id: string, summary: string, status: CallStatus): void {
    this.#event({ type: "call", id, summary, status });
    this.#text(callLine(summary, status));
  }

  notice(line: string): void {
    this.#event({ type: "notice", line });
    this.#text(`[${line}]`);
  }

  #event(event: Record<string, unknown>): void {
    this.#open();
    appendFileSync(this.#jsonl, `${JSON.stringify(event)}\n`, { mode: 0o600 });
  }

  #text(line: string): void {
    this.#open();
    appendFileSync(this.#txt, `${line}\n`, { mode: 0o600 });
  }

  #open(): void {
    const header = this.#header;
    if (!header) return;
    this.#header = undefined;
    mkdirSync(dirname(this.#jsonl), { recursive: true });
    this.#event(header.event);
    this.#text(header.line);
  }
}

/** `[ok] read a.txt`, `[declined] edit a.txt: use tabs`: the same in the terminal and the transcript. */
export function callLine(summary: string, status: CallStatus): string {
  const [head, ...rest] = status.split(": ");
  return rest.length > 0 ? `[${head}] ${summary}: ${rest.join(": ")}` : `[${head}] ${summary}`;
}
