/**
 * Going on with an earlier conversation: --continue takes the one used last
 * (not the one started last), --resume lists them and asks, --resume ID
 * takes that one.
 */
import { afterEach, describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";
import { conversationFiles, runAgent } from "./agent-process.js";
import { FakeAnthropic, type Step } from "./fake-anthropic.js";

const servers: FakeAnthropic[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const text = (t: string): Step => ({ kind: "reply", blocks: [{ text: t }] });

const firstWords = (messages: { content: unknown }[]) =>
  (messages[0]!.content as { text: string }[])[0]!.text;

describe("splice agent --continue and --resume", { timeout: 60_000 }, () => {
  it("continues the conversation used last, lists them, and takes one by id", async () => {
    const p = new Project();
    const server = await FakeAnthropic.start(Array.from({ length: 6 }, () => text("Ok.")));
    servers.push(server);
    const run = (args: string[], input: string[] = []) =>
      runAgent({ root: p.root, baseURL: server.url, args, input });

    expect((await run(["about alpha"])).code).toBe(0);
    const alpha = conversationFiles(p.root).names[0]!.replace(/\.jsonl$/, "");
    expect((await run(["about beta"])).code).toBe(0);
    // Beta started last; going on with alpha makes alpha the one used last.
    const byId = await run(["--resume", alpha.slice(-6), "more alpha"]);
    expect(byId.code).toBe(0);
    expect(firstWords(server.requests[2]!.body.messages)).toBe("about alpha");

    expect((await run(["--continue", "again"])).code).toBe(0);
    const continued = server.requests[3]!.body.messages;
    expect(firstWords(continued)).toBe("about alpha");
    expect(continued).toHaveLength(5);

    const picked = await run(["--resume"], ["2", "more beta"]);
    expect(picked.code).toBe(0);
    expect(picked.stdout).toMatch(
      new RegExp(
        `^Conversations in this folder, used last first \\(UTC\\):\\n {2}1 {2}${alpha} {2}\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d {2}6 messages {4}about alpha\\n {2}2 {2}\\S+ {2}[\\d :-]+ {2}2 messages {4}about beta\\nResume which\\? \\[1-2, Enter for 1\\]: 2\\n`,
      ),
    );
    expect(firstWords(server.requests[4]!.body.messages)).toBe("about beta");

    const unknown = await run(["--resume", "abcdef"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      "splice agent: no conversation abcdef in this folder; run splice agent --resume to list them.\n",
    );
    const both = await run(["--resume", "--continue"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--continue and --resume pick a conversation each");
  });
});
