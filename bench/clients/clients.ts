/**
 * The three clients under test, each pinned, and how each is started
 * headless: its config in a temp HOME, splice's MCP server over stdio (via
 * the tap), the fake provider as its model, and approvals granted for
 * splice's tools only where the client allows that narrow a grant.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startFakeAnthropic } from "./fake-anthropic.js";
import { startFakeGemini } from "./fake-gemini.js";
import { startFakeOpenAI } from "./fake-openai.js";
import type { FakeServer } from "./http.js";
import type { ScriptedModel } from "./script.js";

export interface RunContext {
  project: string;
  home: string;
  /** The MCP server's command line: the tap, then `splice serve`. */
  server: string[];
  provider: FakeServer;
}

export interface Launch {
  args: string[];
  env: Record<string, string>;
}

export interface ClientSpec {
  name: string;
  pkg: string;
  version: string;
  bin: string;
  /** The API the client speaks, as a fake provider playing `model`. */
  startProvider(model: ScriptedModel): Promise<FakeServer>;
  launch(context: RunContext): Launch;
}

export const PROMPT = "Use the splice tools as the script says.";

/** The environment every client starts from: no inherited keys, a temp HOME. */
function baseEnv(home: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    TMPDIR: join(home, "tmp"),
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    CI: "1",
  };
}

/** The client's own folder in the scratch home (`.claude`, `.codex`), made. */
function clientHome(home: string, name: string): string {
  const dir = join(home, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

function writeJson(path: string, value: unknown): string {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
  return path;
}

export const claudeCode: ClientSpec = {
  name: "Claude Code",
  pkg: "@anthropic-ai/claude-code",
  version: "2.1.332",
  bin: "claude",
  startProvider: startFakeAnthropic,
  launch({ home, server, provider }) {
    const configDir = clientHome(home, ".claude");
    const [command, ...args] = server;
    const mcp = writeJson(join(home, "mcp.json"), {
      mcpServers: { splice: { type: "stdio", command, args } },
    });
    return {
      args: [
        "-p",
        PROMPT,
        "--mcp-config",
        mcp,
        "--strict-mcp-config",
        // The server's name alone allows every one of its tools, and nothing else.
        "--allowedTools",
        "mcp__splice",
        "--output-format",
        "json",
        "--model",
        "claude-sonnet-4-5",
        "--max-turns",
        "20",
      ],
      env: {
        ...baseEnv(home),
        CLAUDE_CONFIG_DIR: configDir,
        ANTHROPIC_BASE_URL: provider.url,
        ANTHROPIC_API_KEY: "sk-ant-fake-key-for-the-fake-provider",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
        DISABLE_TELEMETRY: "1",
        DISABLE_ERROR_REPORTING: "1",
        MCP_TIMEOUT: "60000",
        // MCP tools otherwise sit behind ToolSearch, deferred until the model asks for them.
        ENABLE_TOOL_SEARCH: "false",
      },
    };
  },
};

const toml = (value: string) => JSON.stringify(value);

export const codex: ClientSpec = {
  name: "Codex CLI",
  pkg: "@openai/codex",
  version: "0.171.0",
  bin: "codex",
  startProvider: startFakeOpenAI,
  launch({ project, home, server, provider }) {
    const codexHome = clientHome(home, ".codex");
    const [command, ...args] = server;
    writeFileSync(
      join(codexHome, "config.toml"),
      [
        // A model Codex has no metadata for: the ones it knows defer MCP tools behind tool_search,
        // which the fake model does not play. Their limit on a tool output is set by hand below.
        'model = "gpt-5-codex"',
        "tool_output_token_limit = 10000",
        'model_provider = "fake"',
        'approval_policy = "never"',
        'sandbox_mode = "workspace-write"',
        "",
        "[model_providers.fake]",
        'name = "fake"',
        `base_url = ${toml(`${provider.url}/v1`)}`,
        'wire_api = "responses"',
        'env_key = "FAKE_OPENAI_API_KEY"',
        "request_max_retries = 0",
        "stream_max_retries = 0",
        "",
        "[mcp_servers.splice]",
        `command = ${toml(command!)}`,
        `args = [${args.map(toml).join(", ")}]`,
        "startup_timeout_sec = 60",
        // Waits for the server before the first turn, which otherwise may go out without its tools.
        "required = true",
        // approval_policy never refuses a tool that does not say it only reads; this grants splice's.
        'default_tools_approval_mode = "approve"',
        "",
        `[projects.${toml(project)}]`,
        'trust_level = "trusted"',
        "",
      ].join("\n"),
    );
    return {
      args: ["exec", "--skip-git-repo-check", "--ephemeral", "--json", "--color", "never", PROMPT],
      env: { ...baseEnv(home), CODEX_HOME: codexHome, FAKE_OPENAI_API_KEY: "sk-fake" },
    };
  },
};

export const geminiCli: ClientSpec = {
  name: "Gemini CLI",
  pkg: "@google/gemini-cli",
  version: "0.61.0",
  bin: "gemini",
  startProvider: startFakeGemini,
  launch({ project, home, server, provider }) {
    const settingsDir = clientHome(home, ".gemini");
    // In a folder it does not trust, Gemini CLI drops --yolo back to asking.
    writeJson(join(settingsDir, "trustedFolders.json"), { [project]: "TRUST_FOLDER" });
    const [command, ...args] = server;
    writeJson(join(settingsDir, "settings.json"), {
      mcpServers: { splice: { command, args, trust: true, timeout: 60000 } },
      // The API key's auth: the base URL alone would pick "gateway", which -p refuses as invalid.
      security: { auth: { selectedType: "gemini-api-key" } },
      telemetry: { enabled: false },
      privacy: { usageStatisticsEnabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
    });
    return {
      args: ["-p", PROMPT, "--yolo", "--output-format", "json", "-m", "gemini-2.5-pro"],
      env: {
        ...baseEnv(home),
        GEMINI_API_KEY: "fake-gemini-key",
        GOOGLE_GEMINI_BASE_URL: provider.url,
        GEMINI_CLI_NO_RELAUNCH: "true",
      },
    };
  },
};

export const CLIENTS: readonly ClientSpec[] = [claudeCode, codex, geminiCli];

/** The clients a comma-separated list names (by the first word of their name); all when empty. */
export function selectedClients(list: string | undefined): readonly ClientSpec[] {
  const wanted = (list ?? "")
    .split(",")
    .map((w) => w.trim().toLowerCase())
    .filter(Boolean);
  if (wanted.length === 0) return CLIENTS;
  const chosen = CLIENTS.filter((c) => wanted.some((w) => c.name.toLowerCase().startsWith(w)));
  if (chosen.length === 0) {
    throw new Error(
      `No client named ${list}; the clients are ${CLIENTS.map((c) => c.name).join(", ")}.`,
    );
  }
  return chosen;
}
