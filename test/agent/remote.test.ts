/**
 * `splice agent --remote box=COMMAND --root box:/path`: the real agent
 * process, against the fake Messages API, working on a folder reached
 * through a transport (sh -c here): it reads AGENTS.md there, edits there
 * after approval, /undo puts the file back, and its conversation is kept on
 * this machine beside the remote root's history.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { AgentProcess } from "./agent-process.js";
import { editReply, fakeProviders, resultText, textReply, toolResults } from "./fake-anthropic.js";

const fake = fakeProviders();

describe("splice agent on a remote root", { timeout: 60_000 }, () => {
  it("edits a file there after approval, undoes it, and keeps its conversation here", async () => {
    const there = mkdtempSync(join(tmpdir(), "splice-agent-remote-"));
    const here = mkdtempSync(join(tmpdir(), "splice-agent-here-"));
    const state = mkdtempSync(join(tmpdir(), "splice-agent-state-"));
    writeFileSync(join(there, "AGENTS.md"), "Answer in one line.\n");
    writeFileSync(join(there, "a.txt"), "hello world\n");
    const server = await fake([editReply("a.txt", "world", "there"), textReply("Changed.")]);
    const agent = new AgentProcess({
      root: `box:${there}`,
      cwd: here,
      baseURL: server.url,
      args: ["--remote", "box=sh -c", "fix a.txt"],
      env: { XDG_STATE_HOME: state },
    });
    await agent.waitFor("Allow edit a.txt?");
    expect(agent.stdout).toContain("  │ -hello world\n  │ +hello there\n");
    agent.send("y");
    await agent.waitFor("Changed.");
    expect(readFileSync(join(there, "a.txt"), "utf8")).toBe("hello there\n");
    agent.send("/undo");
    agent.end();
    expect((await agent.exited).code).toBe(0);
    expect(agent.stderr).toBe("");
    expect(readFileSync(join(there, "a.txt"), "utf8")).toBe("hello world\n");

    const system = JSON.stringify(server.requests[0]!.body.system);
    expect(system).toContain(`working in the folder box:${there}`);
    expect(system).toContain("Answer in one line.");
    const [result] = toolResults(server.requests[1]!);
    expect(resultText(result!)).toMatch(/^¶a\.txt#[0-9A-F]{4}\n@@ -1 \+1 @@\n1\| hello there$/);
    // Nothing of splice's is left there; the conversation and history are here, keyed by host.
    expect(existsSync(join(there, ".splice", "agents"))).toBe(false);
    expect(existsSync(join(here, ".splice"))).toBe(false);
    const home = join(state, "splice", "remotes", "box", ...there.split("/").filter(Boolean));
    expect(readdirSync(join(home, ".splice", "agents")).some((n) => n.endsWith(".jsonl"))).toBe(
      true,
    );
  });
});
