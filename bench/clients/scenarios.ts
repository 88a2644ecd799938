/**
 * What a client run serves and plays: splice's own server on the project
 * script (the measurement), or the probe server, one call per result shape
 * (which shape each client passes on).
 */
import { fileURLToPath } from "node:url";
import { projectScript } from "./project.js";
import type { Step } from "./script.js";

const SPLICE = fileURLToPath(new URL("../../bin/splice", import.meta.url));
const PROBE = fileURLToPath(new URL("./probe-server.mjs", import.meta.url));
/** The probe's tools (probe-server.mjs), in the order they are called. */
export const PROBE_SHAPES = [
  "text_only",
  "text_and_structured",
  "declared_schema",
  "error_with_structured",
] as const;

export interface Scenario {
  name: string;
  /** True when the server is splice's, which must be built first. */
  needsBuild: boolean;
  /** The MCP server's command line for a project. */
  server(project: string): string[];
  steps(project: string): Step[];
}

export const SPLICE_SCENARIO: Scenario = {
  name: "splice",
  needsBuild: true,
  server: (project) => [process.execPath, SPLICE, "serve", "--root", project],
  steps: projectScript,
};

export const PROBE_SCENARIO: Scenario = {
  name: "probe",
  needsBuild: false,
  server: () => [process.execPath, PROBE],
  steps: () => PROBE_SHAPES.map((tool) => ({ tool, args: {} })),
};
