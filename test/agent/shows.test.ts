/**
 * The agent shows what happened: the diff of every change (also when it ran
 * without asking), a command's output while it runs, validation errors and
 * why a call failed. The real `splice agent` against the fake provider.
 */
import { describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";
import { COLD, source, TSCONFIG } from "../lsp/helpers.js";
import { AgentProcess, KEY, runAgent } from "./agent-process.js";
import { editReply, fakeProviders, resultText, textReply, toolResults } from "./fake-anthropic.js";

const fake = fakeProviders();
const text = textReply;
const edit = editReply;

describe("splice agent shows what happened", { timeout: 60_000 }, () => {
  it("shows the diff of an edit approved with always, and of one under --yes", async () => {
    const p = new Project();
    p.write("a.txt", "one\n");
    const server = await fake([edit("a.txt", "one", "two"), edit("a.txt", "two", "three")]);
    server.push(text("Done."));
    const { code, stdout } = await runAgent({
      root: p.root,
      baseURL: server.url,
      args: ["count up"],
      input: ["a"],
    });
    expect(code).toBe(0);
    // The first diff was the question's preview; the second ran unasked and is shown after it.
    expect(stdout).toContain("  │ -one\n  │ +two\nAllow edit a.txt?");
    expect(stdout).toContain("[ok] edit a.txt\n[ok] edit a.txt\n  │ --- a/a.txt\n");
    expect(stdout).toContain("  │ -two\n  │ +three\nDone.\n");
    expect(stdout.split("+two").length - 1).toBe(1);

    server.push(edit("a.txt", "three", "four"), text("Again."));
    const yes = await runAgent({ root: p.root, baseURL: server.url, args: ["go", "--yes"] });
    expect(yes.stdout).toMatch(
      /\[ok\] edit a\.txt\n {2}│ --- a\/a\.txt\n[\s\S]*│ -three\n {2}│ \+four\n/,
    );
  });

  it("says why an edit failed, in the tool's own words", async () => {
    const p = new Project();
    p.write("a.txt", "hello\n");
    const server = await fake([edit("a.txt", "goodbye", "bye"), text("Sorry.")]);
    const { stdout } = await runAgent({ root: p.root, baseURL: server.url, args: ["go"] });
    const [result] = toolResults(server.requests[1]!);
    const said = resultText(result!).replace(/^not_found: /, "");
    expect(stdout).toContain(`[error] edit a.txt: not_found\n  ${said.split("\n")[0]}`);
  });

  it("streams a command's output while it runs and redacts it", async () => {
    const p = new Project();
    const server = await fake([
      {
        kind: "reply",
        blocks: [
          {
            tool: "run",
            input: { command: `printf 'one\\ntwo %s\\n' "$X"; sleep 2; printf 'three\\n'` },
          },
        ],
      },
      text("Ran it."),
    ]);
    const agent = new AgentProcess({
      root: p.root,
      baseURL: server.url,
      args: ["run it", "--yes"],
      env: { X: KEY },
    });
    agent.end();
    await agent.waitFor("  │ two [redacted key]\n");
    expect(agent.stdout).toContain("  │ one\n");
    expect(agent.stdout).not.toContain("│ three");
    expect((await agent.exited).code).toBe(0);
    expect(agent.stdout).toContain("  │ three\n[ok] run printf");
    expect(agent.stdout).not.toContain(KEY);
  });
});

describe("splice agent shows validation", COLD, () => {
  it("shows the error validation found, never [ok]", async () => {
    const p = new Project();
    p.write("tsconfig.json", TSCONFIG);
    p.write("src/a.ts", source("export const a: number = 1;"));
    const server = await fake([edit("src/a.ts", "= 1;", "= 'one';"), text("Oops.")]);
    const { code, stdout } = await runAgent({
      root: p.root,
      baseURL: server.url,
      args: ["break it", "--yes"],
    });
    expect(code).toBe(0);
    expect(stdout).not.toContain("[ok] edit src/a.ts");
    expect(stdout).toContain("[written with 1 new error] edit src/a.ts\n");
    expect(stdout).toMatch(
      / {2}✗ src\/a\.ts:1:\d+: Type 'string' is not assignable to type 'number'\.? \(2322\)\n/,
    );
  });
});
