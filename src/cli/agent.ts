/**
 * `splice agent [PROMPT]`: a line-oriented coding agent on any
 * Anthropic-compatible model. Setup problems (no key, a bad flag or config)
 * are one line on stderr and exit 2; everything else is the session's.
 */
import { CONVERSATION_ID, ConfigError, readKey, resolveConfig } from "../agent/config.js";
import { runSession } from "../agent/session.js";
import { Terminal } from "../agent/terminal.js";
import type { Remotes } from "../workspace/remote/hosts.js";

type Flags = Record<string, string | boolean | undefined>;

export async function agentCommand(
  root: string,
  flags: Flags,
  positionals: string[],
  remotes: Remotes = {},
): Promise<number> {
  let config: ReturnType<typeof resolveConfig>;
  try {
    config = resolveConfig(flags);
    // Fail now rather than at the first request; the value is not kept.
    readKey(config.key);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`splice agent: ${error.message}\nSee: splice agent --help\n`);
    return 2;
  }
  // `--resume ID [PROMPT]`: an id right after --resume names the conversation.
  let words = positionals;
  if (config.resume?.kind === "pick" && CONVERSATION_ID.test(positionals[0] ?? "")) {
    config.resume = { kind: "id", id: positionals[0]! };
    words = positionals.slice(1);
  }
  const prompt = words.join(" ").trim();
  const terminal = new Terminal({
    input: process.stdin,
    output: process.stdout,
    errors: process.stderr,
  });
  const restore = warnOnce();
  try {
    return await runSession({ root, remotes, config, terminal, ...(prompt ? { prompt } : {}) });
  } finally {
    restore();
    terminal.close();
  }
}

/**
 * The SDK warns on stderr before every request (e.g. that a model is
 * deprecated); in a chat that repeats at every tool call. Each warning is
 * shown once per session instead.
 */
function warnOnce(): () => void {
  const original = console.warn;
  const seen = new Set<string>();
  console.warn = (...args: unknown[]) => {
    const key = args.map(String).join(" ");
    if (seen.has(key)) return;
    seen.add(key);
    original(...args);
  };
  return () => {
    console.warn = original;
  };
}
