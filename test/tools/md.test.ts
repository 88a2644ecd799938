import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type MdResult, mdTool } from "../../src/tools/md/index.js";
import type { UndoResult } from "../../src/tools/undo/index.js";
import { LocalWorkspace, type LocalWorkspaceOptions } from "../../src/workspace/local.js";
import type { WriteIfOptions } from "../../src/workspace/workspace.js";
import { Project, rejection } from "../helpers/project.js";

const guide = readFileSync(new URL("../formats/fixtures/guide.md", import.meta.url), "utf8");

function project(): Project {
  const p = new Project();
  p.write("README.md", guide);
  return p;
}

const md = (p: Project, args: Record<string, unknown>, s = p.splice()) =>
  s.call("md", args) as Promise<MdResult>;

describe("md tool", () => {
  it("replaces a section and returns the shared result shape", async () => {
    const p = project();
    const r = await md(p, {
      action: "replace_section",
      path: "README.md",
      heading: "Install > From source",
      text: "Run `make install`.\n",
    });
    expect(r).toMatchObject({
      action: "md.replace_section",
      path: "README.md",
      changed: true,
      applied: true,
    });
    expect(r.header).toBe(`¶README.md#${r.file_hash}`);
    expect(r.backup_session).toBeDefined();
    expect(p.text("README.md")).toBe(
      guide.replace(
        "Clone the repository and build:\n\n    git clone https://example.com/widgets.git\n",
        "Run `make install`.\n",
      ),
    );
  });

  it("a # line inside a code fence is not a heading", async () => {
    const p = project();
    const error = await rejection(
      md(p, {
        action: "append_to_section",
        path: "README.md",
        heading: "Install from npm",
        text: "x",
      }),
    );
    expect(error.code).toBe("not_found");
    expect(error.details).toMatchObject({ path: "README.md", heading: "Install from npm" });
    await md(p, {
      action: "append_to_section",
      path: "README.md",
      heading: "Install",
      text: "Needs Node 20.",
    });
    expect(p.text("README.md")).toContain("```\n\nNeeds Node 20.\n\n### From source");
  });

  it("inserts after a heading, upserts a bullet once, and appends a table row", async () => {
    const p = project();
    const s = p.splice();
    await md(
      p,
      {
        action: "insert_after_heading",
        path: "README.md",
        heading: "Help",
        text: "We answer fast.",
      },
      s,
    );
    await md(
      p,
      { action: "upsert_bullet", path: "README.md", heading: "Features", bullet: "Gauges" },
      s,
    );
    const again = await md(
      p,
      { action: "upsert_bullet", path: "README.md", heading: "Features", bullet: "Gauges" },
      s,
    );
    expect(again).toMatchObject({ changed: false, diff: "" });
    expect(again.warnings[0]).toContain('already has "Gauges"');
    await md(
      p,
      {
        action: "table_append",
        path: "README.md",
        heading: "Options",
        row: ["`dark`", false, "Dark theme"],
      },
      s,
    );
    const text = p.text("README.md");
    expect(text).toContain("## Help\n\nWe answer fast.\n\nAsk on the forum.\n");
    expect(text).toContain("- Maps\n- Gauges\n");
    expect(text).toContain(
      "| `width` |      80 | Columns to use |\n| `dark`  |   false | Dark theme     |\n",
    );
  });

  it("moves a section within the file, adjusting heading levels", async () => {
    const p = project();
    const r = await md(p, {
      action: "move_section",
      path: "README.md",
      heading: "FAQ",
      to: "Help",
    });
    expect(r.dest_path).toBeUndefined();
    expect(r.warnings).toEqual(['Heading levels shifted by +1 to fit under "Help".']);
    expect(
      p
        .text("README.md")
        .endsWith(
          "## Help\n\nAsk on the forum.\n\n### FAQ\n\n#### Why widgets?\n\nBecause dashboards deserve them.\n",
        ),
    ).toBe(true);
  });

  it("moves a section to another file in one backup session; undo restores both", async () => {
    const p = project();
    p.write("docs/help.md", "# Help\r\n\r\nMore help.\r\n");
    const s = p.splice();
    const r = await md(
      p,
      {
        action: "move_section",
        path: "README.md",
        heading: "FAQ",
        to: "Help",
        to_path: "docs/help.md",
      },
      s,
    );
    expect(r).toMatchObject({
      action: "md.move_section",
      path: "README.md",
      dest_path: "docs/help.md",
      changed: true,
    });
    expect(r.diff).toContain("--- a/README.md");
    expect(r.diff).toContain("+++ b/docs/help.md");
    expect(p.text("README.md")).not.toContain("FAQ");
    expect(p.bytes("docs/help.md").toString()).toBe(
      "# Help\r\n\r\nMore help.\r\n\r\n## FAQ\r\n\r\n### Why widgets?\r\n\r\nBecause dashboards deserve them.\r\n",
    );
    const sessions = (await s.undo({ list: true })) as {
      sessions: { backup_session: string; files: { path: string }[] }[];
    };
    expect(sessions.sessions[0]!.backup_session).toBe(r.backup_session);
    expect(sessions.sessions[0]!.files.map((f) => f.path).sort()).toEqual([
      "README.md",
      "docs/help.md",
    ]);
    const undone = (await s.undo({})) as UndoResult;
    expect(undone.undone).toBe(r.backup_session);
    expect(p.text("README.md")).toBe(guide);
    expect(p.text("docs/help.md")).toBe("# Help\r\n\r\nMore help.\r\n");
  });

  it("a move to a new file creates it; undo removes it again", async () => {
    const p = project();
    const s = p.splice();
    const r = await md(
      p,
      { action: "move_section", path: "README.md", heading: "Options", to_path: "docs/options.md" },
      s,
    );
    expect(r.dest_file_hash).toMatch(/^[0-9A-F]{4}$/);
    expect(p.text("docs/options.md").startsWith("## Options\n\n| Name")).toBe(true);
    await s.undo({});
    expect(existsSync(join(p.root, "docs/options.md"))).toBe(false);
    expect(p.text("README.md")).toBe(guide);
  });

  it("a move to another file is all or nothing", async () => {
    const p = project();
    p.write("help.md", "# Help\n");
    class FailingSource extends LocalWorkspace {
      constructor(
        options: LocalWorkspaceOptions,
        private readonly failing: string,
      ) {
        super(options);
      }
      override writeIf(
        path: string,
        bytes: Uint8Array,
        expected: string | null,
        options?: WriteIfOptions,
      ) {
        if (path.endsWith(this.failing)) return Promise.reject(new Error("disk full"));
        return super.writeIf(path, bytes, expected, options);
      }
    }
    const workspace = new FailingSource(
      { confineTo: p.root, lockDir: join(p.root, ".splice/locks") },
      "README.md",
    );
    const error = await rejection(
      md(
        p,
        {
          action: "move_section",
          path: "README.md",
          heading: "FAQ",
          to: "Help",
          to_path: "help.md",
        },
        p.splice({ workspace }),
      ),
    );
    expect(error.code).toBe("io");
    expect(p.text("help.md")).toBe("# Help\n");
    expect(p.text("README.md")).toBe(guide);
  });

  it("previews and checks without writing, across both files", async () => {
    const p = project();
    p.write("help.md", "# Help\n");
    const preview = await md(p, {
      action: "move_section",
      path: "README.md",
      heading: "FAQ",
      to_path: "help.md",
      mode: "preview",
    });
    expect(preview).toMatchObject({ applied: false, changed: true, dest_path: "help.md" });
    expect(preview.diff).toContain("+## FAQ");
    const check = await rejection(
      md(p, {
        action: "move_section",
        path: "README.md",
        heading: "FAQ",
        to_path: "help.md",
        mode: "check",
      }),
    );
    expect(check.code).toBe("check_failed");
    expect(check.message).toContain("README.md and help.md would change");
    const single = await rejection(
      md(p, {
        action: "append_to_section",
        path: "README.md",
        heading: "Help",
        text: "x",
        mode: "check",
      }),
    );
    expect(single.code).toBe("check_failed");
    expect(p.text("README.md")).toBe(guide);
    expect(p.text("help.md")).toBe("# Help\n");
  });

  it("keeps CRLF line endings and a BOM", async () => {
    const p = new Project();
    p.write("NOTES.md", "\uFEFF# Notes\r\n\r\n## Todo\r\n\r\n- one\r\n");
    await md(p, { action: "upsert_bullet", path: "NOTES.md", heading: "Todo", bullet: "two" });
    expect(p.bytes("NOTES.md").toString()).toBe(
      "\uFEFF# Notes\r\n\r\n## Todo\r\n\r\n- one\r\n- two\r\n",
    );
  });

  it("an ambiguous heading names every match", async () => {
    const p = new Project();
    p.write("a.md", "# A\n\n## Notes\n\n# B\n\n## Notes\n");
    const error = await rejection(
      md(p, { action: "append_to_section", path: "a.md", heading: "Notes", text: "x" }),
    );
    expect(error.code).toBe("ambiguous");
    expect(error.details.lines).toEqual([3, 7]);
  });

  it("two same headings under one parent are told apart by line (and to_line for a move)", async () => {
    const p = new Project();
    p.write("a.md", "# Guide\n\n## Notes\n\nfirst\n\n## Notes\n\nsecond\n");
    const error = await rejection(
      md(p, { action: "append_to_section", path: "a.md", heading: "Guide > Notes", text: "x" }),
    );
    expect(error.message).toBe(
      '"Guide > Notes" matches 2 headings in a.md: "## Notes" (line 3), "## Notes" (line 7). They share their parent headings, so pass "line" with the line of the one you mean, e.g. "line": 3.',
    );
    await md(p, {
      action: "append_to_section",
      path: "a.md",
      heading: "Notes",
      line: 7,
      text: "x",
    });
    expect(p.text("a.md")).toBe("# Guide\n\n## Notes\n\nfirst\n\n## Notes\n\nsecond\n\nx\n");
    const stale = await rejection(
      md(p, { action: "append_to_section", path: "a.md", heading: "Notes", line: 5, text: "x" }),
    );
    expect(stale.message).toContain('No heading "Notes" starts on line 5 of a.md');

    // The target's line as the file was before the moved section came out of it.
    p.write("b.md", "# Guide\n\n## Move me\n\nm\n\n## Notes\n\nfirst\n\n## Notes\n\nsecond\n");
    await md(p, {
      action: "move_section",
      path: "b.md",
      heading: "Move me",
      to: "Notes",
      to_line: 11,
    });
    expect(p.text("b.md")).toBe(
      "# Guide\n\n## Notes\n\nfirst\n\n## Notes\n\nsecond\n\n### Move me\n\nm\n",
    );
  });
});

describe("md manual", () => {
  it("quotes the tool's real error sentences and shows every action", async () => {
    const p = new Project();
    p.write("README.md", "# A\n\n## Notes\n\n# B\n\n## Notes\n");
    const missing = await rejection(
      md(p, { action: "append_to_section", path: "README.md", heading: "Nope", text: "x" }),
    );
    const twice = await rejection(
      md(p, { action: "append_to_section", path: "README.md", heading: "Notes", text: "x" }),
    );
    expect(missing.message).toContain("README.md has no heading");
    expect(mdTool.manual).toContain("README.md has no heading");
    expect(twice.message).toContain("Add the parent heading to make it unique");
    expect(mdTool.manual).toContain("Add the parent heading to make it unique");
    expect(twice.message).toContain('or pass "line" with the line of the one you mean');
    expect(mdTool.manual).toContain('pass "line" with the line of the one you mean');
    for (const action of [
      "replace_section",
      "insert_after_heading",
      "append_to_section",
      "move_section",
      "upsert_bullet",
      "table_append",
    ]) {
      expect(mdTool.manual).toContain(`"action": "${action}"`);
    }
  });
});
