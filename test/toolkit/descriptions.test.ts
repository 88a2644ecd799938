/**
 * What every tool list gives a model on every turn: short descriptions that
 * end with a call the tool accepts, and the manuals on request. What each set
 * costs, and its budget: tool-list-budget.test.ts.
 */
import { describe, expect, it } from "vitest";
import { isToolError } from "../../src/index.js";
import {
  codingTools,
  fullTools,
  minimalTools,
  profileTools,
  TOOL_PROFILES,
} from "../../src/toolkit/index.js";
import { parseArgs } from "../../src/tools/define.js";

const everyTool = [...new Set([...fullTools, ...codingTools, ...minimalTools])];

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
