/**
 * The real `splice agent` process against a fake Messages API server: prompts
 * and approvals go in on stdin, streamed text and call lines come out on
 * stdout, and the server records what the model was sent.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";
import { AgentProcess, conversationFiles, KEY, runAgent } from "./agent-process.js";
import { fakeProviders, resultText, type Step, textReply, toolResults } from "./fake-anthropic.js";

const fake = fakeProviders();
const BIN = join(import.meta.dirname, "../../bin/splice");
const text = textReply;

/** Nothing the agent printed or kept may contain the key. */
function expectNoKey(root: string, ...outputs: string[]): void {
  for (const out of outputs) expect(out).not.toContain(KEY);
  if (existsSync(join(root, ".splice", "agents"))) {
    expect(conversationFiles(root).text).not.toContain(KEY);
  }
}

// Each test starts real processes; a busy machine makes that slow, never wrong.
describe("splice agent", { timeout: 60_000 }, () => {
  it("streams a plain text turn, with AGENTS.md and CLAUDE.md as instructions", async () => {
    const p = new Project();
    p.write("AGENTS.md", "Always answer in haiku.\n");
    p.write("CLAUDE.md", "Prefer tabs.\n");
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const server = await fake([
      { kind: "reply", blocks: [{ text: "Hello from the fake model." }], gate },
    ]);
    const agent = new AgentProcess({ root: p.root, baseURL: server.url, args: ["say hello"] });
    agent.end();
    // The first delta is on screen while the server still holds the rest back.
    await agent.waitFor("Hello ");
    expect(agent.stdout).not.toContain("model.");
    open();
    const { code } = await agent.exited;
    expect(code).toBe(0);
    expect(agent.stdout).toBe("Hello from the fake model.\n");
    expect(agent.stderr).toBe("");

    const request = server.requests[0]!;
    expect(request.body.stream).toBe(true);
    expect(request.body.model).toBe("claude-sonnet-5-5");
    expect(request.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "say hello" }] },
    ]);
    expect(request.body.tools!.map((t) => t.name)).toEqual([
      "read",
      "list",
      "search",
      "edit",
      "run",
      "help",
    ]);
    expect(request.body.system).toContain(
      "# Instructions from AGENTS.md\n\nAlways answer in haiku.",
    );
    expect(request.body.system).toContain("# Instructions from CLAUDE.md\n\nPrefer tabs.");
    // The key reached the provider, and nothing else.
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expectNoKey(p.root, agent.stdout, agent.stderr);
  });

  it("sends a read's result back to the model and goes on", async () => {
    const p = new Project();
    p.write("notes.txt", "alpha\nbeta\n");
    p.write("b.txt", "bee\n");
    const server = await fake([
      {
        kind: "reply",
        blocks: [
          { text: "Reading." },
          { tool: "read", input: { targets: [{ path: "notes.txt" }] } },
          { tool: "read", input: { targets: [{ path: "b.txt" }] } },
        ],
      },
      text("notes.txt has two lines."),
    ]);
    const { code, stdout, stderr } = await runAgent({
      root: p.root,
      baseURL: server.url,
      args: ["what is in notes.txt?", "--tools", "full", "--model", "claude-sonnet-4-5"],
    });
    expect(code).toBe(0);
    expect(server.requests.map((r) => r.body.model)).toEqual([
      "claude-sonnet-4-5",
      "claude-sonnet-4-5",
    ]);
    // The SDK's deprecation warning, once per session rather than once per request.
    expect(stderr.split("is deprecated").length - 1).toBe(1);
    expect(stdout).toBe(
      "Reading.\n[ok] read notes.txt\n[ok] read b.txt\nnotes.txt has two lines.\n",
    );
    expect(server.requests[0]!.body.tools!.map((t) => t.name)).toContain("undo");
    const results = toolResults(server.requests[1]!);
    expect(results.map(resultText)).toEqual([
      expect.stringMatching(/^¶notes\.txt#[0-9A-F]{4}\n1\| alpha\n2\| beta$/),
      expect.stringMatching(/^¶b\.txt#[0-9A-F]{4}\n1\| bee$/),
    ]);
    expect(results.every((r) => r.is_error === undefined)).toBe(true);
  });

  it("applies an approved edit after showing its diff", async () => {
    const p = new Project();
    p.write("a.txt", "hello world\n");
    const server = await fake([
      {
        kind: "reply",
        blocks: [{ tool: "edit", input: { path: "a.txt", old_text: "world", new_text: "there" } }],
      },
      text("Changed."),
    ]);
    const agent = new AgentProcess({ root: p.root, baseURL: server.url, args: ["fix a.txt"] });
    await agent.waitFor("Allow edit a.txt?");
    expect(agent.stdout).toContain("  │ -hello world\n  │ +hello there\n");
    expect(p.text("a.txt")).toBe("hello world\n");
    agent.send("y");
    agent.end();
    expect((await agent.exited).code).toBe(0);
    expect(p.text("a.txt")).toBe("hello there\n");
    expect(agent.stdout).toContain("[ok] edit a.txt\nChanged.\n");
    const [result] = toolResults(server.requests[1]!);
    expect(result!.is_error).toBeUndefined();
    expect(resultText(result!)).toMatch(/^¶a\.txt#[0-9A-F]{4}\n@@ -1 \+1 @@\n1\| hello there$/);
  });

  it("leaves a declined edit's file alone and tells the model why", async () => {
    const p = new Project();
    p.write("a.txt", "color\n");
    const server = await fake([
      {
        kind: "reply",
        blocks: [{ tool: "edit", input: { path: "a.txt", old_text: "color", new_text: "colour" } }],
      },
      text("Understood, keeping it."),
      {
        kind: "reply",
        blocks: [{ tool: "edit", input: { path: "a.txt", old_text: "color", new_text: "hue" } }],
      },
      text("Fine."),
    ]);
    const { code, stdout } = await runAgent({
      root: p.root,
      baseURL: server.url,
      args: ["make it British"],
      input: ["n keep American spelling", "try again", "no"],
    });
    expect(code).toBe(0);
    expect(p.text("a.txt")).toBe("color\n");
    expect(stdout).toContain("[declined] edit a.txt: keep American spelling\n");
    const [withReason] = toolResults(server.requests[1]!);
    expect(withReason!.is_error).toBe(true);
    expect(resultText(withReason!)).toBe(
      'declined: The person declined this call (edit a.txt); it did not run and nothing changed. Their reason: "keep American spelling". Take it into account before going on.',
    );
    const [without] = toolResults(server.requests[3]!);
    expect(resultText(without!)).toContain("They gave no reason: do not repeat it as is");
  });

  it("stops asking for a kind once it is always allowed", async () => {
    const p = new Project();
    p.write("a.txt", "one\n");
    const edit = (from: string, to: string): Step => ({
      kind: "reply",
      blocks: [{ tool: "edit", input: { path: "a.txt", old_text: from, new_text: to } }],
    });
    const server = await fake([edit("one", "two"), edit("two", "three"), text("Done.")]);
    const { code, stdout } = await runAgent({
      root: p.root,
      baseURL: server.url,
      args: ["count up"],
      input: ["a"],
    });
    expect(code).toBe(0);
    expect(p.text("a.txt")).toBe("three\n");
    expect(stdout.split("Allow edit a.txt?").length - 1).toBe(1);
    expect(stdout).toContain(
      "Approving file changes (edit, write, rollback, undo) for the rest of this session.",
    );
    expect(stdout.split("[ok] edit a.txt").length - 1).toBe(2);
    expect(server.requests).toHaveLength(3);
  });

  it("declines when input ends before an answer, and approves everything with --yes", async () => {
    const p = new Project();
    p.write("a.txt", "one\n");
    const step: Step = {
      kind: "reply",
      blocks: [{ tool: "edit", input: { path: "a.txt", old_text: "one", new_text: "two" } }],
    };
    const server = await fake([step, text("Nobody answered.")]);
    const first = await runAgent({ root: p.root, baseURL: server.url, args: ["go"] });
    expect(first.code).toBe(0);
    expect(p.text("a.txt")).toBe("one\n");
    expect(resultText(toolResults(server.requests[1]!)[0]!)).toContain("scripts pass --yes");

    server.push(step, text("Done."));
    const second = await runAgent({ root: p.root, baseURL: server.url, args: ["go", "--yes"] });
    expect(second.code).toBe(0);
    expect(second.stdout).not.toContain("Allow");
    expect(p.text("a.txt")).toBe("two\n");
  });

  it("stops a command at its timeout, process group and all", async () => {
    const p = new Project();
    const server = await fake([
      {
        kind: "reply",
        blocks: [{ tool: "run", input: { command: "sleep 30", timeout_ms: 300 } }],
      },
      text("It timed out."),
    ]);
    const started = Date.now();
    const { code, stdout } = await runAgent({
      root: p.root,
      baseURL: server.url,
      args: ["sleep", "--yes"],
    });
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(stdout).toContain(
      "[running] run sleep 30 (Ctrl-C stops it)\n[timed out] run sleep 30\n",
    );
    const [result] = toolResults(server.requests[1]!);
    expect(resultText(result!)).toMatch(
      /^\$ sleep 30\n\[timed out after 0\.3 s; the command and every process/,
    );
  });

  it("stops a slow stream on Ctrl-C, stays usable, and exits on a second Ctrl-C", async () => {
    const p = new Project();
    const server = await fake([
      { kind: "reply", blocks: [{ text: "word ".repeat(200) }], delayMs: 50 },
      text("Short answer."),
    ]);
    const agent = new AgentProcess({ root: p.root, baseURL: server.url, args: ["write a lot"] });
    await agent.waitFor("word word ");
    agent.interrupt();
    await agent.waitFor(
      "[interrupted: the turn stopped; type your next message, or Ctrl-C again to exit]",
    );
    expect(agent.stdout.split("word").length - 1).toBeLessThan(150);

    agent.send("shorter please");
    await agent.waitFor("Short answer.\n");
    // The second request carries what was streamed before the interrupt.
    const messages = server.requests[1]!.body.messages;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    const partial = (messages[1]!.content as { text: string }[])[0]!.text;
    expect(partial).toMatch(/^(word )+/);

    agent.interrupt();
    await agent.waitFor("(Ctrl-C again to exit, or type /exit)");
    agent.interrupt();
    expect((await agent.exited).code).toBe(130);
  });

  it("kills a running command's process group on Ctrl-C and tells the model next time", async () => {
    const p = new Project();
    const server = await fake([
      {
        kind: "reply",
        blocks: [{ tool: "run", input: { command: "echo $$ > pid.txt; sleep 30" } }],
      },
      text("Okay, I will not run it."),
    ]);
    const agent = new AgentProcess({
      root: p.root,
      baseURL: server.url,
      args: ["run the slow thing", "--yes"],
    });
    await agent.waitFor("[running] run echo");
    await waitUntil(() => existsSync(join(p.root, "pid.txt")) && p.text("pid.txt").trim() !== "");
    const pgid = Number(p.text("pid.txt"));
    agent.interrupt();
    await agent.waitFor("[interrupted] run echo $$ > pid.txt; sleep 30");
    await agent.waitFor("[interrupted: the turn stopped");
    expect(groupAlive(pgid)).toBe(false);
    expect(server.requests).toHaveLength(1);

    agent.send("never mind");
    agent.end();
    expect((await agent.exited).code).toBe(0);
    const last = server.requests[1]!.body.messages.at(-1)!;
    const content = last.content as Record<string, unknown>[];
    expect(content[0]!.type).toBe("tool_result");
    expect(resultText(content[0]!)).toMatch(
      /^interrupted: the person pressed Ctrl-C while this call ran/,
    );
    expect(content[1]).toEqual({ type: "text", text: "never mind" });
  });

  it("resumes the folder's conversation with --continue", async () => {
    const p = new Project();
    const server = await fake([text("First answer."), text("Second answer.")]);
    expect(
      (await runAgent({ root: p.root, baseURL: server.url, args: ["first question"] })).code,
    ).toBe(0);
    const again = await runAgent({
      root: p.root,
      baseURL: server.url,
      args: ["second question", "--continue"],
    });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      /^\[resumed conversation \d{8}T\d{6}Z-[0-9a-f]{6}: 2 messages\]\n/,
    );
    expect(server.requests[1]!.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "first question" }] },
      { role: "assistant", content: [{ type: "text", text: "First answer." }] },
      { role: "user", content: [{ type: "text", text: "second question" }] },
    ]);
    const { names, text: kept } = conversationFiles(p.root);
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/\.jsonl$/);
    expect(kept).toContain("> first question\n\nFirst answer.\n");
    expect(kept).toContain("> second question\n\nSecond answer.\n");
  });

  it("resumes a conversation cut short by a crash", async () => {
    const p = new Project();
    const dir = join(p.root, ".splice", "agents");
    const lines = [
      { type: "start", model: "m", base_url: "u", tools: "minimal" },
      { type: "message", message: { role: "user", content: [{ type: "text", text: "list" }] } },
      {
        type: "message",
        message: {
          role: "assistant",
          content: [{ type: "tool_use", id: "toolu_9", name: "list", input: {} }],
        },
      },
    ];
    p.write(
      ".splice/agents/20260101T000000Z-abcdef.jsonl",
      `${lines.map((l) => JSON.stringify(l)).join("\n")}\n{"type":"message","mess`,
    );
    const server = await fake([text("Resumed.")]);
    const { code } = await runAgent({
      root: p.root,
      baseURL: server.url,
      args: ["--continue", "go on"],
    });
    expect(code).toBe(0);
    const messages = server.requests[0]!.body.messages;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    const [result, said] = messages[2]!.content as Record<string, unknown>[];
    expect(result).toMatchObject({ type: "tool_result", tool_use_id: "toolu_9", is_error: true });
    expect(resultText(result!)).toMatch(/^not run: the agent stopped before this call ran/);
    expect(said).toEqual({ type: "text", text: "go on" });
    expect(existsSync(join(dir, "20260101T000000Z-abcdef.txt"))).toBe(true);
  });

  it("answers a malformed call and an unknown tool with a sentence and keeps going", async () => {
    const p = new Project();
    const server = await fake([
      {
        kind: "reply",
        blocks: [
          { tool: "read", input: '{"targets": [{"path": "a.txt"' },
          { tool: "frobnicate", input: { x: 1 } },
          { tool: "read", input: { targets: [] } },
        ],
      },
      text("Sorry, let me try again later."),
    ]);
    const { code, stdout } = await runAgent({ root: p.root, baseURL: server.url, args: ["go"] });
    expect(code).toBe(0);
    expect(stdout).toContain("[error] read (invalid call): invalid_input\n");
    expect(stdout).toContain("[error] frobnicate (invalid call): unknown_tool\n");
    expect(stdout).toContain("Sorry, let me try again later.\n");
    const results = toolResults(server.requests[1]!);
    expect(results.map((r) => r.is_error)).toEqual([true, true, true]);
    expect(resultText(results[0]!)).toMatch(
      /^invalid_input: This read call could not be read: its input was not valid JSON \(.*\)\. Send it again with one JSON object as its input\. A valid call looks like: \{"path"/,
    );
    expect(resultText(results[1]!)).toBe(
      'unknown_tool: There is no tool named "frobnicate". The tools are: read, list, search, edit, run, help.',
    );
    expect(resultText(results[2]!)).toMatch(/^invalid_input: Invalid arguments for read: targets/);
    // The malformed call is kept with an empty input, so the next request is valid.
    const assistant = server.requests[1]!.body.messages[1]!.content as Record<string, unknown>[];
    expect(assistant[0]).toMatchObject({ type: "tool_use", name: "read", input: {} });
  });

  it("waits out a 429 as retry-after says, then succeeds", async () => {
    const p = new Project();
    const server = await fake([
      {
        kind: "status",
        status: 429,
        type: "rate_limit_error",
        message: "Number of request tokens has exceeded your per-minute rate limit",
        headers: { "retry-after": "1" },
      },
      text("Made it."),
    ]);
    const started = Date.now();
    const { code, stdout, stderr } = await runAgent({
      root: p.root,
      baseURL: server.url,
      args: ["hi"],
    });
    expect(code).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(stdout).toBe(
      "[rate limited (429); retrying in 1 s (retry 1 of 4, Ctrl-C stops)]\nMade it.\n",
    );
    expect(stderr).toBe("");
    expect(server.requests).toHaveLength(2);
  });

  it("shows an overloaded provider in one line, mid-stream too, and goes on", async () => {
    const p = new Project();
    const server = await fake([
      {
        kind: "status",
        status: 529,
        type: "overloaded_error",
        message: "Overloaded",
        headers: { "x-should-retry": "false" },
      },
      { kind: "stream_error", before: "Partial", type: "overloaded_error", message: "Overloaded" },
      text("Back again."),
    ]);
    const { code, stdout, stderr } = await runAgent({
      root: p.root,
      baseURL: server.url,
      args: ["hi"],
      input: ["", "and now?"],
    });
    expect(code).toBe(0);
    const line =
      "splice agent: the provider is overloaded (529 overloaded_error: Overloaded). Wait a minute and send your message again, or choose another --model.";
    expect(stderr).toBe(`${line}\n${line}\n`);
    expect(stdout).toContain("Partial\nBack again.\n");
    // The empty line re-sent the kept message; the partial text went along.
    expect(server.requests[1]!.body.messages).toEqual(server.requests[0]!.body.messages);
    expect(server.requests[2]!.body.messages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
    ]);
  });

  it("says in one line when the key is refused, and exits 1 at the end of input", async () => {
    const p = new Project();
    const server = await fake([
      { kind: "status", status: 401, type: "authentication_error", message: "invalid x-api-key" },
    ]);
    const { code, stdout, stderr } = await runAgent({
      root: p.root,
      baseURL: server.url,
      args: ["hi"],
    });
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      "splice agent: the provider refused the API key (401 authentication_error: invalid x-api-key). Check $ANTHROPIC_API_KEY; it is read again on every request, so fix it and send your message again.\n",
    );
  });

  it("says in one line when the provider cannot be reached", async () => {
    const p = new Project();
    const server = await fake();
    const url = server.url;
    await server.close();
    const { code, stderr } = await runAgent({
      root: p.root,
      baseURL: url,
      args: ["hi"],
      env: { SPLICE_BASE_URL: url },
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^splice agent: cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)\. Check your network connection and the base URL \(--base-url\), then send your message again\.\n$/,
    );
  });

  it("keeps the key from commands, and never shows or keeps it when a command prints it", async () => {
    const p = new Project();
    p.write("notes.txt", `pasted by mistake: ${KEY}\n`);
    const server = await fake([
      {
        kind: "reply",
        blocks: [
          { tool: "run", input: { command: 'echo "env=${ANTHROPIC_API_KEY:-unset}"' } },
          { tool: "run", input: { command: "cat notes.txt" } },
        ],
      },
      text("I saw it."),
    ]);
    const { code, stdout, stderr } = await runAgent({
      root: p.root,
      baseURL: server.url,
      args: ["leak it", "--yes"],
    });
    expect(code).toBe(0);
    const [fromEnv, fromFile] = toolResults(server.requests[1]!).map(resultText);
    expect(fromEnv).toContain("env=unset");
    expect(fromFile).toContain("pasted by mistake: [redacted key]");
    expectNoKey(p.root, stdout, stderr);
  });

  it("checkpoints the model's commands: what one changed is in its result, and splice undo puts it back", async () => {
    const p = new Project();
    p.write("notes.txt", "keep me\n", 0o600);
    const server = await fake([
      {
        kind: "reply",
        blocks: [{ tool: "run", input: { command: "rm notes.txt; echo x > new.txt" } }],
      },
      text("Done."),
    ]);
    const { code } = await runAgent({
      root: p.root,
      baseURL: server.url,
      args: ["clean", "--yes"],
    });
    expect(code).toBe(0);
    const result = resultText(toolResults(server.requests[1]!)[0]!);
    const id =
      /\[the command changed 2 files \(1 created, 0 changed, 1 deleted\); to put them back, undo backup session (\S+)\]/.exec(
        result,
      )?.[1];
    expect(id, result).toBeDefined();
    const undo = spawnSync(BIN, ["undo", id!, "--root", p.root], { encoding: "utf8" });
    expect(undo.status, undo.stderr).toBe(0);
    expect(p.text("notes.txt")).toBe("keep me\n");
    expect(p.mode("notes.txt")).toBe(0o600);
    expect(existsSync(join(p.root, "new.txt"))).toBe(false);
  });

  it("reads the key file afresh for every request and never without one", async () => {
    const p = new Project();
    const keyFile = join(p.root, "..", `key-${Date.now()}`);
    writeFileSync(keyFile, "sk-first-key-0001\n");
    const server = await fake([text("One."), text("Two.")]);
    const agent = new AgentProcess({
      root: p.root,
      baseURL: server.url,
      args: ["one", "--key-file", keyFile],
    });
    await agent.waitFor("One.\n");
    writeFileSync(keyFile, "sk-second-key-0002\n");
    agent.send("two");
    agent.end();
    expect((await agent.exited).code).toBe(0);
    expect(server.requests.map((r) => r.headers.authorization)).toEqual([
      "Bearer sk-first-key-0001",
      "Bearer sk-second-key-0002",
    ]);
    expect(readFileSync(keyFile, "utf8")).toBe("sk-second-key-0002\n");

    const none = await runAgent({
      root: p.root,
      baseURL: server.url,
      args: ["hi"],
      env: { ANTHROPIC_API_KEY: "" },
    });
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(
      "splice agent: no API key: $ANTHROPIC_API_KEY is not set. Export it, or pass --key-file FILE (a file holding only the key).\nSee: splice agent --help\n",
    );
  });
});

async function waitUntil(condition: () => boolean, timeout = 5_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
