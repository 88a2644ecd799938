/**
 * The tokens benchmark: what splice's tool list costs a model on every turn,
 * next to the reference MCP filesystem server's list in the same run.
 *
 * Both lists come from a real tools/list through the MCP SDK client: splice's
 * server in this process over a linked transport (so the working tree is
 * measured, no build needed; `tool-list.ts`, the same measurement the budget
 * test makes), the reference server (@modelcontextprotocol/server-filesystem)
 * as a child process over stdio. What is counted is what a host sends the
 * model: per tool, JSON of `{name, description, input_schema}`.
 *
 * Two tokenizers: o200k (gpt-tokenizer; GPT-4o and later) and
 * @anthropic-ai/tokenizer, the only public Anthropic one. That one is the
 * Claude 2 tokenizer: Claude 3 and later use another, unpublished one, so its
 * figure is an estimate; the exact count needs the Messages API's
 * count_tokens (and an API key), which also adds Anthropic's own tool-use
 * system prompt, several hundred tokens for any list.
 */
import { fileURLToPath } from "node:url";
import { countTokens as claudeTokens } from "@anthropic-ai/tokenizer";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import type { McpServerOptions } from "../src/hosts/mcp/server.js";
import { defineBenchmark, formatTable, withScratchDir } from "./lib.js";
import { listText, modelShape, servedTools, TOOL_LIST_BUDGETS } from "./tool-list.js";

const REFERENCE_BIN = fileURLToPath(
  new URL("../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js", import.meta.url),
);

interface SpliceList {
  label: string;
  options: McpServerOptions;
  /** Its budget (o200k), which test/toolkit/tool-list-budget.test.ts keeps. */
  target?: number;
  /** The label of the list it is measured against besides the reference server. */
  baseline?: string;
}

const FULL_MANUALS = "splice --tools full --descriptions full";
const CODING_MANUALS = "splice --tools coding --descriptions full";
const MINIMAL_MANUALS = "splice --tools minimal --descriptions full";

/**
 * The lists splice can publish. The whole manuals as descriptions (what every
 * list sent before short descriptions) are the same-run baseline.
 */
const SPLICE_LISTS: SpliceList[] = [
  { label: FULL_MANUALS, options: { tools: "full", descriptions: "full" } },
  { label: CODING_MANUALS, options: { tools: "coding", descriptions: "full" } },
  { label: MINIMAL_MANUALS, options: { tools: "minimal", descriptions: "full" } },
  {
    label: "splice --tools full",
    options: { tools: "full" },
    target: TOOL_LIST_BUDGETS.full,
    baseline: FULL_MANUALS,
  },
  {
    label: "splice --tools coding",
    options: { tools: "coding" },
    target: TOOL_LIST_BUDGETS.coding,
    baseline: CODING_MANUALS,
  },
  {
    label: "splice --tools minimal",
    options: { tools: "minimal" },
    target: TOOL_LIST_BUDGETS.minimal,
    baseline: MINIMAL_MANUALS,
  },
];

interface Count {
  o200k: number;
  claude: number;
}

function count(text: string): Count {
  return { o200k: encode(text).length, claude: claudeTokens(text) };
}

/** The whole list as one JSON array, the way it travels in a request. */
const listCost = (tools: McpTool[]) => count(listText(tools));

async function referenceList(root: string): Promise<McpTool[]> {
  const client = new Client({ name: "bench-tokens", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [REFERENCE_BIN, root],
    stderr: "ignore",
    env: getDefaultEnvironment(),
  });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

const n = (value: number) => value.toLocaleString("en-US");
const ratio = (value: number, base: number) => `${(value / base).toFixed(2)}x`;

export const tokens = defineBenchmark({
  name: "tokens",
  description:
    "tokens of the tool list a model gets every turn (o200k, Anthropic), splice's profiles vs the reference filesystem server",
  async run() {
    await withScratchDir("splice-bench-tokens-", async (dir) => {
      const reference = await referenceList(dir);
      const base = listCost(reference);
      const rows = [
        [
          "reference filesystem server",
          String(reference.length),
          n(base.o200k),
          n(base.claude),
          "1.00x",
          "",
          "",
          "",
        ],
      ];
      const details: { label: string; tools: McpTool[] }[] = [];
      const costs = new Map<string, Count>();
      for (const list of SPLICE_LISTS) {
        const tools = await servedTools(dir, list.options);
        const cost = listCost(tools);
        costs.set(list.label, cost);
        const before = list.baseline === undefined ? undefined : costs.get(list.baseline);
        const met = list.target === undefined ? "" : cost.o200k <= list.target ? "met" : "MISSED";
        rows.push([
          list.label,
          String(tools.length),
          n(cost.o200k),
          n(cost.claude),
          ratio(cost.o200k, base.o200k),
          before === undefined ? "" : ratio(cost.o200k, before.o200k),
          list.target === undefined ? "" : `<= ${n(list.target)}`,
          met,
        ]);
        details.push({ label: list.label, tools });
      }
      console.log(
        formatTable(
          [
            { header: "tool list" },
            { header: "tools", right: true },
            { header: "o200k", right: true },
            { header: "anthropic*", right: true },
            { header: "o200k vs reference", right: true },
            { header: "vs its manuals", right: true },
            { header: "target", right: true },
            { header: "" },
          ],
          rows,
        ),
      );
      console.log(
        "\n* @anthropic-ai/tokenizer is the Claude 2 tokenizer; Claude 3 and later count with an unpublished one (exact figures: the count_tokens API), and the API adds its own tool-use system prompt.",
      );
      const full = details.find((d) => d.label === "splice --tools full")!;
      console.log(`\nPer tool, ${full.label} (o200k):\n`);
      console.log(
        formatTable(
          [
            { header: "tool" },
            { header: "description", right: true },
            { header: "whole entry", right: true },
          ],
          full.tools.map((t) => [
            t.name,
            n(encode(t.description ?? "").length),
            n(encode(JSON.stringify(modelShape(t))).length),
          ]),
        ),
      );
    });
  },
});
