/**
 * Allow rules by command prefix (--allow and the config's "allow") let `run`
 * start those commands without asking, and nothing else; each turn's tokens
 * (and cost, with a price in the config) are kept with the conversation.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";
import { conversationFiles, runAgent } from "./agent-process.js";
import { FakeAnthropic, resultText, type Step, toolResults } from "./fake-anthropic.js";

const servers: FakeAnthropic[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const text = (t: string): Step => ({ kind: "reply", blocks: [{ text: t }] });
const run = (...commands: string[]): Step => ({
  kind: "reply",
  blocks: commands.map((command) => ({ tool: "run", input: { command } })),
});

describe("splice agent allow rules and usage", { timeout: 60_000 }, () => {
  it("runs allowed prefixes without asking and asks for the rest", async () => {
    const p = new Project();
    const dir = mkdtempSync(join(tmpdir(), "splice-config-"));
    const config = join(dir, "agent.json");
    writeFileSync(
      config,
      JSON.stringify({ allow: ["echo from-config"], price: { input: 3, output: 15 } }),
    );
    const server = await FakeAnthropic.start([
      run("echo hi there", "echo from-config ok", "echo hi; touch pwned"),
      text("Done."),
    ]);
    servers.push(server);
    const { code, stdout } = await runAgent({
      root: p.root,
      baseURL: server.url,
      args: ["go", "--allow", "echo hi,ls"],
      env: { SPLICE_CONFIG: config },
    });
    expect(code).toBe(0);
    expect(stdout).not.toContain("Allow run echo hi there?");
    expect(stdout).not.toContain("Allow run echo from-config ok?");
    expect(stdout).toContain("Allow run echo hi; touch pwned?");
    const results = toolResults(server.requests[1]!).map(resultText);
    expect(results[0]).toContain("hi there");
    expect(results[1]).toContain("from-config ok");
    expect(results[2]).toMatch(/^declined: /);
    // Two requests in the turn, 10 in and 20 out each, at $3 and $15 a million.
    expect(conversationFiles(p.root).text).toContain("[tokens: 20 in · 40 out · $0.0007]");
  });
});
