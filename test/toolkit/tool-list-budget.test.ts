/**
 * What each tool set costs a model on every turn, measured as `splice serve`
 * lists it (tools/list through the MCP SDK's client; bench/tool-list.ts, the
 * measurement `npm run bench -- tokens` prints) and held to its budget
 * (issue #39). The figures README.md and docs/tools.md give are checked
 * against the same measurement, so they cannot drift from what a model gets.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countTokens as claudeTokens } from "@anthropic-ai/tokenizer";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listText, listTokens, servedTools, TOOL_LIST_BUDGETS } from "../../bench/tool-list.js";
import { TOOL_PROFILES, type ToolProfile } from "../../src/toolkit/index.js";

/** How far a figure in the docs may be from the measurement (o200k or Anthropic tokens). */
const SLACK = 5;

interface Measured {
  tools: McpTool[];
  o200k: number;
  claude: number;
  /** o200k with `--descriptions full`. */
  manuals: number;
}

const measured = new Map<ToolProfile, Measured>();
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "splice-tool-list-"));
  for (const profile of TOOL_PROFILES) {
    const tools = await servedTools(root, { tools: profile });
    const manuals = await servedTools(root, { tools: profile, descriptions: "full" });
    measured.set(profile, {
      tools,
      o200k: listTokens(tools),
      claude: claudeTokens(listText(tools)),
      manuals: listTokens(manuals),
    });
  }
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const get = (profile: ToolProfile) => measured.get(profile)!;
const number = (cell: string) => Number(cell.replaceAll(",", ""));
const cells = (row: string) =>
  row
    .split("|")
    .slice(1, -1)
    .map((c) => c.trim());

/** The table row of a docs page that starts with this set's name in backticks. */
function row(page: string, profile: ToolProfile): string[] {
  const text = readFileSync(new URL(`../../${page}`, import.meta.url), "utf8");
  const line = text.split("\n").find((l) => l.startsWith(`| \`${profile}\``));
  expect(line, `${page} has a table row for --tools ${profile}`).toBeDefined();
  return cells(line!);
}

/** A figure the docs give, next to the measurement it must be within SLACK of. */
function near(said: string, actual: number, what: string): void {
  expect(
    Math.abs(number(said) - actual),
    `${what} says ${said}; measured ${actual.toLocaleString("en-US")}`,
  ).toBeLessThanOrEqual(SLACK);
}

describe("the tool list's budget", () => {
  it.each(TOOL_PROFILES)("--tools %s stays within its budget of o200k tokens", (profile) => {
    const { o200k, tools } = get(profile);
    const budget = TOOL_LIST_BUDGETS[profile];
    expect(
      o200k,
      `--tools ${profile} (${tools.length} tools) costs ${o200k} tokens, over its budget of ${budget}`,
    ).toBeLessThanOrEqual(budget);
  });

  it.each(TOOL_PROFILES)("README gives the measured figures for --tools %s", (profile) => {
    const [, tools, tokens, manuals] = row("README.md", profile);
    const m = get(profile);
    expect(number(tools!), `README's tool count for ${profile}`).toBe(m.tools.length);
    near(tokens!, m.o200k, `README's token count for ${profile}`);
    near(manuals!, m.manuals, `README's --descriptions full count for ${profile}`);
  });

  it.each(TOOL_PROFILES)("docs/tools.md gives the measured figures for --tools %s", (profile) => {
    const [, names, o200k, claude, manuals] = row("docs/tools.md", profile);
    const m = get(profile);
    expect(names!.split(", "), `docs/tools.md's tools of ${profile}`).toEqual(
      m.tools.map((t) => t.name),
    );
    near(o200k!, m.o200k, `docs/tools.md's o200k count for ${profile}`);
    near(claude!, m.claude, `docs/tools.md's Anthropic count for ${profile}`);
    near(manuals!, m.manuals, `docs/tools.md's --descriptions full count for ${profile}`);
  });

  it("docs/tools.md gives what full's other tools cost beyond coding", () => {
    const text = readFileSync(new URL("../../docs/tools.md", import.meta.url), "utf8");
    const said = /other tools are worth their ([\d,]+) tokens/.exec(text);
    expect(said).not.toBeNull();
    near(said![1]!, get("full").o200k - get("coding").o200k, "docs/tools.md's full - coding");
  });
});
