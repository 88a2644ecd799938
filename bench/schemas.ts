/**
 * What the model pays for the tool list and for a read that used to dead-end,
 * in o200k tokens (gpt-tokenizer). Schemas: each host's published form next
 * to the baseline, zod's JSON Schema as splice published it before the
 * portable pass (tuples, type arrays, string lengths), measured in the same
 * run. Reads: a `line` read and an outline of a Markdown and a plain-text
 * file, next to the error they answered with before (`unsupportedFile`).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { encode } from "gpt-tokenizer";
import { z } from "zod";
import { unsupportedFile } from "../src/code/languages.js";
import { anthropicTools } from "../src/hosts/anthropic.js";
import { geminiFunctionDeclarations } from "../src/hosts/gemini.js";
import { toolJsonSchema } from "../src/hosts/json-schema.js";
import { openaiResponsesTools } from "../src/hosts/openai.js";
import { createToolkit, fullTools } from "../src/index.js";
import { defineBenchmark, fixed, formatTable, withScratchDir } from "./lib.js";

const tokens = (value: unknown) =>
  encode(typeof value === "string" ? value : JSON.stringify(value)).length;

/** The schemas as published before: zod's output without the portable pass. */
function baselineSchemas(): unknown[] {
  return fullTools.map((t) => {
    const s = z.toJSONSchema(t.input, {
      target: "draft-2020-12",
      io: "input",
      unrepresentable: "any",
    });
    delete (s as Record<string, unknown>).$schema;
    return s;
  });
}

function schemaRows(root: string): string[][] {
  const kit = createToolkit({ root, lsp: false });
  const base = tokens(baselineSchemas());
  const rows: [string, unknown][] = [
    ["baseline (before the portable pass)", baselineSchemas()],
    ["MCP / Anthropic / Gemini JSON Schema", fullTools.map(toolJsonSchema)],
    ["Anthropic input_schema", anthropicTools(kit).map((t) => t.input_schema)],
    ["OpenAI strict parameters", openaiResponsesTools(kit).map((t) => t.parameters)],
    [
      "Gemini OpenAPI parameters",
      geminiFunctionDeclarations(kit, { dialect: "openapi" }).map((d) => d.parameters),
    ],
  ];
  return rows.map(([name, value]) => {
    const n = tokens(value);
    return [name, String(n), fixed(n / base, 3)];
  });
}

async function readRows(root: string): Promise<string[][]> {
  const lines = (n: number, f: (i: number) => string) =>
    Array.from({ length: n }, (_, i) => f(i + 1)).join("\n");
  writeFileSync(
    join(root, "GUIDE.md"),
    `${lines(12, (i) => (i % 4 === 1 ? `## Part ${i}` : `Some text about part ${i}.`))}\n`.repeat(
      10,
    ),
  );
  writeFileSync(join(root, "notes.rst"), `${lines(300, (i) => `Line ${i} of the notes.`)}\n`);
  const kit = createToolkit({ root, lsp: false });
  const rows: string[][] = [];
  for (const path of ["GUIDE.md", "notes.rst"]) {
    const before = tokens(`invalid_input: ${unsupportedFile(path)}`);
    const read = (await kit.call("read", { targets: [{ path, line: 60 }] })) as {
      results: { content: string }[];
    };
    const outline = (await kit.call("outline", { path })) as { content: string };
    const shown = (text: string) => text.split("\n").filter((l) => /^\d+\| /.test(l)).length;
    rows.push(
      [
        `${path} line 60`,
        String(before),
        String(tokens(read.results[0]!.content)),
        String(shown(read.results[0]!.content)),
      ],
      [
        `${path} outline`,
        String(before),
        String(tokens(outline.content)),
        String(shown(outline.content)),
      ],
    );
  }
  return rows;
}

defineBenchmark({
  name: "schemas",
  description: "tokens of the tool list per host, and of reads that used to dead-end",
  run: () =>
    withScratchDir("splice-bench-schemas-", async (root) => {
      console.log("Tool list, all 19 tools, o200k tokens (ratio to the same-run baseline):\n");
      console.log(
        formatTable(
          [
            { header: "schemas" },
            { header: "tokens", right: true },
            { header: "ratio", right: true },
          ],
          schemaRows(root),
        ),
      );
      console.log("\nReads of files splice does not parse (before: the error, a dead end):\n");
      console.log(
        formatTable(
          [
            { header: "read" },
            { header: "error tokens (before)", right: true },
            { header: "answer tokens (now)", right: true },
            { header: "file lines shown", right: true },
          ],
          await readRows(root),
        ),
      );
    }),
});
