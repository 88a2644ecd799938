/**
 * What every tool list costs a model on every turn: short descriptions that
 * end with a call the tool accepts, the manuals on request, and each tool set
 * within the token ceiling of issue #15 (o200k, counted as hosts send it:
 * `{name, description, input_schema}`). `npm run bench -- tokens` prints the
 * figures beside the reference server's.
 */
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { toolJsonSchema } from "../../src/hosts/json-schema.js";
import { isToolError, type Tool } from "../../src/index.js";
import {
  codingTools,
  fullTools,
  minimalTools,
  profileTools,
  TOOL_PROFILES,
} from "../../src/toolkit/index.js";
import { parseArgs } from "../../src/tools/define.js";

const everyTool = [...new Set([...fullTools, ...codingTools, ...minimalTools])];

const listTokens = (tools: readonly Tool[]) =>
  encode(
    JSON.stringify(
      tools.map((t) => ({
        name: t.name,
        description: t.description,
        input_schema: toolJsonSchema(t),
      })),
    ),
  ).length;

describe("short descriptions", () => {
  it.each(everyTool.map((t) => [t.name, t] as const))(
    "%s: says what it does in a few lines and ends with a call the tool accepts",
    (_, tool) => {
      const lines = tool.description.split("\n");
      expect(lines.length).toBeLessThanOrEqual(3);
      const example = /^Example: (\{.*\})$/.exec(lines.at(-1)!);
      expect(example, tool.description).not.toBeNull();
      expect(() => parseArgs(tool, JSON.parse(example![1]!))).not.toThrow();
      expect(tool.manual.length).toBeGreaterThan(tool.description.length);
    },
  );

  it("keep each tool set within its token ceiling", () => {
    // 4,500 until issue 21's notebook tool (about 200 tokens) joined the full set,
    // 4,650 until issue 22's checkpoint tool (about 110).
    expect(listTokens(fullTools)).toBeLessThanOrEqual(4_750);
    expect(listTokens(minimalTools)).toBeLessThanOrEqual(1_200);
    expect(listTokens(codingTools)).toBeLessThan(listTokens(fullTools));
  });
});

describe("profileTools", () => {
  it("gives each set with short descriptions, or the whole manuals as asked", () => {
    expect(profileTools()).toBe(fullTools);
    expect(profileTools("coding", "short")).toBe(codingTools);
    const manuals = profileTools("minimal", "full");
    expect(manuals.map((t) => t.name)).toEqual(minimalTools.map((t) => t.name));
    expect(manuals.map((t) => t.description)).toEqual(minimalTools.map((t) => t.manual));
    // The same objects every time: hosts cache a tool's listing by the tool.
    expect(profileTools("minimal", "full")[0]).toBe(manuals[0]);
  });

  it("puts help in every set", () => {
    for (const profile of TOOL_PROFILES) {
      expect(profileTools(profile).map((t) => t.name)).toContain("help");
    }
  });

  it("refuses a set or a style it does not know, naming the real ones", () => {
    const refusal = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        if (isToolError(error)) return `${error.code}: ${error.message}`;
        throw error;
      }
      throw new Error("not refused");
    };
    expect(refusal(() => profileTools("small"))).toBe(
      'invalid_input: There is no tool set "small". Pass tools as one of: full, coding, minimal.',
    );
    expect(refusal(() => profileTools("toString"))).toContain('no tool set "toString"');
    expect(refusal(() => profileTools("full", "long"))).toBe(
      'invalid_input: There is no description style "long". Pass descriptions as "short" (default) or "full".',
    );
  });
});
