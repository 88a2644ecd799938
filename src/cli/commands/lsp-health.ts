import { defineCommand } from "../define.js";

const STATUS_STYLE = {
  ready: "green",
  indexing: "yellow",
  starting: "yellow",
  not_started: "dim",
  crashed: "red",
  unavailable: "red",
} as const;

export const lspHealth = defineCommand({
  name: "lsp-health",
  summary: "the language servers that validate edits; --start, --restart",
  usage: "[LANGUAGE] [--language L] [--start | --restart]",
  description: `Shows, per language (typescript, python, go, rust, cpp), the server that
validates edits: its status, how it reports diagnostics, and how to install it
when it is missing. --start starts the servers (of LANGUAGE, or of the
languages whose project files sit at the root) and waits until they answer;
--restart stops and starts them. Each splice command is a fresh process, so
without --start the servers show as not started.`,
  args: [{ name: "LANGUAGE", description: "only this language's server", optional: true }],
  flags: {
    language: {
      type: "string",
      valueName: "L",
      description: "only this language's server (the same as LANGUAGE)",
    },
    start: { type: "boolean", description: "start the servers and wait until they answer" },
    restart: { type: "boolean", description: "stop the servers and start them again" },
  },
  examples: ["splice lsp-health", "splice lsp-health typescript --start"],
  async run({ splice, positionals, flags, paint }) {
    const language = flags.language ?? positionals[0];
    const action = flags.restart ? "restart" : flags.start ? "start" : "status";
    const json = await splice.lspHealth({ ...(language ? { language } : {}), action });
    const rows = json.servers.map((s) => {
      const status = paint(STATUS_STYLE[s.status], s.status.replace("_", " "));
      const facts = [
        s.strategy && `${s.strategy} diagnostics`,
        s.cold_start_ms !== undefined && `started in ${s.cold_start_ms} ms`,
        s.last_validation_ms !== undefined && `last validation ${s.last_validation_ms} ms`,
        s.restarts > 0 && `${s.restarts} restart(s)`,
        s.error && paint("red", s.error),
        (!s.installed || s.status === "unavailable") && paint("yellow", s.install_hint),
      ].filter(Boolean);
      const head = `${paint("bold", s.language.padEnd(10))} ${s.server.padEnd(26)} ${status}`;
      return facts.length > 0 ? `${head}\n${" ".repeat(11)}${facts.join("; ")}` : head;
    });
    const head = `Edit validation is ${json.validation_default ? "on" : "off"} by default.`;
    return { json, human: [head, ...rows].join("\n") };
  },
});
