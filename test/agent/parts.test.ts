/** The agent's pure parts: answers to approval questions, settings, provider errors, repair. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { APIConnectionError, APIError } from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { declineMessage, parseReply } from "../../src/agent/approvals.js";
import { ConfigError, readKey, redactKey, resolveConfig } from "../../src/agent/config.js";
import { describeProviderError, MAX_RETRIES, retryDelay } from "../../src/agent/errors.js";
import { printable } from "../../src/agent/terminal.js";
import { callLine, type Message, repair } from "../../src/agent/transcript.js";

const ctx = { baseURL: "https://api.example.com", model: "m-1", keyHome: "$K" };

function apiError(
  status: number | undefined,
  type: string,
  message: string,
  headers: Record<string, string> = {},
) {
  return APIError.generate(
    status,
    { type: "error", error: { type, message } },
    undefined,
    new Headers(headers),
  );
}

describe("approval answers", () => {
  it("reads yes, always, and no with or without a reason", () => {
    expect(parseReply("y")).toEqual({ kind: "yes" });
    expect(parseReply(" YES ")).toEqual({ kind: "yes" });
    expect(parseReply("a")).toEqual({ kind: "always" });
    expect(parseReply("always")).toEqual({ kind: "always" });
    expect(parseReply("n")).toEqual({ kind: "no" });
    expect(parseReply("no, use tabs")).toEqual({ kind: "no", reason: "use tabs" });
    expect(parseReply("n: not that file")).toEqual({ kind: "no", reason: "not that file" });
    expect(parseReply("nothing")).toBeUndefined();
    expect(parseReply("yes please")).toBeUndefined();
    expect(parseReply("")).toBeUndefined();
  });

  it("tells the model the reason, or that there was none", () => {
    expect(
      declineMessage({ summary: "run rm -rf build" }, { approved: false, reason: "keep it" }),
    ).toBe(
      'The person declined this call (run rm -rf build); it did not run and nothing changed. Their reason: "keep it". Take it into account before going on.',
    );
    expect(declineMessage({ summary: "edit a" }, { approved: false })).toContain(
      "They gave no reason",
    );
  });
});

describe("agent settings", () => {
  const noFile = { SPLICE_CONFIG: "/nonexistent/agent.json" };

  it("takes flags over splice's variables over the config file over ANTHROPIC_*", () => {
    const dir = mkdtempSync(join(tmpdir(), "splice-config-"));
    const file = join(dir, "agent.json");
    writeFileSync(
      file,
      JSON.stringify({ model: "from-file", base_url: "https://file.example", key_file: "key" }),
    );
    const env = { SPLICE_CONFIG: file, ANTHROPIC_MODEL: "from-anthropic", ANTHROPIC_API_KEY: "k" };
    const fromFile = resolveConfig({}, env);
    expect(fromFile).toMatchObject({
      model: "from-file",
      baseURL: "https://file.example",
      tools: "minimal",
    });
    expect(fromFile.key).toEqual({ kind: "file", path: join(dir, "key") });
    expect(resolveConfig({}, { ...env, SPLICE_MODEL: "from-splice" }).model).toBe("from-splice");
    expect(resolveConfig({ model: "from-flag", "base-url": "http://x:1/" }, env)).toMatchObject({
      model: "from-flag",
      baseURL: "http://x:1",
    });
    expect(resolveConfig({}, { ...env, SPLICE_API_KEY: "s" }).key).toEqual({
      kind: "env",
      name: "SPLICE_API_KEY",
    });
    expect(resolveConfig({}, noFile)).toMatchObject({
      model: "claude-sonnet-5-5",
      baseURL: "https://api.anthropic.com",
      key: { kind: "env", name: "ANTHROPIC_API_KEY" },
    });
  });

  it("refuses a config file holding the key, and bad values, in one sentence", () => {
    const dir = mkdtempSync(join(tmpdir(), "splice-config-"));
    const file = join(dir, "agent.json");
    writeFileSync(file, JSON.stringify({ api_key: "sk-x" }));
    expect(() => resolveConfig({}, { SPLICE_CONFIG: file })).toThrow(
      /must not hold the API key itself/,
    );
    expect(() => resolveConfig({ tools: "most" }, noFile)).toThrow(ConfigError);
    expect(() => resolveConfig({ "base-url": "api.example.com" }, noFile)).toThrow(
      /not an http\(s\) URL/,
    );
  });

  it("reads the key when asked and redacts it from text", () => {
    const dir = mkdtempSync(join(tmpdir(), "splice-key-"));
    writeFileSync(join(dir, "key"), "  sk-abcdefgh123  \n");
    const source = { kind: "file" as const, path: join(dir, "key") };
    expect(readKey(source)).toBe("sk-abcdefgh123");
    expect(redactKey("x sk-abcdefgh123 y sk-abcdefgh123", source)).toBe(
      "x [redacted key] y [redacted key]",
    );
    expect(() => readKey({ kind: "env", name: "NOPE" }, {})).toThrow("$NOPE is not set");
    expect(() => readKey({ kind: "file", path: join(dir, "missing") })).toThrow(
      /cannot read the key file .* \(ENOENT\)/,
    );
  });
});

describe("provider errors", () => {
  it("names each failure and what to do in one line", () => {
    const cases: [unknown, RegExp][] = [
      [
        apiError(401, "authentication_error", "invalid x-api-key"),
        /^the provider refused the API key \(401 authentication_error: invalid x-api-key\)\. Check \$K/,
      ],
      [
        apiError(404, "not_found_error", "model: m-1"),
        /Check --model \(now "m-1"\) and --base-url/,
      ],
      [
        apiError(429, "rate_limit_error", "slow down", { "retry-after": "30" }),
        /^rate limited by the provider \(429 rate_limit_error: slow down\); it asks to wait 30 s\. Wait/,
      ],
      [
        apiError(529, "overloaded_error", "Overloaded"),
        /^the provider is overloaded \(529 overloaded_error: Overloaded\)/,
      ],
      [
        apiError(400, "invalid_request_error", "prompt is too long: 210000 tokens"),
        /no longer fits the model.*without --continue/,
      ],
      [
        new APIConnectionError({ cause: Object.assign(new Error("x"), { code: "ENOTFOUND" }) }),
        /^cannot reach https:\/\/api\.example\.com \(ENOTFOUND\)/,
      ],
    ];
    for (const [error, line] of cases) {
      const problem = describeProviderError(error, ctx);
      expect(problem.line).toMatch(line);
      expect(problem.line).not.toContain("\n");
    }
  });

  it("retries where the provider says to, as long as it says, within bounds", () => {
    const limited = describeProviderError(
      apiError(429, "rate_limit_error", "x", { "retry-after": "2" }),
      ctx,
    );
    expect(retryDelay(limited, 0)).toBe(2_000);
    expect(retryDelay(limited, MAX_RETRIES)).toBeUndefined();
    const ms = describeProviderError(
      apiError(529, "overloaded_error", "x", { "retry-after-ms": "250" }),
      ctx,
    );
    expect(retryDelay(ms, 0)).toBe(250);
    const backoff = retryDelay(
      describeProviderError(apiError(529, "overloaded_error", "x"), ctx),
      2,
    )!;
    expect(backoff).toBeGreaterThanOrEqual(3_000);
    expect(backoff).toBeLessThanOrEqual(4_000);
    const told = describeProviderError(
      apiError(529, "overloaded_error", "x", { "x-should-retry": "false" }),
      ctx,
    );
    expect(retryDelay(told, 0)).toBeUndefined();
    const tooLong = describeProviderError(
      apiError(429, "rate_limit_error", "x", { "retry-after": "3600" }),
      ctx,
    );
    expect(retryDelay(tooLong, 0)).toBeUndefined();
    expect(
      retryDelay(describeProviderError(apiError(401, "authentication_error", "x"), ctx), 0),
    ).toBeUndefined();
  });
});

describe("conversation repair", () => {
  it("answers every tool_use that has no result, so the API accepts the conversation", () => {
    const use = (id: string) => ({ type: "tool_use" as const, id, name: "read", input: {} });
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "go" }] },
      { role: "assistant", content: [use("t1"), use("t2")] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] },
      { role: "assistant", content: [use("t3")] },
    ];
    const fixed = repair(messages);
    expect(fixed[2]!.content.map((b) => (b as { tool_use_id: string }).tool_use_id)).toEqual([
      "t2",
      "t1",
    ]);
    expect(fixed[4]).toMatchObject({
      role: "user",
      content: [{ tool_use_id: "t3", is_error: true }],
    });
  });

  it("prints outside text without control characters", () => {
    expect(printable("a\u001b[2Jb\r\n\tc\u0007\u009b")).toBe("a[2Jb\n\tc");
  });

  it("writes call lines the same way everywhere", () => {
    expect(callLine("read a.txt", "ok")).toBe("[ok] read a.txt");
    expect(callLine("edit a.txt", "declined: use tabs")).toBe("[declined] edit a.txt: use tabs");
    expect(callLine("edit a.txt", "error: stale")).toBe("[error] edit a.txt: stale");
  });
});

describe("allow rules", () => {
  it("allows the prefix alone or with arguments, never with shell syntax", async () => {
    const { allowedBy } = await import("../../src/agent/approvals.js");
    const rules = ["npm test", "git status"];
    expect(allowedBy("npm test", rules)).toBe("npm test");
    expect(allowedBy("npm test -- --run x", rules)).toBe("npm test");
    expect(allowedBy("  git status  ", rules)).toBe("git status");
    expect(allowedBy("npm testing", rules)).toBeUndefined();
    for (const sneaky of [
      "npm test && rm -rf ~",
      "npm test; rm x",
      "npm test | sh",
      "npm test > a.txt",
      "npm test $(rm x)",
      "npm test `rm x`",
      "npm test\nrm x",
      "npm test & rm x",
    ]) {
      expect(allowedBy(sneaky, rules), sneaky).toBeUndefined();
    }
  });

  it("takes --allow comma-separated, then the config file's", () => {
    const dir = mkdtempSync(join(tmpdir(), "splice-config-"));
    const file = join(dir, "agent.json");
    writeFileSync(file, JSON.stringify({ allow: ["git status", "npm test"] }));
    const env = { SPLICE_CONFIG: file, ANTHROPIC_API_KEY: "k" };
    expect(resolveConfig({ allow: "npm test, make" }, env).allow).toEqual([
      "npm test",
      "make",
      "git status",
    ]);
    expect(() => resolveConfig({ allow: " " }, env)).toThrow(ConfigError);
  });
});

describe("usage", () => {
  it("shows tokens, and the cost only with a price", async () => {
    const { usageLine } = await import("../../src/agent/usage.js");
    const turn = { input: 1200, output: 300, cacheRead: 1000, cacheWrite: 0 };
    expect(usageLine(turn, undefined)).toBe("tokens: 1,200 in · 300 out · 1,000 cache read");
    expect(usageLine(turn, { input: 3, output: 15, cache_read: 0.3 })).toBe(
      "tokens: 1,200 in · 300 out · 1,000 cache read · $0.0084",
    );
  });
});
