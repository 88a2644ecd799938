/**
 * Which command lines the engine runs (engine/server.ts): the commands that
 * work on one root and end, and `serve`. The rest run in the `splice`
 * process itself: the agent and the review page own the terminal or a
 * browser, `lang` installs packages, and `engine` is about the engine. Kept apart from the commands
 * so the thin client loads none.
 */
export const ENGINE_COMMANDS: ReadonlySet<string> = new Set([
  "read",
  "search",
  "list",
  "outline",
  "ast",
  "rename",
  "edit",
  "write",
  "patch",
  "plan",
  "mv",
  "rm",
  "doc",
  "md",
  "tidy",
  "undo",
  "rollback",
  "history",
  "checkpoint",
  "run",
  "call",
  "lsp-health",
  "gc",
  // An MCP server (stdio or HTTP) is a client of the engine like any command: every client on
  // a repository (Claude Code, Codex, the command line) shares its language servers and watch.
  "serve",
]);

/** The flag that keeps a command in this process. */
const NO_ENGINE = "--no-engine";

/** How a command line runs: in the engine, or here (and why, for --verbose). */
export function routeOf(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
): { engine: true } | { engine: false; why: string } {
  if (argv.includes(NO_ENGINE)) return { engine: false, why: `${NO_ENGINE} was given` };
  if (env.SPLICE_ENGINE === "0") return { engine: false, why: "SPLICE_ENGINE=0 is set" };
  const name = argv.find((a) => !a.startsWith("-"));
  if (name === undefined || !ENGINE_COMMANDS.has(name)) {
    return { engine: false, why: `${name ?? "this"} runs in its own process` };
  }
  return { engine: true };
}
