import { defineCommand } from "../define.js";

export const agent = defineCommand({
  name: "agent",
  summary: "a terminal coding agent on any Anthropic-compatible model",
  usage:
    "[PROMPT] [--model M] [--base-url URL] [--key-file FILE] [--tools minimal|coding|full] [--yes] [--allow PREFIXES] [--continue | --resume [ID]]",
  description: `A line-oriented coding agent in this folder (or --root DIR, or a folder of
another machine: --remote box='ssh dev@box' --root box:/srv/app), on any model that
speaks the Anthropic Messages API. The model's text streams as it arrives.
With PROMPT it runs that turn first. It then reads further messages from stdin
until stdin ends (Ctrl-D), so "splice agent PROMPT < /dev/null" runs one turn
and exits (0, or 1 when the provider failed). A line ending in "\\" continues
on the next line; an empty line re-sends a message that failed; /exit leaves.

Calls that change files or run commands show their diff or command first and
ask: y (yes), n (no; anything after it, as in "n use tabs", is told to the
model as the reason), a (always allow that kind - file changes, or commands -
for the rest of the session). Calls that only read never ask. Piped
stdin answers the questions in order; at end of input a question is declined.

Ctrl-C stops the current turn (a running command and everything it started
are killed); a second Ctrl-C exits. AGENTS.md and CLAUDE.md in the folder are
sent as instructions. Each conversation is kept in .splice/agents/ (<id>.jsonl
to resume, <id>.txt to read; for a remote root, on this machine beside its
history, docs/remote.md). --continue resumes the one used last;
--resume lists them and asks which (--resume ID takes that one; the last
six characters of the id are enough).

Typed at the prompt and answered here, never sent to the model: /help,
/undo (the last change of this conversation), /diff (what it changed so
far), /tools, /exit. // starts a message that begins with a slash.

Settings, first found wins:
  model      --model, $SPLICE_MODEL, config "model", $ANTHROPIC_MODEL
  base URL   --base-url, $SPLICE_BASE_URL, config "base_url", $ANTHROPIC_BASE_URL
  key        --key-file, $SPLICE_KEY_FILE, $SPLICE_API_KEY, config "key_env" or
             "key_file", $ANTHROPIC_API_KEY
The config file is $SPLICE_CONFIG or ~/.config/splice/agent.json (JSON with
base_url, model, max_tokens, tools, key_file, key_env, allow - a list of
command prefixes - and price - {"input": 3, "output": 15} in dollars per
million tokens, for the cost shown after each turn; never the key itself).
At a terminal each turn ends with its tokens (and cost when the price is known).
The key is never printed, logged or written to the conversation files.`,
  args: [
    {
      name: "PROMPT",
      description: "the first message; the words are joined with spaces",
      optional: true,
      variadic: true,
    },
  ],
  flags: {
    model: {
      type: "string",
      valueName: "M",
      description: "model name (default claude-sonnet-5-5)",
    },
    "base-url": {
      type: "string",
      valueName: "URL",
      description: "provider address (default https://api.anthropic.com)",
    },
    "key-file": {
      type: "string",
      valueName: "FILE",
      description: "read the API key from FILE, afresh for every request",
    },
    tools: {
      type: "string",
      valueName: "SET",
      description: '"minimal" (default: read, list, search, edit, run), "coding" or "full"',
    },
    yes: {
      type: "boolean",
      description:
        "approve EVERY call without asking: the model may then change any file in the folder and run any command as you; use it only in a sandbox, a container, or a throwaway checkout",
    },
    allow: {
      type: "string",
      valueName: "PREFIXES",
      description:
        'commands run may start without asking, comma-separated, e.g. "npm test,git status": the prefix alone or with more arguments, never with shell syntax (; & | > < $ ` ( ) { } \\); added to the config\'s "allow"',
    },
    continue: {
      type: "boolean",
      description: "resume the conversation of this folder used last",
    },
    "no-watch": {
      type: "boolean",
      description:
        "do not watch the folder: changes made outside splice (your editor, a build) are then not kept in history nor told",
    },
    resume: {
      type: "boolean",
      description:
        "list this folder's conversations and pick one; an ID (or its last six characters) as the first word takes that one",
    },
  },
  json: false,
  examples: [
    'export ANTHROPIC_API_KEY=...; splice agent "fix the failing test"',
    "splice agent --base-url https://llm.example.com --key-file ~/.config/splice/key --model M",
    "splice agent --continue",
    'splice agent --resume 3f9a1c "and now the docs"',
  ],
  async run({ root, remotes, flags, positionals }) {
    // Loaded on demand: the other commands never pay for the model SDK.
    const { agentCommand } = await import("../agent.js");
    return agentCommand(root, flags, positionals, remotes);
  },
});
