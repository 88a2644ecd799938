import { describe, expect, it } from "vitest";
import { renderResult } from "../../src/toolkit/index.js";

const diff = "--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +1,1 @@\n-new\n+old\n";

describe("undo's session list as text", () => {
  it("lists sessions compactly, with redo and hidden files", () => {
    const text = renderResult("undo", {
      sessions: [
        {
          backup_session: "s3",
          at: "2026-01-01T00:00:00.000Z",
          session: "cli",
          undone: true,
          is_undo: false,
          undoes: "s2",
          files: [{ path: "a.txt", action: "modified", diff, undone: true }],
          hidden_files: 2,
        },
      ],
    });
    expect(text).toBe(
      `backup_session s3; at 2026-01-01T00:00:00.000Z; session cli; undoes s2 (a redo); undone\nmodified a.txt (undone)\n${diff.trimEnd()}\n[2 more files this call may not read]`,
    );
    expect(renderResult("undo", { sessions: [] })).toBe("[no backup sessions]");
  });

  it("leaves other shapes to the JSON view", () => {
    expect(renderResult("x", { sessions: [{ id: 1 }] })).toBe(
      JSON.stringify({ sessions: [{ id: 1 }] }, null, 2),
    );
  });
});
