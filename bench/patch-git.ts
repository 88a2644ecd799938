/**
 * The patch benchmark against `git apply`: every commit of this repository's
 * own history that changes text files, its `git diff` applied to the
 * parent's version of the files it touches, by splice's patch tool and by
 * `git apply`, in the same run. Each applier is correct (every touched path
 * holds the commit's bytes, or is gone when the commit deletes it), refused
 * (it wrote nothing and said so) or wrong (it wrote something else). Also with
 * every changed file shifted: lines inserted at its top, so each header is
 * off and repeated context is placed by drift, not by the number; and with
 * lines inserted between a file's first and second hunk, so the drift
 * changes from one hunk to the next; and with the old side of each file's
 * first hunk copied to its top, so that hunk's lines match two places and
 * only the header (off by the copy) tells which.
 * SPLICE_BENCH_REPO names another repository to read (a bare one will do),
 * SPLICE_BENCH_LAST=N keeps its newest N commits, and SPLICE_BENCH_FORMAT=codex
 * gives splice each diff as the Codex patch a model writes for it (no line
 * numbers: codex-diff.ts), beside `git apply` on the diff itself; the copied
 * variant is left out there, as without a header its placement is a guess.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createSplice } from "../src/splice.js";
import { toCodex } from "./codex-diff.js";
import { defineBenchmark, formatTable, ms, withScratchDir } from "./lib.js";

const CODEX = process.env.SPLICE_BENCH_FORMAT === "codex";
const SHIFT = ["// shifted 1", "// shifted 2", "// shifted 3", "", "// shifted 5"];
const LISTED = 8;

interface Touch {
  /** Path in the parent, undefined for an added file. */
  old?: string;
  /** Path in the commit, undefined for a deleted file. */
  new?: string;
}

interface Commit {
  sha: string;
  subject: string;
  diff: string;
  touches: Touch[];
  before: Map<string, Buffer>;
  after: Map<string, Buffer>;
}

type Verdict = "correct" | "refused" | "wrong";

interface Outcome {
  verdict: Verdict;
  why?: string;
  /** Hunks whose lines matched several places and that the header placed. */
  byHeader?: number;
}

const git = (repo: string, args: string[], input?: string): Buffer =>
  execFileSync("git", ["-C", repo, ...args], {
    maxBuffer: 1 << 30,
    ...(input !== undefined ? { input } : {}),
  });

/** Blobs by `rev:path` through one `git cat-file --batch`; a missing one is left out. */
function blobs(repo: string, rev: string, paths: string[]): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  if (paths.length === 0) return out;
  const buf = git(repo, ["cat-file", "--batch"], paths.map((p) => `${rev}:${p}\n`).join(""));
  let at = 0;
  for (const path of paths) {
    const eol = buf.indexOf(10, at);
    const header = buf.subarray(at, eol).toString();
    at = eol + 1;
    if (header.endsWith(" missing")) continue;
    const size = Number(header.split(" ")[2]);
    out.set(path, buf.subarray(at, at + size));
    at += size + 1;
  }
  return out;
}

const DIFF_FLAGS = [
  "-c",
  "core.quotePath=true",
  "diff",
  "--no-color",
  "--no-ext-diff",
  "--no-textconv",
  "-M",
  "--src-prefix=a/",
  "--dst-prefix=b/",
];

/** The commits to replay, oldest first: every one with a parent whose diff has text changes. */
function commits(repo: string, last = Infinity): Commit[] {
  const log = git(repo, ["log", "--no-merges", "--format=%H%x09%s"]).toString().trim();
  const out: Commit[] = [];
  for (const line of log.split("\n").slice(0, last).reverse()) {
    const [sha, subject = ""] = line.split("\t") as [string, string];
    const parent = `${sha}^`;
    if (spawnSync("git", ["-C", repo, "rev-parse", "-q", "--verify", parent]).status !== 0)
      continue;
    const stat = git(repo, [
      ...DIFF_FLAGS.slice(0, 2),
      "diff",
      "-M",
      "--numstat",
      "-z",
      parent,
      sha,
    ])
      .toString()
      .split("\0");
    const touches: Touch[] = [];
    let binary = false;
    for (let i = 0; i < stat.length - 1; i++) {
      const [added, , path] = stat[i]!.split("\t");
      if (added === "-") binary = true;
      if (path === "") {
        touches.push({ old: stat[i + 1]!, new: stat[i + 2]! });
        i += 2;
      } else if (path !== undefined) {
        touches.push({ old: path, new: path });
      }
    }
    if (binary || touches.length === 0) continue;
    const oldPaths = touches.map((t) => t.old!);
    const newPaths = touches.map((t) => t.new!);
    const before = blobs(repo, parent, oldPaths);
    const after = blobs(repo, sha, newPaths);
    for (const t of touches) {
      if (!before.has(t.old!)) delete t.old;
      if (!after.has(t.new!)) delete t.new;
    }
    const diff = git(repo, [...DIFF_FLAGS, parent, sha]).toString();
    out.push({ sha, subject, diff, touches, before, after });
  }
  return out;
}

type Shift = "none" | "top" | "between" | "copied";

const SHIFT_BYTES = Buffer.from(`${SHIFT.join("\n")}\n`);

/** `block` (the shift block by default) inserted before 0-based line `at` (the top when 0). */
function insertAt(b: Buffer, at: number, block: Buffer = SHIFT_BYTES): Buffer {
  let offset = 0;
  for (let k = 0; k < at; k++) {
    const eol = b.indexOf(10, offset);
    if (eol === -1) return Buffer.concat([b, block]);
    offset = eol + 1;
  }
  return Buffer.concat([b.subarray(0, offset), block, b.subarray(offset)]);
}

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm;

/**
 * Where to insert the block between a file's first and second hunk: the
 * 0-based line after the first hunk's old lines, and after its new lines.
 */
function gap(c: Commit, path: string): [number, number] | undefined {
  const text = section(c, path);
  if (text === undefined) return undefined;
  const heads = [...text.matchAll(HEADER)].map((m) => [
    Number(m[1]),
    m[2] === undefined ? 1 : Number(m[2]),
    Number(m[3]),
    m[4] === undefined ? 1 : Number(m[4]),
  ]);
  if (heads.length < 2) return undefined;
  const [a, b, n, d] = heads[0]! as [number, number, number, number];
  return b > 0 && d > 0 ? [a + b - 1, n + d - 1] : undefined;
}

/** The diff's section for `path`, or undefined. */
function section(c: Commit, path: string): string | undefined {
  return c.diff.split(/^diff --git /m).find((s) => s.includes(`\n+++ b/${path}\n`));
}

/**
 * The old side of a file's first hunk (its context and removed lines), as
 * a block to copy to the file's top: then the hunk's lines match there too,
 * and only the header (off by the copy's length) tells the two apart.
 */
function firstHunkCopy(c: Commit, path: string): Buffer | undefined {
  const text = section(c, path);
  // A hunk at line 1 is left alone: its header would name the copy, not the original.
  const start = text === undefined ? undefined : /^@@ -(\d+)/m.exec(text)?.[1];
  if (start === undefined || Number(start) <= 1) return undefined;
  const body = text!.split(/^@@ .*$/m)[1]!;
  const old = body
    .split("\n")
    .filter((l) => l.startsWith(" ") || l.startsWith("-"))
    .map((l) => l.slice(1));
  return old.length === 0 ? undefined : Buffer.from(`${old.join("\n")}\n`);
}

/** What the tree holds before, and should hold after, for a variant. */
function variant(c: Commit, shift: Shift) {
  const before = new Map<string, Buffer>();
  const after = new Map<string, Buffer | undefined>();
  for (const t of c.touches) {
    // Only files the commit keeps are shifted: a deleted file must match its removed lines.
    const kept = shift !== "none" && t.old !== undefined && t.new !== undefined;
    const copy = kept && shift === "copied" ? firstHunkCopy(c, t.new!) : undefined;
    const at: [number, number] | undefined = !kept
      ? undefined
      : shift === "top" || copy
        ? [0, 0]
        : shift === "between"
          ? gap(c, t.new!)
          : undefined;
    if (t.old !== undefined) {
      const b = c.before.get(t.old)!;
      before.set(t.old, at ? insertAt(b, at[0], copy) : b);
      if (t.old !== t.new) after.set(t.old, undefined);
    }
    if (t.new !== undefined) {
      const b = c.after.get(t.new)!;
      after.set(t.new, at ? insertAt(b, at[1], copy) : b);
    }
  }
  return { before, after };
}

function plant(root: string, files: Map<string, Buffer>): void {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  for (const [path, bytes] of files) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), bytes);
  }
}

function judge(root: string, after: Map<string, Buffer | undefined>, before: Map<string, Buffer>) {
  const differs: string[] = [];
  let untouched = true;
  for (const [path, want] of after) {
    const file = join(root, path);
    const have = existsSync(file) ? readFileSync(file) : undefined;
    const was = before.get(path);
    if (!(have === undefined ? was === undefined : was !== undefined && have.equals(was))) {
      untouched = false;
    }
    const same = have === undefined ? want === undefined : want !== undefined && have.equals(want);
    if (!same) differs.push(path);
  }
  return { differs, untouched };
}

async function bySplice(root: string, c: Commit, shift: Shift): Promise<Outcome> {
  const { before, after } = variant(c, shift);
  plant(root, before);
  const splice = createSplice({ root, history: { session: "bench" }, lsp: false });
  let error: string | undefined;
  let byHeader = 0;
  try {
    const patch = CODEX ? toCodex(c.diff)! : c.diff;
    const r = (await splice.call("patch", { patch })) as {
      results: { warnings: string[] }[];
    };
    for (const f of r.results)
      byHeader += f.warnings.filter((w) => /also match line/.test(w)).length;
  } catch (e) {
    const code = (e as { code?: string }).code ?? "error";
    error = `${code}: ${(e as Error).message.split("\n")[0]}`;
  }
  const { differs, untouched } = judge(root, after, before);
  if (error !== undefined) {
    return untouched
      ? { verdict: "refused", why: error }
      : { verdict: "wrong", why: `wrote, then ${error}` };
  }
  return differs.length === 0
    ? { verdict: "correct", byHeader }
    : { verdict: "wrong", why: differs.join(", "), byHeader };
}

function byGit(root: string, c: Commit, shift: Shift): Outcome {
  const { before, after } = variant(c, shift);
  plant(root, before);
  const patch = join(root, "..", "commit.diff");
  writeFileSync(patch, c.diff);
  const r = spawnSync("git", ["apply", "--whitespace=nowarn", patch], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, GIT_CEILING_DIRECTORIES: dirname(root) },
  });
  const { differs, untouched } = judge(root, after, before);
  if (r.status !== 0) {
    const why = r.stderr.trim().split("\n").at(-1) ?? "";
    return untouched
      ? { verdict: "refused", why }
      : { verdict: "wrong", why: `wrote, then ${why}` };
  }
  return differs.length === 0
    ? { verdict: "correct" }
    : { verdict: "wrong", why: differs.join(", ") };
}

interface Tally {
  correct: number;
  refused: number;
  wrong: number;
  ms: number;
  byHeader: number;
}

const tally = (): Tally => ({ correct: 0, refused: 0, wrong: 0, ms: 0, byHeader: 0 });

defineBenchmark({
  name: "patch",
  description:
    "this repository's own commits: each `git diff` applied by splice's patch tool and by git apply (correct / refused / wrong)",
  async run() {
    const repo = resolve(process.env.SPLICE_BENCH_REPO ?? join(import.meta.dirname, ".."));
    const all = commits(repo, Number(process.env.SPLICE_BENCH_LAST ?? Infinity));
    // A Codex patch cannot say a missing final newline or a quoted path: those commits are left out.
    const list = CODEX ? all.filter((c) => toCodex(c.diff) !== undefined) : all;
    if (CODEX) {
      console.log(
        `Codex patches: ${list.length} of ${all.length} commits (${all.length - list.length} left out: a missing final newline, a quoted path or a mode-only change)`,
      );
    }
    const files = list.reduce((n, c) => n + c.touches.length, 0);
    const hunks = list.reduce((n, c) => n + (c.diff.match(/^@@ /gm)?.length ?? 0), 0);
    const between = list.reduce(
      (n, c) => n + c.touches.filter((t) => t.old && t.new && gap(c, t.new)).length,
      0,
    );
    console.log(
      `${repo}: ${list.length} commits with text changes, ${files} files, ${hunks} hunks; ${between} files have a second hunk to shift "after hunk 1"\n`,
    );
    await withScratchDir("splice-bench-patch-", async (dir) => {
      const rows: string[][] = [];
      const notes: string[] = [];
      const names: Record<Shift, string> = {
        none: "as committed",
        top: `shifted (+${SHIFT.length} lines at the top)`,
        between: `shifted (+${SHIFT.length} lines after hunk 1)`,
        copied: "first hunk's old lines copied to the top",
      };
      const shifts = CODEX
        ? (["none", "top", "between"] as const)
        : (["none", "top", "between", "copied"] as const);
      for (const shift of shifts) {
        const name = names[shift];
        const s = tally();
        const g = tally();
        const onlySplice: string[] = [];
        const onlyGit: string[] = [];
        const wrong: string[] = [];
        for (const c of list) {
          let t = performance.now();
          const so = await bySplice(join(dir, "splice", "tree"), c, shift);
          s.ms += performance.now() - t;
          t = performance.now();
          const go = byGit(join(dir, "git", "tree"), c, shift);
          g.ms += performance.now() - t;
          s[so.verdict]++;
          s.byHeader += so.byHeader ?? 0;
          g[go.verdict]++;
          const label = `${c.sha.slice(0, 8)} ${c.subject.slice(0, 50)}`;
          if (so.verdict === "refused" && go.verdict !== "refused")
            onlySplice.push(`${label}: ${so.why}`);
          if (go.verdict === "refused" && so.verdict !== "refused")
            onlyGit.push(`${label}: ${go.why}`);
          if (so.verdict === "wrong") wrong.push(`splice ${label}: ${so.why}`);
          if (go.verdict === "wrong") wrong.push(`git apply ${label}: ${go.why}`);
        }
        for (const [who, t] of [
          ["git apply", g],
          ["splice patch tool", s],
        ] as const) {
          rows.push([
            name,
            who,
            String(list.length),
            String(t.correct),
            String(t.refused),
            String(t.wrong),
            who === "git apply" ? "" : String(t.byHeader),
            ms(t.ms / list.length),
          ]);
        }
        const listed = (title: string, items: string[]) => {
          if (items.length === 0) return;
          notes.push(`${name}, ${title} (${items.length}):`);
          notes.push(...items.slice(0, LISTED).map((i) => `  ${i}`));
          if (items.length > LISTED) notes.push(`  … and ${items.length - LISTED} more`);
        };
        listed("refused by splice only", onlySplice);
        listed("refused by git apply only", onlyGit);
        listed("wrong", wrong);
      }
      console.log(
        formatTable(
          [
            { header: "files" },
            { header: "applier" },
            { header: "commits", right: true },
            { header: "correct", right: true },
            { header: "refused", right: true },
            { header: "wrong", right: true },
            { header: "repeats placed by header", right: true },
            { header: "ms/commit", right: true },
          ],
          rows,
        ),
      );
      if (notes.length > 0) console.log(`\n${notes.join("\n")}`);
    });
  },
});
