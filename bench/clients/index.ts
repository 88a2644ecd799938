/**
 * `npm run bench -- clients`: what the model sees of splice's MCP results in
 * the real clients (Claude Code, Codex CLI, Gemini CLI), each run headless
 * against a fake provider on 127.0.0.1 that plays a scripted model.
 * SPLICE_CLIENTS=codex,gemini picks clients by name. A second run per client
 * against a probe server shows which result shape each one passes on.
 * `npm run bench -- client-outputs`: large results and each client's limit (outputs.ts).
 */
import { defineBenchmark } from "../lib.js";
import { selectedClients } from "./clients.js";
import { type ClientRun, runClient } from "./measure.js";
import { formatLimits, formatOutputs, LIMITS_SCENARIO, OUTPUTS_SCENARIO } from "./outputs.js";
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

defineBenchmark({
  name: "client-outputs",
  description: "large results (reads, search, run, patch) and each client's own output limit",
  async run() {
    const outputs: ClientRun[] = [];
    const limits: ClientRun[] = [];
    for (const client of selectedClients(process.env.SPLICE_CLIENTS)) {
      outputs.push(await runClient(client, { scenario: OUTPUTS_SCENARIO }));
      limits.push(await runClient(client, { scenario: LIMITS_SCENARIO }));
      const [o, l] = [outputs.at(-1)!, limits.at(-1)!];
      console.log(
        `${client.name} ${client.version}: ${(o.elapsedMs / 1000).toFixed(1)} s, limits ${(l.elapsedMs / 1000).toFixed(1)} s`,
      );
    }
    console.log(`\n${formatOutputs(outputs)}`);
    console.log(`\n${formatLimits(limits)}`);
    if ([...outputs, ...limits].some((run) => run.failure)) process.exitCode = 1;
  },
});
