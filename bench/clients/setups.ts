/**
 * The set-ups docs/clients.md gives for Claude Code, Codex CLI and Gemini
 * CLI, read out of that page (each block follows a `<!-- setup: CLIENT NAME -->`
 * line), so what the test runs is the text a person copies. Each client runs
 * headless twice: with the documented command that only reads, and with the
 * one that also allows splice's writing tools. The harness adds only what a
 * fake provider needs (its URL, a key, a model name) and the path of splice.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type ClientSpec, claudeCode, codex, geminiCli, type Launch } from "./clients.js";
import { offeredTools } from "./fake-openai.js";
import type { LoggedRequest } from "./http.js";
import { makeProject } from "./project.js";
import type { Scenario } from "./scenarios.js";
import type { Step } from "./script.js";

const DOC = fileURLToPath(new URL("../../docs/clients.md", import.meta.url));
const SPLICE_IN_DOCS = "/ABS/PATH/splice/bin/splice";
const SPLICE = fileURLToPath(new URL("./splice-no-engine.sh", import.meta.url));

export type SetupClient = "claude" | "codex" | "gemini";
export type Variant = "headless" | "headless-writes";

/** Every `<!-- setup: CLIENT NAME -->` block of the page: NAME is a file path or a command's name. */
export function setupBlocks(doc = readFileSync(DOC, "utf8")): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const m of doc.matchAll(/<!-- setup: (\w+) (\S+) -->\n```\w*\n([\s\S]*?)\n```/g)) {
    blocks.set(`${m[1]} ${m[2]}`, m[3]!);
  }
  return blocks;
}

/** A command line as sh reads it: words, with '…' and "…" quoting (no escapes, no variables). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/(?:'[^']*'|"[^"]*"|[^\s'"]+)+/g)) {
    words.push(m[0].replace(/'([^']*)'|"([^"]*)"/g, (_, a, b) => a ?? b));
  }
  return words;
}

function block(blocks: Map<string, string>, key: string): string {
  const text = blocks.get(key);
  if (text === undefined) throw new Error(`docs/clients.md has no "<!-- setup: ${key} -->" block`);
  return text.replaceAll(SPLICE_IN_DOCS, SPLICE);
}

/** The client's own file tools each set-up hides, as the client names them to its model. */
export const HIDDEN: Record<SetupClient, string[]> = {
  claude: ["Read", "Edit", "Write", "NotebookEdit", "Glob", "Grep"],
  codex: ["exec_command", "shell", "apply_patch"],
  gemini: [
    "read_file",
    "read_many_files",
    "write_file",
    "replace",
    "glob",
    "grep_search",
    "list_directory",
  ],
};

const SPECS: Record<SetupClient, ClientSpec> = { claude: claudeCode, codex, gemini: geminiCli };

function writeFile(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${text}\n`);
}

/** The documented files in place and the documented command, plus what the fake provider needs. */
function launchSetup(client: SetupClient, variant: Variant, spec: ClientSpec): ClientSpec {
  const blocks = setupBlocks();
  const [, ...args] = shellWords(block(blocks, `${client} ${variant}`));
  return {
    ...spec,
    launch(context): Launch {
      const { project, home } = context;
      // The harness's own launch: its environment (provider URL, key, scratch HOME).
      const harness = spec.launch(context);
      for (const key of blocks.keys()) {
        const [owner, name] = key.split(" ") as [string, string];
        if (owner !== client || name.startsWith("headless")) continue;
        if (client === "codex" && name === "config.toml") continue;
        // `~/…` is the user's folder (the scratch HOME here), anything else the project's.
        const path = name.startsWith("~/") ? join(home, name.slice(2)) : join(project, name);
        writeFile(path, block(blocks, key));
      }
      if (client === "claude") {
        // A project whose trust question was answered once, as a person does on the first start:
        // until then Claude Code takes the deny rules of its .claude/settings.json but not the allow.
        writeFile(
          join(home, ".claude", ".claude.json"),
          JSON.stringify({ projects: { [project]: { hasTrustDialogAccepted: true } } }),
        );
        // Claude Code connects a project's servers in the background: the first turn may go out
        // before splice's tools are there. The scripted model cannot wait, so the harness does.
        const env = { ...harness.env, MCP_CONNECTION_NONBLOCKING: "false" };
        return { args: [...args, "--output-format", "json", "--max-turns", "20"], env };
      }
      if (client === "codex") {
        const config = join(home, ".codex", "config.toml");
        // The fake provider and a model it plays, then the documented block as it stands.
        const harnessConfig = readFileSync(config, "utf8")
          .replace(/\[mcp_servers\.splice\][\s\S]*?\n(?=\[)/, "")
          .replace(/^approval_policy = .*\n/m, "");
        writeFile(config, `${harnessConfig}\n${block(blocks, "codex config.toml")}`);
        const wait = ["-c", "mcp_servers.splice.required=true"];
        const [exec, ...rest] = args;
        return {
          args: [exec!, ...wait, "--skip-git-repo-check", "--json", ...rest],
          env: harness.env,
        };
      }
      // Gemini CLI: the user's settings keep only the fake provider's auth; the project's hold splice.
      writeFile(
        join(home, ".gemini", "settings.json"),
        JSON.stringify({
          security: { auth: { selectedType: "gemini-api-key" } },
          telemetry: { enabled: false },
          privacy: { usageStatisticsEnabled: false },
          general: { disableAutoUpdate: true, disableUpdateNag: true },
        }),
      );
      return {
        args: [...args, "--output-format", "json", "-m", "gemini-2.5-pro"],
        env: harness.env,
      };
    },
  };
}

/**
 * The scripted calls: a read, then an edit of a line as it is when writes
 * are allowed, or when `tryWrite` asks what the read-only set-up does with one.
 */
function steps(project: string, variant: Variant, tryWrite: boolean): Step[] {
  const range = readFileSync(join(project, "src", "range.ts"), "utf8").split("\n");
  const line = range.find((l) => l.startsWith("export function")) ?? range[0]!;
  const read: Step = { tool: "read", args: { path: "src/range.ts" } };
  if (variant === "headless" && !tryWrite) return [read];
  const edit = { path: "src/range.ts", old_text: line, new_text: `${line} // set-up checked` };
  return [read, { tool: "edit", args: edit }];
}

export function setupRun(client: SetupClient, variant: Variant, tryWrite = false) {
  const spec = launchSetup(client, variant, SPECS[client]);
  const scenario: Scenario = {
    name: `${client} ${variant}`,
    needsBuild: true,
    makeProject,
    server: () => [],
    steps: (project) => steps(project, variant, tryWrite),
  };
  return { spec, scenario };
}

/** The tool names of the first request that offered tools, as the client named them. */
export function offeredNames(client: SetupClient, requests: readonly LoggedRequest[]): string[] {
  for (const { body } of requests) {
    const tools = (body as { tools?: Record<string, unknown>[] } | undefined)?.tools;
    if (!Array.isArray(tools) || tools.length === 0) continue;
    if (client === "codex") return offeredTools(tools).map((t) => t.full);
    if (client === "gemini") {
      return tools.flatMap((t) =>
        ((t.functionDeclarations as { name?: string }[] | undefined) ?? []).flatMap((f) =>
          f.name ? [f.name] : [],
        ),
      );
    }
    return tools.flatMap((t) => (typeof t.name === "string" ? [t.name] : []));
  }
  return [];
}
