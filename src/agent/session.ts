/**
 * The agent's read-eval loop: read a message, run a turn, repeat until input
 * ends or the person leaves. Ctrl-C during a turn stops that turn (streaming,
 * a retry wait, an approval question or a running command); a second Ctrl-C
 * before the next message exits. Ctrl-C at an empty prompt says how to leave.
 */
import Anthropic from "@anthropic-ai/sdk";
import { anthropicTools } from "../hosts/anthropic.js";
import {
  createToolkit,
  outsideLine,
  type Remotes,
  remotePath,
  type Toolkit,
} from "../toolkit/index.js";
import { remoteMirrorOf } from "../util/state-folder.js";
import { Approvals } from "./approvals.js";
import {
  type AgentConfig,
  DEFAULT_BASE_URL,
  describeKeySource,
  readKey,
  redactKey,
} from "./config.js";
import { buildInstructions } from "./instructions.js";
import { EXIT_INTERRUPTED, EXIT_TERMINATED, Interrupts } from "./interrupts.js";
import { type AgentDeps, runTurn, type TurnOutcome } from "./loop.js";
import { runSlash, type SlashDeps, slashCommand } from "./slash.js";
import { printable, type Terminal } from "./terminal.js";
import { Conversation } from "./transcript.js";

export interface SessionOptions {
  /** A folder here, or `HOST:PATH` on a host of `remotes`. */
  root: string;
  /** The remote hosts by name (--remote and `.splice/config.json`). */
  remotes?: Remotes;
  config: AgentConfig;
  /** The first message, from the command line. */
  prompt?: string;
  terminal: Terminal;
}

/** A message, joining lines that end in a backslash. */
async function readMessage(terminal: Terminal, signal: AbortSignal) {
  let text = "";
  for (let prompt = "> "; ; prompt = "… ") {
    const answer = await terminal.prompt(prompt, signal);
    if (answer.kind !== "line") return text ? { kind: "line" as const, text } : answer;
    if (!answer.text.endsWith("\\")) return { kind: "line" as const, text: text + answer.text };
    text += `${answer.text.slice(0, -1)}\n`;
  }
}

/**
 * Where a root's conversations are kept: under the root; for a remote root,
 * on this machine beside its history (keyed by host), as history is.
 */
export function conversationsHome(root: string, remotes: Remotes = {}): string {
  const remote = remotePath(root, remotes);
  return remote ? remoteMirrorOf(remote.host, remote.path) : root;
}

/** Everything a turn needs: the toolkit, the model client and the request's fixed parts. */
async function connect(
  root: string,
  remotes: Remotes,
  config: AgentConfig,
  conversation: Conversation,
  terminal: Terminal,
): Promise<{ deps: AgentDeps; instructionFiles: string[]; local: () => Toolkit }> {
  // One history session per conversation: its reads vouch for its edits, across --continue.
  const history = { session: `agent-${conversation.id}` };
  const toolkit = createToolkit({
    root,
    remotes,
    tools: config.tools,
    history,
    watch: config.watch,
    // Commands the model runs do not inherit the key (redacting output alone is easy to get past).
    ...(config.key.kind === "env" ? { hidden_env: [config.key.name] } : {}),
  });
  // Its changes say who made them (undo's list, the review page): this agent and its model.
  const agentName = `splice agent (${config.model})`;
  toolkit.nameClient(agentName);
  // /undo and /diff need the undo tool whatever the model's tool set; the same history session.
  let local: Toolkit | undefined;
  const localToolkit = () => {
    local ??= createToolkit({ root, remotes, tools: "full", history, validate: false });
    local.nameClient(agentName);
    return local;
  };
  const instructions = await buildInstructions(toolkit);
  const client = new Anthropic({
    // Read afresh for every request; the SDK never holds the key itself.
    apiKey: async () => readKey(config.key),
    baseURL: config.baseURL,
    maxRetries: 0,
    logLevel: "off",
  });
  const deps: AgentDeps = {
    client,
    params: {
      model: config.model,
      max_tokens: config.maxTokens,
      system: instructions.system,
      tools: anthropicTools(toolkit),
      // Prompt caching as Anthropic offers it; other providers get a plain request.
      ...(config.baseURL === DEFAULT_BASE_URL
        ? { cache_control: { type: "ephemeral" as const } }
        : {}),
    },
    toolkit,
    approvals: new Approvals(config.yes, config.allow),
    terminal,
    conversation,
    problemContext: {
      baseURL: config.baseURL,
      model: config.model,
      keyHome: describeKeySource(config.key),
    },
    redact: (text) => redactKey(text, config.key),
    ...(config.price ? { price: config.price } : {}),
  };
  return { deps, instructionFiles: instructions.files, local: localToolkit };
}

/** What a person sees first at a terminal; a script sees only a resume note. */
function banner(
  terminal: Terminal,
  config: AgentConfig,
  conversation: Conversation,
  files: string[],
): void {
  const resumed = conversation.messages.length;
  if (!terminal.interactive) {
    if (config.resume && resumed > 0) {
      terminal.line(`[resumed conversation ${conversation.id}: ${resumed} messages]`);
    }
    return;
  }
  const yes = config.yes ? " · --yes: every call approved" : "";
  const sent = files.length > 0 ? ` · instructions: ${files.join(", ")}` : "";
  const again = resumed > 0 ? ` (resumed, ${resumed} messages)` : "";
  terminal.line(
    terminal.paint(
      "dim",
      `splice agent · ${config.model} · ${config.tools} tools${yes}${sent}\n` +
        `conversation ${conversation.id}${again} · Ctrl-C stops a turn, twice exits · Ctrl-D or /exit leaves`,
    ),
  );
}

type Choice = { kind: "new" } | { kind: "id"; id: string } | { kind: "none"; code: number };

const shortText = (text: string) => {
  const line = printable(text.replace(/\s+/g, " ").trim());
  return line.length > 50 ? `${line.slice(0, 49)}…` : line;
};

/** Which conversation to go on with: the newest used, the one named, or one the person picks. */
async function chooseConversation(
  root: string,
  config: AgentConfig,
  terminal: Terminal,
  signal: AbortSignal,
): Promise<Choice> {
  const resume = config.resume;
  if (!resume) return { kind: "new" };
  const all = Conversation.list(root);
  if (all.length === 0) {
    terminal.line("[no earlier conversation in this folder; starting a new one]");
    return { kind: "new" };
  }
  if (resume.kind === "last") return { kind: "id", id: all[0]!.id };
  if (resume.kind === "id") {
    const found = all.filter((c) => c.id === resume.id || c.id.endsWith(`-${resume.id}`));
    if (found.length === 1) return { kind: "id", id: found[0]!.id };
    terminal.error(
      `splice agent: no conversation ${resume.id} in this folder; run splice agent --resume to list them.`,
    );
    return { kind: "none", code: 2 };
  }
  const width = String(all.length).length;
  const rows = all.map((c, i) => {
    const used = c.usedAt.toISOString().slice(0, 16).replace("T", " ");
    const count = `${c.messages} message${c.messages === 1 ? "" : "s"}`;
    return `  ${String(i + 1).padStart(width)}  ${c.id}  ${used}  ${count.padEnd(12)}  ${shortText(c.first)}`;
  });
  terminal.line(["Conversations in this folder, used last first (UTC):", ...rows].join("\n"));
  for (;;) {
    const answer = await terminal.ask(`Resume which? [1-${all.length}, Enter for 1]: `, signal);
    if (answer.kind === "interrupted") return { kind: "none", code: EXIT_INTERRUPTED };
    if (answer.kind === "end") {
      terminal.error("splice agent: no conversation chosen.");
      return { kind: "none", code: 2 };
    }
    const t = answer.text.trim();
    const n = t === "" ? 1 : Number(t);
    if (Number.isInteger(n) && n >= 1 && n <= all.length) return { kind: "id", id: all[n - 1]!.id };
    const byId = all.filter((c) => t.length >= 6 && c.id.endsWith(t));
    if (byId.length === 1) return { kind: "id", id: byId[0]!.id };
    terminal.line(`Answer a number from 1 to ${all.length}, or an id from the list.`);
  }
}

/**
 * The conversation to go on with: the one the person picks, or a new one; a
 * number is the exit code when none was chosen (interrupted, ended).
 */
async function openConversation(options: SessionOptions): Promise<Conversation | number> {
  const { root, config, terminal, remotes = {} } = options;
  const home = conversationsHome(root, remotes);
  const info = { model: config.model, base_url: config.baseURL, tools: config.tools };
  const picking = new AbortController();
  let stopped = EXIT_INTERRUPTED;
  terminal.onInterrupt(() => picking.abort());
  terminal.onExit(() => {
    stopped = EXIT_TERMINATED;
    picking.abort();
  });
  const chosen = await chooseConversation(home, config, terminal, picking.signal);
  if (chosen.kind === "none") return chosen.code === EXIT_INTERRUPTED ? stopped : chosen.code;
  return (
    (chosen.kind === "id" ? Conversation.resume(home, info, chosen.id) : undefined) ??
    Conversation.start(home, info)
  );
}

export async function runSession(options: SessionOptions): Promise<number> {
  const { root, config, terminal, remotes = {} } = options;
  const conversation = await openConversation(options);
  if (typeof conversation === "number") return conversation;
  const { deps, instructionFiles, local } = await connect(
    root,
    remotes,
    config,
    conversation,
    terminal,
  );
  /** What the model is told with the next message (what /undo changed). */
  const notes: string[] = [];
  const slashDeps: SlashDeps = {
    terminal,
    toolkit: deps.toolkit,
    local,
    tell: (note) => {
      notes.push(note);
      conversation.notice(note);
    },
    approvals: () => deps.approvals.standing(),
  };

  // A change made outside (the person's editor, a build): one line now, and the model hears it next.
  deps.toolkit.events.on((event) => {
    if (event.type !== "outside_changes") return;
    const line = outsideLine(deps.toolkit.root, event);
    terminal.line(terminal.paint("dim", `[${line}]`));
    notes.push(line);
  });

  let leave: (code: number) => void = () => {};
  const left = new Promise<number>((resolve) => {
    leave = resolve;
  });
  const idle = new AbortController();
  const interrupts = new Interrupts(terminal, () => leave(EXIT_INTERRUPTED));
  terminal.onInterrupt(() => interrupts.press());
  terminal.onExit(() => leave(EXIT_TERMINATED));

  banner(terminal, config, conversation, instructionFiles);

  const chat: Chat = {
    terminal,
    conversation,
    deps,
    slashDeps,
    notes,
    interrupts,
    idle: idle.signal,
  };
  const code = await Promise.race([converse(chat, options.prompt), left]);
  interrupts.stopAll();
  idle.abort();
  terminal.endLine();
  await deps.toolkit.close();
  return code;
}

/** What the message loop works with. */
interface Chat {
  terminal: Terminal;
  conversation: Conversation;
  deps: AgentDeps;
  slashDeps: SlashDeps;
  /** What the model is told with the next message. */
  notes: string[];
  interrupts: Interrupts;
  /** Aborted when the session ends, so a pending read stops. */
  idle: AbortSignal;
}

/** Message after message until the person leaves; the exit code. */
async function converse(chat: Chat, prompt: string | undefined): Promise<number> {
  const { terminal, conversation, deps, interrupts } = chat;
  let first = prompt;
  let last: TurnOutcome = "done";
  for (;;) {
    let text: string;
    if (first !== undefined) {
      text = first;
      first = undefined;
    } else {
      const answer = await readMessage(terminal, chat.idle);
      if (answer.kind === "end") return last === "failed" ? 1 : 0;
      if (answer.kind === "interrupted") return EXIT_INTERRUPTED;
      text = answer.text;
    }
    interrupts.reset();
    if (text.trim() === "/exit") return 0;
    const slash = slashCommand(text);
    if (slash) {
      await runSlash(chat.slashDeps, slash.name);
      continue;
    }
    // "//etc is empty" is a message that starts with a slash.
    if (text.trimStart().startsWith("//")) text = text.trimStart().slice(1);
    if (text.trim() === "") {
      // An empty line sends the waiting message again (after a provider error).
      if (!conversation.pending) continue;
    } else {
      const told = chat.notes.splice(0).map((n) => ({ type: "text" as const, text: `[${n}]` }));
      conversation.add({ role: "user", content: [...told, { type: "text", text }] });
      conversation.said(text);
    }
    const signal = interrupts.begin();
    last = await runTurn(deps, signal);
    interrupts.end();
    afterTurn(terminal, conversation, last);
  }
}

/** What the person is told when a turn stopped early or failed. */
function afterTurn(terminal: Terminal, conversation: Conversation, last: TurnOutcome): void {
  if (last === "interrupted") {
    const note = "interrupted: the turn stopped";
    terminal.line(
      terminal.paint("yellow", `[${note}; type your next message, or Ctrl-C again to exit]`),
    );
    conversation.notice(note);
  } else if (last === "failed" && terminal.interactive) {
    terminal.line(terminal.paint("dim", "[your message is kept: press Enter to send it again]"));
  }
}
