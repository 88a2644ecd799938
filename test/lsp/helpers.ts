import { ServerRegistry } from "../../src/lsp/registry.js";
import type { LspOptions } from "../../src/lsp/validate.js";
import type { Splice } from "../../src/splice.js";
import type { LspHealthResult } from "../../src/tools/lsp-health/index.js";
import { Project } from "../helpers/project.js";

export const TSCONFIG = `${JSON.stringify({
  compilerOptions: {
    strict: true,
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    noEmit: true,
    types: [],
  },
  include: ["src"],
})}\n`;

/** Long enough for a cold start on a loaded CI machine; a healthy warm validation takes milliseconds. */
export const REAL_SERVER_TIMEOUT_MS = 45_000;

/** For describe(): a test that pays a cold start must outlast REAL_SERVER_TIMEOUT_MS. */
export const COLD = { timeout: 60_000 };

/** A project of one language with its own registry, so one warm server serves a whole test file. */
export function lspProject(files: Record<string, string>, lsp: LspOptions = {}) {
  const project = new Project();
  for (const [path, text] of Object.entries(files)) project.write(path, text);
  const registry = new ServerRegistry({ startTimeoutMs: REAL_SERVER_TIMEOUT_MS });
  // Tests check verdicts, not the latency budget for importers: give them all the time they need.
  const splice = project.splice({
    lsp: { registry, timeoutMs: REAL_SERVER_TIMEOUT_MS, otherFilesMs: 20_000, ...lsp },
  });
  return { project, registry, splice };
}

export async function health(splice: Splice, language?: string): Promise<LspHealthResult> {
  return (await splice.call("lsp_health", language ? { language } : {})) as LspHealthResult;
}

/** The numbered lines of a source text, joined. */
export const source = (...lines: string[]) => `${lines.join("\n")}\n`;
