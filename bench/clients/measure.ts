/**
 * Runs one client end to end on a fresh temp project and pairs, call by
 * call, what splice's server answered (from the tap) with what the client
 * handed the model (from the fake provider): the ratio of their lengths is
 * how much more the model read than splice's text content.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ClientSpec } from "./clients.js";
import type { LoggedRequest } from "./http.js";
import { ensureInstalled } from "./install.js";
import { type Scenario, SPLICE_SCENARIO } from "./scenarios.js";
import { ScriptedModel, type Seen } from "./script.js";

const TAP = fileURLToPath(new URL("./tap.mjs", import.meta.url));
const BUILT = fileURLToPath(new URL("../../dist/cli-bundle/start.js", import.meta.url));
export const RUN_TIMEOUT_MS = 240_000;

/** One tools/call as the tap saw it. */
interface Tapped {
  name: string;
  arguments: unknown;
  result?: {
    content?: { type: string; text?: string }[];
    structuredContent?: unknown;
    isError?: boolean;
  };
}

export interface Row {
  tool: string;
  /** Characters of splice's text content for the call. */
  text: number;
  /** Characters the model was handed; undefined when the result never reached it. */
  seen: number | undefined;
  /** Characters of JSON.stringify(structuredContent), the other shape a client may pass on. */
  structured: number;
  isError: boolean;
  /** Which of the server's two shapes the model was handed, found by looking for each in it. */
  passed: Shape;
  /**
   * Characters the client adds around what it passed on (Claude Code's
   * system-reminder, Codex's "Wall time" header, Gemini's untrusted_context
   * tags): there whatever the server sends. Undefined when the shape was cut
   * or not found, so it cannot be told apart.
   */
  framing: number | undefined;
  /**
   * How many times the opening of splice's text is in what the model saw, as
   * itself or JSON-escaped: 1 when the model reads it once (0: never, or cut
   * before it; 2: a JSON copy beside the text repeats the message).
   */
  repeats: number;
}

/** One scripted call: splice's text for it and what the model was handed. */
export interface Pair {
  text: string;
  seen: string | undefined;
}

export interface ClientRun {
  client: ClientSpec;
  rows: Row[];
  seen: Seen[];
  /** Per step of the script, the texts compared (rows holds their lengths). */
  pairs: Pair[];
  /** Set when the run failed as a whole: no install, no build, a timeout, or a result that never reached the model. */
  failure?: string;
  /** Exit code and the tail of the client's output, for the failure message. */
  output: string;
  elapsedMs: number;
}

export const textOf = (result: Tapped["result"]) =>
  (result?.content ?? [])
    .map((c) => (c.type === "text" ? (c.text ?? "") : JSON.stringify(c)))
    .join("");

type Shape =
  | "text"
  | "text, cut"
  | "structuredContent"
  | "structuredContent, cut"
  | "text + structuredContent"
  | "other"
  | "none";

/** A shape counts as cut when its opening reached the model but not all of it. */
function passedShape(seen: string | undefined, text: string, structured: string): Shape {
  if (seen === undefined) return "none";
  const opening = (s: string) => s.slice(0, 200);
  const hasText = text !== "" && seen.includes(text);
  const hasStructured = structured.length > 2 && seen.includes(structured);
  if (hasText && hasStructured) return "text + structuredContent";
  if (hasText) return "text";
  if (hasStructured) return "structuredContent";
  if (text !== "" && seen.includes(opening(text))) return "text, cut";
  if (structured.length > 2 && seen.includes(opening(structured))) return "structuredContent, cut";
  return "other";
}

function framingOf(
  seen: string | undefined,
  shape: Shape,
  text: string,
  structured: string,
): number | undefined {
  if (seen === undefined) return undefined;
  const passed =
    shape === "text"
      ? text.length
      : shape === "structuredContent"
        ? structured.length
        : shape === "text + structuredContent"
          ? text.length + structured.length
          : undefined;
  return passed === undefined ? undefined : seen.length - passed;
}

/** See Row.repeats. */
export function repeatsOf(seen: string | undefined, text: string): number {
  if (seen === undefined || text === "") return 0;
  const opening = text.slice(0, 60);
  const escaped = JSON.stringify(opening).slice(1, -1);
  const count = (needle: string) => seen.split(needle).length - 1;
  return escaped === opening ? count(opening) : count(opening) + count(escaped);
}

function readTap(path: string): Tapped[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Tapped);
}

function runProcess(
  bin: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number | null; output: string; timedOut: boolean }> {
  return new Promise((resolve, reject) => {
    // Its own process group, so a timeout also ends the MCP server it started.
    const child = spawn(bin, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let output = "";
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString("utf8")).slice(-20_000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    let timedOut = false;
    const kill = () => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {}
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, RUN_TIMEOUT_MS);
    process.once("exit", kill);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      process.off("exit", kill);
      kill();
      resolve({ code, output, timedOut });
    });
  });
}

export interface RunOptions {
  scenario?: Scenario;
  /** Keep the temp folder (project, HOME, tap log, provider requests) and print where. */
  keep?: boolean;
  /** Looks at the project and the provider's requests after the client exits, before cleanup. */
  inspect?(project: string, requests: readonly LoggedRequest[]): void;
}

export async function runClient(client: ClientSpec, options: RunOptions = {}): Promise<ClientRun> {
  const scenario = options.scenario ?? SPLICE_SCENARIO;
  const start = performance.now();
  const elapsed = () => performance.now() - start;
  let installed: Awaited<ReturnType<typeof ensureInstalled>>;
  try {
    installed = await ensureInstalled(client.pkg, client.version, client.bin);
  } catch (error) {
    const failure = String(error);
    return { client, rows: [], seen: [], pairs: [], failure, output: "", elapsedMs: elapsed() };
  }
  if (scenario.needsBuild && !existsSync(BUILT)) {
    const failure = `splice is not built (${BUILT} is missing): run npm run build first.`;
    return { client, rows: [], seen: [], pairs: [], failure, output: "", elapsedMs: elapsed() };
  }
  const dir = mkdtempSync(join(tmpdir(), "splice-clients-"));
  try {
    const project = join(dir, "project");
    const home = join(dir, "home");
    mkdirSync(join(home, "tmp"), { recursive: true });
    scenario.makeProject(project);
    const model = new ScriptedModel(scenario.steps(project));
    const tap = join(dir, "tap.jsonl");
    const server = [process.execPath, TAP, tap, "--", ...scenario.server(project)];
    const provider = await client.startProvider(model);
    let result: Awaited<ReturnType<typeof runProcess>>;
    try {
      const launch = client.launch({ project, home, server, provider });
      result = await runProcess(installed.bin, launch.args, launch.env, project);
    } finally {
      await provider.close();
    }
    if (options.keep)
      writeFileSync(join(dir, "requests.json"), JSON.stringify(provider.requests, null, 1));
    options.inspect?.(project, provider.requests);
    const tapped = readTap(tap);
    const pairs: Pair[] = [];
    const rows = model.steps.map((step, i): Row => {
      // The k-th call of a tool in the script is its k-th call at the server.
      const k = model.steps.slice(0, i).filter((s) => s.tool === step.tool).length;
      const call = tapped.filter((t) => t.name === step.tool)[k];
      const seen = model.seen.find((s) => s.step === i);
      const text = textOf(call?.result);
      const structured = JSON.stringify(call?.result?.structuredContent ?? "");
      pairs.push({ text, seen: seen?.text });
      return {
        tool: step.tool,
        text: text.length,
        seen: seen?.text.length,
        structured: structured.length,
        isError: call?.result?.isError === true,
        passed: passedShape(seen?.text, text, structured),
        framing: framingOf(seen?.text, passedShape(seen?.text, text, structured), text, structured),
        repeats: repeatsOf(seen?.text, text),
      };
    });
    const output = `exit ${result.code}${result.timedOut ? " (timed out)" : ""}\n${result.output.slice(-4000)}`;
    let failure: string | undefined;
    const missing = rows.filter((r) => r.seen === undefined).map((r) => r.tool);
    if (result.timedOut)
      failure = `${client.name} did not finish within ${RUN_TIMEOUT_MS / 1000} s.`;
    else if (missing.length > 0) {
      const offered = model.missingTools[0]
        ? ` It offered the model: ${model.missingTools[0].join(", ")}.`
        : "";
      failure = `${client.name} never returned the result of ${missing.join(", ")} to the model (${provider.requests.length} requests to the fake provider, ${tapped.length} tools/call at the server).${offered}`;
    }
    if (options.keep) console.error(`kept ${dir}`);
    const run: ClientRun = { client, rows, seen: model.seen, pairs, output, elapsedMs: elapsed() };
    if (failure) run.failure = failure;
    return run;
  } finally {
    // Retried: the server it started may still be writing its history as the client exits.
    if (!options.keep)
      rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}
