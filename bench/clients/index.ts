/**
 * `npm run bench -- clients`: what the model sees of splice's MCP results in
 * the real clients (Claude Code, Codex CLI, Gemini CLI), each run headless
 * against a fake provider on 127.0.0.1 that plays a scripted model.
 * SPLICE_CLIENTS=codex,gemini picks clients by name.
 */
import { defineBenchmark } from "../lib.js";
import { selectedClients } from "./clients.js";
import { type ClientRun, runClient } from "./measure.js";
import { formatRuns } from "./report.js";

defineBenchmark({
  name: "clients",
  description: "chars the model sees of splice's MCP results in Claude Code, Codex and Gemini CLI",
  async run() {
    const runs: ClientRun[] = [];
    for (const client of selectedClients(process.env.SPLICE_CLIENTS)) {
      const run = await runClient(client);
      console.log(`${client.name} ${client.version}: ${(run.elapsedMs / 1000).toFixed(1)} s`);
      runs.push(run);
    }
    console.log(`\n${formatRuns(runs)}`);
    if (runs.some((run) => run.failure)) process.exitCode = 1;
  },
});
