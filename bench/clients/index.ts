/**
 * `npm run bench -- clients`: what the model sees of splice's MCP results in
 * the real clients (Claude Code, Codex CLI, Gemini CLI), each run headless
 * against a fake provider on 127.0.0.1 that plays a scripted model.
 * SPLICE_CLIENTS=codex,gemini picks clients by name. A second run per client
 * against a probe server shows which result shape each one passes on.
 */
import { defineBenchmark } from "../lib.js";
import { selectedClients } from "./clients.js";
import { type ClientRun, runClient } from "./measure.js";
import { formatProbe, formatRuns } from "./report.js";
import { PROBE_SCENARIO, PROBE_SHAPES } from "./scenarios.js";

defineBenchmark({
  name: "clients",
  description: "chars the model sees of splice's MCP results in Claude Code, Codex and Gemini CLI",
  async run() {
    const runs: ClientRun[] = [];
    const probes: ClientRun[] = [];
    for (const client of selectedClients(process.env.SPLICE_CLIENTS)) {
      const run = await runClient(client);
      const probe = await runClient(client, { scenario: PROBE_SCENARIO });
      const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      console.log(
        `${client.name} ${client.version}: ${seconds(run.elapsedMs)}, probe ${seconds(probe.elapsedMs)}`,
      );
      runs.push(run);
      probes.push(probe);
    }
    console.log(`\n${formatRuns(runs)}`);
    console.log(`\n${formatProbe(probes, PROBE_SHAPES)}`);
    if ([...runs, ...probes].some((run) => run.failure)) process.exitCode = 1;
  },
});
