import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bytesTag } from "../../src/text/hashline.js";
import type { HistoryResult } from "../../src/tools/history/index.js";
import type { PlanResult } from "../../src/tools/plan/index.js";
import { planTool } from "../../src/tools/plan/index.js";
import type { SessionSummary } from "../../src/tools/undo/index.js";
import { numbered, Project, rejection } from "../helpers/project.js";

const bytes = (text: string) => new TextEncoder().encode(text);

const BIN = join(import.meta.dirname, "../../bin/splice");

const call = (p: Project, args: Record<string, unknown>) =>
  p.splice().call("plan", args) as Promise<PlanResult>;

const edit = (path: string, old_text: string, new_text: string) => ({
  tool: "edit",
  args: { targets: [{ path, edits: [{ old_text, new_text }] }] },
});

/** A project with a few files, and their exact bytes to compare against. */
function seeded() {
  const p = new Project();
  p.write("a.txt", numbered(5));
  p.write("crlf.txt", "one\r\ntwo\r\nthree");
  p.write("old/name.ts", "export const x = 1;\n");
  p.write("doomed.txt", "delete me\n");
  const snapshot = () =>
    Object.fromEntries(
      ["a.txt", "crlf.txt", "old/name.ts", "doomed.txt", "new/name.ts", "created.txt"].map((f) => [
        f,
        existsSync(join(p.root, f)) ? p.bytes(f).toString("base64") : null,
      ]),
    );
  return { p, before: snapshot(), snapshot };
}

const CHANGES = [
  edit("a.txt", "line 2\n", "LINE 2\n"),
  {
    tool: "patch",
    args: {
      patch:
        "*** Begin Patch\n*** Update File: crlf.txt\n@@\n one\n-two\n+TWO\n*** Add File: created.txt\n+new\n*** End Patch",
    },
  },
  { tool: "file", args: { action: "rename", path: "old/name.ts", to: "new/name.ts" } },
  { tool: "file", args: { action: "delete", path: "doomed.txt" } },
];

describe("plan: strict", () => {
  it("applies every step under one backup session; undo restores everything", async () => {
    const { p, before, snapshot } = seeded();
    const r = await call(p, {
      steps: [...CHANGES, { validate: { run: "true" } }, { validate: { syntax: true } }],
    });
    expect(r.steps.map((s) => s.status)).toEqual([
      "applied",
      "applied",
      "applied",
      "applied",
      "passed",
      "passed",
    ]);
    expect(r.files).toEqual([
      "a.txt",
      "crlf.txt",
      "created.txt",
      "new/name.ts",
      "old/name.ts",
      "doomed.txt",
    ]);
    expect(p.text("a.txt")).toContain("LINE 2");
    expect(p.bytes("crlf.txt").toString()).toBe("one\r\nTWO\r\nthree");
    expect(r.diff).toContain("+LINE 2");
    expect(r.diff).toContain("-delete me");
    expect(r.content).toContain("backup_session");
    const sessions = (await p.splice().undo({ list: true })) as { sessions: SessionSummary[] };
    expect(sessions.sessions[0]!.backup_session).toBe(r.backup_session);
    expect(sessions.sessions[0]!.files).toHaveLength(6);
    await p.splice().undo({});
    expect(snapshot()).toEqual(before);
  });

  it("rolls every file back byte for byte when a validation command fails", async () => {
    const { p, before, snapshot } = seeded();
    const e = await rejection(
      call(p, {
        steps: [
          ...CHANGES,
          { validate: { run: "echo 2 tests failed; exit 3" } },
          edit("a.txt", "line 4", "never"),
        ],
      }),
    );
    expect(e.code).toBe("batch_failed");
    expect(e.message).toContain("Step 5 of 6 (validate: run echo 2 tests failed; exit 3) failed");
    expect(e.message).toContain("it exited with 3");
    expect(e.message).toContain("2 tests failed");
    expect(e.message).toContain("The plan was rolled back");
    expect(e.details).toMatchObject({
      failed_step: 5,
      rolled_back: true,
      cause: { code: "validation_failed" },
    });
    expect(snapshot()).toEqual(before);
    // The rollback marks the plan undone, so undo goes further back instead of redoing it.
    const list = (await p.splice().undo({ list: true })) as { sessions: SessionSummary[] };
    const planSession = list.sessions.find((s) => !s.is_undo && s.files.length === 6);
    expect(planSession?.undone).toBe(true);
    expect(list.sessions[0]!.is_undo).toBe(true);
  });

  it("refuses a checkpoint step, whose restore would fight the plan's rollback", async () => {
    const p = new Project();
    const e = await rejection(
      call(p, { steps: [{ tool: "checkpoint", args: { action: "create", name: "x" } }] }),
    );
    expect(e.code).toBe("invalid_input");
    expect(e.message).toContain('Step 1 names a tool a plan cannot run ("checkpoint")');
    expect(existsSync(join(p.root, ".splice/checkpoints"))).toBe(false);
  });

  // run checkpoints local roots only.
  it.skipIf(process.env.SPLICE_TEST_REMOTE)(
    "lists what a validate command changed, and undoing the plan undoes it with the edits",
    async () => {
      const p = new Project();
      p.write("a.txt", "a\n");
      p.write("gen.txt", "old generated\n", 0o640);
      const result = await call(p, {
        steps: [
          edit("a.txt", "a", "A"),
          { validate: { run: "echo regenerated > gen.txt && echo made > made.txt" } },
        ],
      });
      expect(result.steps[1]).toMatchObject({ status: "passed", files: ["gen.txt", "made.txt"] });
      expect(p.text("gen.txt")).toBe("regenerated\n");
      const undone = (await p.splice().undo({ backup_session: result.backup_session! })) as {
        files: { path: string; action: string }[];
      };
      expect(undone.files.map((f) => [f.path, f.action]).sort()).toEqual([
        ["a.txt", "restore"],
        ["gen.txt", "restore"],
        ["made.txt", "delete"],
      ]);
      expect(p.text("a.txt")).toBe("a\n");
      expect(p.text("gen.txt")).toBe("old generated\n");
      expect(p.mode("gen.txt")).toBe(0o640);
      expect(existsSync(join(p.root, "made.txt"))).toBe(false);
    },
  );

  // run checkpoints local roots only.
  it.skipIf(process.env.SPLICE_TEST_REMOTE)(
    "says that files changed by commands are not rolled back, naming the commands and the undo that puts them back",
    async () => {
      const p = new Project();
      p.write("a.txt", "a\n");
      p.write("c.txt", "orig\n");
      const e = await rejection(
        call(p, {
          steps: [
            edit("a.txt", "a", "A"),
            { tool: "run", args: { command: "echo changed > c.txt" } },
            { validate: { run: "exit 1" } },
          ],
        }),
      );
      expect(e.message.split("\n").slice(-2)).toEqual([
        "The plan was rolled back: a.txt is as before it.",
        `Files changed by commands are not rolled back: steps 2 (run echo changed > c.txt), 3 (validate: run exit 1) ran, and whatever they changed stays as left. They changed c.txt; undo backup session ${e.details.backup_session} to put it back too.`,
      ]);
      expect(e.details).toMatchObject({ restored: ["a.txt"], commands_ran: [2, 3] });
      expect(p.text("a.txt")).toBe("a\n");
      expect(p.text("c.txt")).toBe("changed\n");
      // run's checkpoint recorded the command's change in the plan's session: undo puts it back.
      await p.splice().undo({ backup_session: e.details.backup_session as string });
      expect(p.text("c.txt")).toBe("orig\n");
      expect(p.text("a.txt")).toBe("a\n");

      const only = await rejection(call(p, { steps: [{ validate: { run: "exit 2" } }] }));
      expect(only.message.split("\n").slice(-2)).toEqual([
        "No tool step had changed a file; there was nothing to restore.",
        "Files changed by commands are not rolled back: step 1 (validate: run exit 2) ran, and whatever it changed stays as left. Check (e.g. git status) before running the plan again.",
      ]);
    },
  );

  it("rolls a file back even when a command left it binary", async () => {
    const p = new Project();
    p.write("a.txt", "a\n");
    const e = await rejection(
      call(p, {
        steps: [
          edit("a.txt", "a", "A"),
          { tool: "run", args: { command: "printf 'x\\000y' > a.txt" } },
          { validate: { run: "exit 1" } },
        ],
      }),
    );
    expect(e.details).toMatchObject({ restored: ["a.txt"] });
    expect(p.text("a.txt")).toBe("a\n");
  });

  it("rolls back when a tool step fails, and when a syntax check fails", async () => {
    const { p, before, snapshot } = seeded();
    const e = await rejection(call(p, { steps: [CHANGES[0]!, edit("a.txt", "not there", "x")] }));
    expect(e.message).toContain("Step 2 of 2 (edit a.txt) failed");
    expect(snapshot()).toEqual(before);

    p.write("src/ok.ts", "export function f() {\n  return 1;\n}\n");
    const broken = await rejection(
      call(p, {
        steps: [
          edit("src/ok.ts", "  return 1;\n}", "  return (1;\n}"),
          { validate: { syntax: true } },
        ],
      }),
    );
    expect(broken.message).toContain("Step 2 of 2 (validate: syntax) failed: src/ok.ts:");
    expect(p.text("src/ok.ts")).toBe("export function f() {\n  return 1;\n}\n");
  });

  it("runs other tools by name (doc, md) and rolls them back too", async () => {
    const p = new Project();
    const pkg = '{\n  "name": "x",\n  "scripts": {\n    "test": "vitest"\n  }\n}\n';
    const readme = "# X\n\n## Install\n\nnpm i\n";
    p.write("package.json", pkg);
    p.write("README.md", readme);
    const steps = [
      {
        tool: "doc",
        args: {
          action: "set",
          path: "package.json",
          selector: "scripts.lint",
          value: "biome check",
        },
      },
      {
        tool: "md",
        args: {
          action: "append_to_section",
          path: "README.md",
          heading: "Install",
          text: "Then `npm test`.",
        },
      },
    ];
    const ok = await call(p, { steps });
    expect(ok.files).toEqual(["package.json", "README.md"]);
    expect(p.text("package.json")).toContain('"lint": "biome check"');
    await p.splice().undo({ backup_session: ok.backup_session! });
    expect(p.text("package.json")).toBe(pkg);
    expect(p.text("README.md")).toBe(readme);

    const e = await rejection(call(p, { steps: [...steps, { validate: { run: "exit 1" } }] }));
    expect(e.details).toMatchObject({ rolled_back: true, restored: ["package.json", "README.md"] });
    expect(p.text("package.json")).toBe(pkg);
    expect(p.text("README.md")).toBe(readme);
  });

  it("checks every step before running any", async () => {
    const { p, before, snapshot } = seeded();
    const unknown = await rejection(call(p, { steps: [CHANGES[0]!, { tool: "edti", args: {} }] }));
    expect(unknown.code).toBe("unknown_tool");
    expect(unknown.message).toContain('Step 2 names no tool ("edti")');
    const bad = await rejection(
      call(p, { steps: [CHANGES[0]!, { tool: "file", args: { action: "zap" } }] }),
    );
    expect(bad.code).toBe("invalid_input");
    expect(bad.message).toContain("Step 2 (file):");
    const own = await rejection(
      call(p, {
        steps: [CHANGES[0]!, { ...CHANGES[1]!, args: { ...CHANGES[1]!.args, mode: "preview" } }],
      }),
    );
    expect(own.code).toBe("invalid_input");
    expect(own.message).toBe(
      'Step 2 (patch) has its own `"mode": "preview"`, but the plan sets the mode of every step. Remove "mode" from the step\'s args. Call plan with {"mode": "preview"} to run the whole plan without writing.',
    );
    const nested = await rejection(call(p, { steps: [{ tool: "plan", args: { steps: [] } }] }));
    expect(nested.message).toContain("a tool a plan cannot run");
    expect(snapshot()).toEqual(before);
  });
});

describe("plan: best_effort", () => {
  it("stops at the first failure, keeps what was done, and lists what was not run", async () => {
    const { p } = seeded();
    const e = await rejection(
      call(p, {
        policy: "best_effort",
        steps: [CHANGES[0]!, edit("a.txt", "missing", "x"), edit("a.txt", "line 5", "LINE 5")],
      }),
    );
    expect(e.code).toBe("batch_failed");
    expect(e.message).toMatch(
      /Kept steps 1 \(undo backup session \S+ reverts them\)\.\nNot run: steps 3\./,
    );
    expect(e.details).toMatchObject({ rolled_back: false, failed_step: 2 });
    expect((e.details.steps as { status: string }[]).map((s) => s.status)).toEqual([
      "applied",
      "failed",
      "skipped",
    ]);
    expect(p.text("a.txt")).toBe(numbered(5).replace("line 2", "LINE 2"));
    await p.splice().undo({ backup_session: e.details.backup_session as string });
    expect(p.text("a.txt")).toBe(numbered(5));
  });
});

describe("plan: preview and check", () => {
  it("previews the combined diff of steps that build on each other, writing nothing", async () => {
    const { p, before, snapshot } = seeded();
    const r = await call(p, {
      mode: "preview",
      steps: [
        ...CHANGES,
        edit("a.txt", "LINE 2\n", "LINE TWO\n"),
        { tool: "write", args: { targets: [{ path: "notes/n.md", text: "hi\n" }] } },
        { validate: { run: "false" } },
        { validate: { syntax: true } },
      ],
    });
    expect(r.applied).toBe(false);
    expect(r.steps.map((s) => s.status)).toEqual([
      "applied",
      "applied",
      "applied",
      "applied",
      "applied",
      "applied",
      "skipped",
      "passed",
    ]);
    expect(r.diff).toContain("-line 2\n+LINE TWO\n");
    expect(r.diff).toContain("+hi");
    expect(r.content).toContain("previewed (nothing was written)");
    expect(r.backup_session).toBeUndefined();
    expect(snapshot()).toEqual(before);
    expect(existsSync(join(p.root, "notes"))).toBe(false);
    expect((await p.splice().undo({ list: true })) as { sessions: unknown[] }).toEqual({
      sessions: [],
    });
  });

  it("previews exactly what applying does, with history seeing the dry run, and leaves .splice/ untouched", async () => {
    const { p, snapshot } = seeded();
    // History the preview builds on: a read, and an applied edit with its backup.
    await p.splice().call("read", { targets: [{ path: "crlf.txt" }] });
    await call(p, { steps: [edit("a.txt", "line 5\n", "line five\n")] });
    const afterFirst = numbered(5).replace("line 2", "LINE 2").replace("line 5", "line five");
    const steps = [
      edit("a.txt", "line 2\n", "LINE 2\n"),
      { tool: "write", args: { targets: [{ path: "notes/n.md", text: "hi\n" }] } },
      { tool: "file", args: { action: "rename", path: "old/name.ts", to: "new/name.ts" } },
      { tool: "file", args: { action: "delete", path: "doomed.txt" } },
      // Builds on the two steps before: the renamed file, and a.txt by the tag step 1 left.
      edit("new/name.ts", "x = 1", "x = 2"),
      {
        tool: "edit",
        args: {
          targets: [
            { path: "a.txt", file_hash: bytesTag(bytes(afterFirst)), ops: "replace 4:\n+LINE 4" },
          ],
        },
      },
      { tool: "read", args: { targets: [{ path: "a.txt" }] } },
      { tool: "history", args: { path: "a.txt" } },
      { tool: "history", args: { path: "doomed.txt" } },
      // Back to before step 5's edit, then on from there.
      { tool: "rollback", args: { path: "new/name.ts", hash: "" } },
      edit("new/name.ts", "x = 1", "x = 3"),
    ];
    const store = join(p.root, ".splice");
    const [stored, files] = [hashTree(store), snapshot()];
    const preview = await call(p, { mode: "preview", steps });
    expect(hashTree(store)).toEqual(stored);
    expect(snapshot()).toEqual(files);
    expect(existsSync(join(p.root, "notes"))).toBe(false);

    const applied = await call(p, { steps });
    expect(preview.diff).toBe(applied.diff);
    expect(preview.files).toEqual(applied.files);
    expect(preview.diff).toContain("+LINE 4");
    expect(preview.diff).toContain("+export const x = 3;");
    expect(preview.steps.map((s) => [s.status, s.files])).toEqual(
      applied.steps.map((s) => [s.status, s.files]),
    );
    // The read and the history steps saw in the preview what they see applied, times and ids aside.
    const seen = (r: PlanResult) => r.steps.slice(6, 9).map((s) => timeless(s.result));
    expect(seen(preview)).toEqual(seen(applied));
    // The preview's history knows the dry run's writes and reads, not only the store's two versions.
    const [ofA, ofDoomed] = preview.steps.slice(7, 9).map((s) => s.result as HistoryResult);
    expect(ofA!.versions.map((v) => [v.kind, v.note, v.current])).toEqual([
      ["read", undefined, true],
      ["write", "edit", false],
      ["write", "replace", false],
      ["write", "replace", false],
    ]);
    expect(ofDoomed!.versions.map((v) => v.kind)).toEqual(["delete"]);
  });

  it("check mode fails when the plan would change something", async () => {
    const { p, before, snapshot } = seeded();
    const e = await rejection(call(p, { mode: "check", steps: [CHANGES[0]!] }));
    expect(e.code).toBe("check_failed");
    expect(snapshot()).toEqual(before);
  });

  it("has a manual that shows both kinds of steps", () => {
    expect(planTool.manual).toContain('{"validate": {"run": "npm test"}}');
    expect(planTool.manual).toContain('"best_effort"');
    expect(planTool.manual).toContain("the plan sets the mode of every step");
    expect(planTool.manual).toContain("Files changed by commands are not rolled back");
  });
});

/** Every file under `dir` as its content's hash, size and mtime. */
/**
 * The store's files, less `spares/`: the spare inodes an earlier write's pool
 * tops up in the background (workspace/spares.ts) are no history, and no preview's doing.
 */
function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (rel === "spares" || rel.startsWith("spares/")) continue;
    const full = join(dir, rel);
    const st = statSync(full);
    out[rel] = st.isDirectory()
      ? "dir"
      : `${createHash("sha256").update(readFileSync(full)).digest("hex")} ${st.size} ${st.mtimeMs}`;
  }
  return out;
}

/** A result with its times left out: a preview and the run after it differ only there. */
/** A result with its times and backup ids left out: a preview cannot know the ones applying will get. */
const timeless = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value ?? null), (key, v) =>
    key === "at" || key === "backup_session" ? undefined : v,
  );

function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode });
      return;
    }
    child.on("exit", (code, signal) => resolve({ code, signal }));
  });
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("plan: killed mid-way", () => {
  it("after SIGKILL between two writes, splice undo restores a consistent state", async () => {
    const { p, before, snapshot } = seeded();
    const side = mkdtempSync(join(tmpdir(), "splice-plan-kill-"));
    const pidFile = join(side, "pid");
    const plan = {
      steps: [
        CHANGES[0]!,
        CHANGES[1]!,
        { tool: "run", args: { command: `echo $$ > ${pidFile}; exec sleep 30` } },
        CHANGES[2]!,
        CHANGES[3]!,
      ],
    };
    writeFileSync(join(side, "plan.json"), JSON.stringify(plan));
    // The writer itself killed: a command in its own process (the engine's kill: test/engine/kill.test.ts).
    const child = spawn(BIN, ["plan", join(side, "plan.json"), "--apply", "--root", p.root], {
      stdio: "ignore",
      env: { ...process.env, SPLICE_ENGINE: "0" },
    });
    try {
      await until(
        () => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "",
        "the blocking step",
      );
      // Steps 1 and 2 are written; steps 4 and 5 are not.
      expect(p.text("a.txt")).toContain("LINE 2");
      expect(existsSync(join(p.root, "created.txt"))).toBe(true);
      child.kill("SIGKILL");
      expect(await exited(child)).toEqual({ code: null, signal: "SIGKILL" });
    } finally {
      child.kill("SIGKILL");
      const sleeper = Number(readFileSync(pidFile, "utf8").trim());
      if (sleeper > 0) {
        try {
          process.kill(-sleeper, "SIGKILL");
        } catch {
          process.kill(sleeper, "SIGKILL");
        }
      }
    }
    expect(p.text("old/name.ts")).toBe("export const x = 1;\n");

    const undo = spawnSync(BIN, ["undo", "--root", p.root], { encoding: "utf8" });
    expect(undo.status, undo.stderr).toBe(0);
    expect(undo.stdout).toContain("created.txt");
    expect(snapshot()).toEqual(before);
  });
});
