/**
 * The review server's door, over real HTTP on a real project: the token,
 * the Host check (DNS rebinding), same-origin JSON POSTs for changes (CSRF),
 * and the root the tools keep it in. Each refusal has a status and a body
 * that says what to do; none of them changes a file.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReviewServer, serveReview } from "../../src/review/server.js";
import type { Splice } from "../../src/splice.js";
import { Project } from "../helpers/project.js";

interface Answer {
  status: number;
  body: { error?: { code: string; message: string } } & Record<string, unknown>;
}

describe("the review server's checks", () => {
  const project = new Project();
  let agent: Splice;
  let server: ReviewServer;
  let backup: string;
  let origin: string;

  /** A raw request: any Host, method, headers and body. */
  function send(
    path: string,
    options: { method?: string; headers?: Record<string, string>; body?: string } = {},
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: server.port,
          path,
          method: options.method ?? "GET",
          headers: { host: `127.0.0.1:${server.port}`, ...options.headers },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk) => {
            text += chunk;
          });
          res.on("end", () => {
            const json = res.headers["content-type"]?.startsWith("application/json");
            resolve({ status: res.statusCode ?? 0, body: json ? JSON.parse(text) : { text } });
          });
        },
      );
      req.on("error", reject);
      req.end(options.body);
    });
  }

  const undoBody = () => JSON.stringify({ backup_session: backup, preview: false });
  /** The headers the page sends; a header given as "" is left out. */
  const json = (more: Record<string, string> = {}) =>
    Object.fromEntries(
      Object.entries({
        "content-type": "application/json",
        "x-splice-token": server.token,
        origin,
        ...more,
      }).filter(([, v]) => v !== ""),
    );

  beforeAll(async () => {
    project.write("a.txt", "one\n");
    agent = project.splice({ history: { session: "mcp-guarded" } });
    await agent.read({ targets: [{ path: "a.txt" }] });
    await agent.write({ targets: [{ path: "a.txt", text: "two\n" }] });
    const listed = await agent.undo({ list: true });
    backup = "sessions" in listed ? listed.sessions[0]!.backup_session : "";
    server = await serveReview({ root: project.root });
    origin = `http://127.0.0.1:${server.port}`;
  });

  afterAll(async () => {
    await server.close();
    await agent.close();
  });

  it("prints an address on 127.0.0.1 with a fresh token", async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/review?token=${server.token}`);
    expect(server.token).toMatch(/^[\w-]{22}$/);
    const other = await serveReview({ root: project.root });
    expect(other.token).not.toBe(server.token);
    await other.close();
  });

  it("serves the page and the API only with the token", async () => {
    const page = await send(`/review?token=${server.token}`);
    expect(page.status).toBe(200);
    expect(String(page.body.text)).toContain("<title>splice review</title>");
    for (const path of ["/review", `/review?token=${server.token}x`, "/review/api/sessions"]) {
      const r = await send(path);
      expect(r.status).toBe(401);
      expect(r.body.error?.code).toBe("bad_token");
      expect(r.body.error?.message).toMatch(/review token: open the page at the address/);
    }
    const wrong = await send("/review/api/sessions", { headers: { "x-splice-token": "nope" } });
    expect(wrong.body.error?.message).toMatch(/^Wrong review token/);
    const listed = await send("/review/api/sessions", {
      headers: { "x-splice-token": server.token },
    });
    expect(listed.status).toBe(200);
    expect((listed.body.sessions as { backup_session: string }[])[0]?.backup_session).toBe(backup);
  });

  it("refuses a Host that is not this server (DNS rebinding), before the token", async () => {
    for (const host of [
      `evil.example:${server.port}`,
      "127.0.0.1",
      `127.0.0.1:${server.port + 1}`,
    ]) {
      const r = await send(`/review?token=${server.token}`, { headers: { host } });
      expect(r.status).toBe(403);
      expect(r.body.error).toEqual({
        code: "bad_host",
        message: `Host "${host}" is not this server; open the page at the address splice review printed.`,
      });
    }
    const local = await send(`/review?token=${server.token}`, {
      headers: { host: `localhost:${server.port}` },
    });
    expect(local.status).toBe(200);
  });

  it("refuses a cross-origin or cross-site POST even with the token, and changes nothing", async () => {
    const foreign = await send("/review/api/undo", {
      method: "POST",
      headers: json({ origin: "http://evil.example" }),
      body: undoBody(),
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toEqual({
      code: "cross_origin",
      message: `Origin "http://evil.example" may not change files here: only the review page itself (${origin}) can.`,
    });
    const site = await send("/review/api/undo", {
      method: "POST",
      headers: json({ origin: "", "sec-fetch-site": "cross-site" }),
      body: undoBody(),
    });
    expect(site.status).toBe(403);
    expect(site.body.error?.message).toBe(
      "A cross-site request may not change files here: only the review page itself can.",
    );
    expect(project.text("a.txt")).toBe("two\n");
  });

  it("takes changes only as JSON POSTs with the token in a header", async () => {
    const form = await send("/review/api/undo", {
      method: "POST",
      headers: json({ "content-type": "application/x-www-form-urlencoded" }),
      body: "backup_session=x",
    });
    expect(form.status).toBe(415);
    expect(form.body.error?.code).toBe("bad_request");
    // The ?token= of a page address does not carry a POST: a form could send it.
    const queried = await send(`/review/api/undo?token=${server.token}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin },
      body: undoBody(),
    });
    expect(queried.status).toBe(401);
    const got = await send(`/review/api/undo?token=${server.token}`);
    expect(got.status).toBe(405);
    expect(got.body.error?.message).toBe("GET may not change files; the page sends a POST.");
    const bad = await send("/review/api/undo", { method: "POST", headers: json(), body: "{" });
    expect(bad.status).toBe(400);
    expect(project.text("a.txt")).toBe("two\n");
  });

  it("previews, then applies, an undo from its own origin", async () => {
    const previewed = await send("/review/api/undo", {
      method: "POST",
      headers: json(),
      body: JSON.stringify({ backup_session: backup }),
    });
    expect(previewed.status).toBe(200);
    expect(previewed.body.applied).toBe(false);
    expect(project.text("a.txt")).toBe("two\n");
    const applied = await send("/review/api/undo", {
      method: "POST",
      headers: json(),
      body: undoBody(),
    });
    expect(applied.status).toBe(200);
    expect(applied.body.applied).toBe(true);
    expect(project.text("a.txt")).toBe("one\n");
  });

  it("shows nothing outside the root: the tools' guard answers", async () => {
    const outside = await send(
      `/review/api/history?path=${encodeURIComponent("../../etc/passwd")}`,
      {
        headers: { "x-splice-token": server.token },
      },
    );
    expect(outside.status).toBe(403);
    expect(outside.body.error?.code).toBe("guard");
    expect(outside.body.error?.message).toMatch(/resolves outside the project root/);
    const secret = await send(`/review/api/rollback`, {
      method: "POST",
      headers: json(),
      body: JSON.stringify({ path: ".splice/journal.jsonl", hash: "" }),
    });
    expect(secret.status).toBe(403);
    const unknown = await send("/review/api/files", {
      headers: { "x-splice-token": server.token },
    });
    expect(unknown.status).toBe(404);
  });

  it("streams an event when a backup session appears", async () => {
    const got = await new Promise<string>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port: server.port,
          path: `/review/events?token=${server.token}`,
          headers: { host: `127.0.0.1:${server.port}` },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            text += chunk;
            if (text.includes("event: hello")) {
              void agent.write({ targets: [{ path: "b.txt", text: "new\n" }] });
            }
            if (text.includes("event: sessions")) {
              req.destroy();
              resolve(text);
            }
          });
        },
      );
      req.on("error", reject);
      req.end();
    });
    expect(got).toMatch(/^retry: 1000\nevent: hello\n/);
  });
});
