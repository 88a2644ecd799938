import { afterEach, describe, expect, it } from "vitest";
import { createToolkit, renderResult } from "../../src/toolkit/index.js";
import type { ToolkitOptions } from "../../src/toolkit/options.js";
import { numbered, Project } from "../helpers/project.js";

const FULL = [
  "--- a/f.txt",
  "+++ b/f.txt",
  "@@ -1,5 +1,5 @@",
  " line 1",
  " line 2",
  "-line 3",
  "+THREE",
  " line 4",
  " line 5",
].join("\n");

/** Edits line 3 of a 5-line file and returns the text the model reads and the JSON code gets. */
async function editLine3(options: Partial<ToolkitOptions> = {}) {
  const p = new Project();
  p.write("f.txt", numbered(5));
  const kit = createToolkit({ root: p.root, lsp: false, ...options });
  const read = (await kit.call("read", { targets: [{ path: "f.txt" }] })) as {
    results: { file_hash: string }[];
  };
  const ops = "replace 3:\n+THREE";
  const file_hash = read.results[0]!.file_hash;
  const result = await kit.call("edit", { targets: [{ path: "f.txt", file_hash, ops }] });
  const tag = (result as { results: { file_hash: string }[] }).results[0]!.file_hash;
  return { text: renderResult("edit", result), json: JSON.stringify(result), tag };
}

describe("resultDiff", () => {
  afterEach(() => {
    delete process.env.SPLICE_RESULT_DIFF;
  });

  it("shows the model the changed lines by default, and code the full diff", async () => {
    const { text, json, tag } = await editLine3();
    expect(text).toBe(`¶f.txt#${tag}\n@@ -3 +3 @@\n3| THREE`);
    expect(JSON.parse(json).results[0].diff).toBe(`${FULL}\n`);
  });

  it('shows the whole diff with resultDiff: "full", and keeps the mark out of JSON', async () => {
    const { text, json, tag } = await editLine3({ resultDiff: "full" });
    expect(text).toBe(`¶f.txt#${tag}\n${FULL}`);
    expect(json).not.toContain("full");
  });

  it("takes SPLICE_RESULT_DIFF=full from the environment, and the option over it", async () => {
    process.env.SPLICE_RESULT_DIFF = "full";
    const { text, tag } = await editLine3();
    expect(text).toBe(`¶f.txt#${tag}\n${FULL}`);
    const changes = await editLine3({ resultDiff: "changes" });
    expect(changes.text).toBe(`¶f.txt#${changes.tag}\n@@ -3 +3 @@\n3| THREE`);
  });
});
