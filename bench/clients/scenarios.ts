/**
 * What a client run serves and plays: splice's own server on the project
 * script (the measurement), or the probe server, one call per result shape
 * (which shape each client passes on).
 */
import { fileURLToPath } from "node:url";
import { makeProject, projectScript } from "./project.js";
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

/** `splice serve` on a project, with any further flags. */
export const spliceServe = (project: string, ...flags: string[]) => [
  process.execPath,
  SPLICE,
  "serve",
  "--root",
  project,
  ...flags,
];

export interface Scenario {
  name: string;
  /** True when the server is splice's, which must be built first. */
  needsBuild: boolean;
  /** Fills the fresh temp project the client runs in. */
  makeProject(dir: string): void;
  /** The MCP server's command line for a project. */
  server(project: string): string[];
  steps(project: string): Step[];
}

export const SPLICE_SCENARIO: Scenario = {
  name: "splice",
  needsBuild: true,
  makeProject,
  server: (project) => spliceServe(project),
  steps: projectScript,
};

export const PROBE_SCENARIO: Scenario = {
  name: "probe",
  needsBuild: false,
  makeProject,
  server: () => [process.execPath, PROBE],
  steps: () => PROBE_SHAPES.map((tool) => ({ tool, args: {} })),
};
