/**
 * The agent watches its folder: a file changed outside splice while the
 * agent waits is one line on the screen, and the model hears of it with the
 * next message. The real built agent, a real watcher, a fake model server.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";
import { AgentProcess } from "./agent-process.js";
import { FakeAnthropic, type Step } from "./fake-anthropic.js";

const servers: FakeAnthropic[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const text = (t: string): Step => ({ kind: "reply", blocks: [{ text: t }] });

describe.skipIf(process.env.SPLICE_TEST_REMOTE)(
  "splice agent's folder watch",
  { timeout: 60_000 },
  () => {
    it("shows a change made outside and tells the model with the next message", async () => {
      const p = new Project();
      p.write("notes.md", "# one\n");
      const server = await FakeAnthropic.start([text("First."), text("Second.")]);
      servers.push(server);
      const agent = new AgentProcess({ root: p.root, baseURL: server.url });
      agent.send("hello");
      await agent.waitFor("First.");
      writeFileSync(join(p.root, "todo.txt"), "made in an editor\n");
      await agent.waitFor("changed outside splice");
      expect(agent.stdout).toMatch(
        /\[1 file changed outside splice in .+: todo\.txt \(created\); kept in history, undo backup session \S+ to put them back\]/,
      );
      agent.send("again");
      await agent.waitFor("Second.");
      expect(JSON.stringify(server.requests[1])).toContain("todo.txt (created)");
      agent.end();
      expect((await agent.exited).code).toBe(0);
    });
  },
);
