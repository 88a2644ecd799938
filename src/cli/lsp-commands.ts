/**
 * `splice lsp-health`: the language servers behind edit validation, per
 * language. Each CLI run is a fresh process, so `--start` starts the servers
 * of the root's languages and shows how they came up.
 */
import type { LspHealthResult } from "../tools/lsp-health/index.js";
import type { CommandInput, CommandOutput } from "./commands.js";

const STATUS_STYLE = {
  ready: "green",
  indexing: "yellow",
  starting: "yellow",
  not_started: "dim",
  crashed: "red",
  unavailable: "red",
} as const;

export const lspCommands: Record<string, (input: CommandInput) => Promise<CommandOutput>> = {
  async "lsp-health"(input) {
    const { flags, paint } = input;
    const language = typeof flags.language === "string" ? flags.language : input.positionals[0];
    const action = flags.restart ? "restart" : flags.start ? "start" : "status";
    const json = (await input.splice.call("lsp_health", {
      ...(language ? { language } : {}),
      action,
    })) as LspHealthResult;
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
};
