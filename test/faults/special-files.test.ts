import { execFileSync } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Project, rejection } from "../helpers/project.js";

/**
 * A FIFO blocks whoever opens it for reading until a writer comes; a call
 * that opened one never answered (and an MCP server froze with it). Each
 * call here must answer within the test's timeout.
 */
function withFifo(): Project {
  const p = new Project();
  p.write("a.txt", "a\n");
  execFileSync("mkfifo", [join(p.root, "pipe")]);
  return p;
}

const refusal = {
  code: "not_a_file",
  message:
    "pipe is not a regular file (a named pipe, socket or device), so splice does not read, edit or replace it. Name a regular file; to use the special file itself, use the run tool.",
};

describe("special files", { timeout: 5_000 }, () => {
  it("refuses to read a FIFO instead of blocking on it", async () => {
    const s = withFifo().splice();
    const { results } = await s.read({ targets: [{ path: "pipe" }, { path: "a.txt" }] });
    expect(results[0]!.error).toEqual(refusal);
    expect(results[1]!.content).toContain("1| a");
  });

  it("refuses to edit or overwrite a FIFO", async () => {
    const s = withFifo().splice();
    const edit = s.edit({ targets: [{ path: "pipe", file_hash: "0000", ops: "delete 1" }] });
    expect((await rejection(edit)).code).toBe("not_a_file");
    const write = await rejection(s.write({ targets: [{ path: "pipe", text: "x\n" }] }));
    expect({ code: write.code, message: write.message }).toEqual(refusal);
  });

  it("refuses a socket the same way", async () => {
    const p = new Project();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(p.root, "sock"), resolve));
    try {
      const { results } = await p.splice().read({ targets: [{ path: "sock" }] });
      expect(results[0]!.error?.code).toBe("not_a_file");
    } finally {
      server.close();
    }
  });

  it("lists and searches a folder with a FIFO in it", async () => {
    const s = withFifo().splice();
    const list = (await s.list({})) as { content: string };
    expect(list.content).toContain("a.txt");
    const search = (await s.search({ pattern: "a" })) as { content: string };
    expect(search.content).toBe("a.txt:1: a");
  });
});
