/**
 * Slash commands are answered by the agent itself and never reach the model:
 * /help, /tools, /diff and /undo (this conversation's changes, through the
 * undo tool's history), and an unknown one is named, not sent.
 */
import { describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";
import { runAgent } from "./agent-process.js";
import { editReply, fakeProviders, textReply } from "./fake-anthropic.js";

const fake = fakeProviders();
const text = textReply;
const edit = editReply;

describe("splice agent slash commands", { timeout: 60_000 }, () => {
  it("answers /help, /tools and an unknown command without asking the model", async () => {
    const p = new Project();
    const server = await fake([text("Hi.")]);
    const { code, stdout } = await runAgent({
      root: p.root,
      baseURL: server.url,
      input: ["/help", "/tools", "/nope", "//etc is a folder"],
    });
    expect(code).toBe(0);
    expect(stdout).toContain("  /undo    undo the last change of this conversation");
    expect(stdout).toMatch(/Tools the model has:\n {2}read {3}/);
    expect(stdout).toContain("Runs without asking: reads. Changes and commands ask first.");
    expect(stdout).toContain("[unknown command /nope: nothing was sent;");
    // Only the message that began with // went out, with one slash.
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "/etc is a folder" }] },
    ]);
  });

  it("shows this conversation's changes with /diff and takes them back with /undo", async () => {
    const p = new Project();
    p.write("a.txt", "one\n");
    p.write("b.txt", "bee\n");
    const server = await fake([
      edit("a.txt", "one", "two"),
      edit("b.txt", "bee", "wasp"),
      text("Both changed."),
      text("Noted."),
    ]);
    const { code, stdout } = await runAgent({
      root: p.root,
      baseURL: server.url,
      args: ["change them", "--yes"],
      input: ["/diff", "/undo", "/diff", "what now?", "/undo", "/undo"],
    });
    expect(code).toBe(0);
    // Every change, the /undo ones too, says which agent made it (undo's list, the review page).
    const listed = await p.splice().undo({ list: true, all_sessions: true });
    const clients = "sessions" in listed ? listed.sessions.map((s) => s.client) : [];
    expect(clients).toHaveLength(4);
    expect(new Set(clients).size).toBe(1);
    expect(clients[0]).toMatch(/^splice agent \(.+\)$/);
    expect(p.text("a.txt")).toBe("one\n");
    expect(p.text("b.txt")).toBe("bee\n");
    // The first /diff: both changes, oldest first.
    const first = stdout.indexOf("[change ");
    const shown = stdout.slice(first);
    expect(shown).toMatch(/^\[change \S+ · \S+: modified a\.txt\]\n[\s\S]*-one\n {2}│ \+two\n/);
    expect(shown).toMatch(/\[change \S+ · \S+: modified b\.txt\]\n[\s\S]*-bee\n {2}│ \+wasp\n/);
    expect(shown).toContain("[2 changes in effect; /undo takes back the last]");
    // /undo took back b.txt first, and the second /diff shows only a.txt.
    expect(stdout).toMatch(
      /\[undid \S+: b\.txt\]\n {2}│ --- a\/b\.txt\n[\s\S]*-wasp\n {2}│ \+bee\n/,
    );
    expect(stdout).toContain("[1 change in effect; /undo takes back the last]");
    expect(stdout).toMatch(/\[undid \S+: a\.txt\]/);
    expect(stdout).toContain(
      "[nothing left to undo: this conversation has no change still in effect]",
    );
    // No command reached the model; the next message told it what /undo did.
    expect(server.requests).toHaveLength(4);
    const told = server.requests[3]!.body.messages.at(-1)!.content as { text: string }[];
    expect(told[0]!.text).toMatch(
      /^\[The person ran \/undo: it undid change \S+, restoring b\.txt\./,
    );
    expect(told.at(-1)!.text).toBe("what now?");
  });
});
