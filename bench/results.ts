/**
 * How many tokens (o200k) the model reads after a change, before and after
 * results were sized to what it needs next. Real changes: every commit of
 * this repository's history, replayed through the library on a temp copy of
 * the parent's files — each changed hunk as a line-op edit and as a text
 * edit, each file's diff as a patch, its new text as a write, then a
 * rollback and an undo; files the commit adds, deletes or renames through
 * the file tool; changed package.json/tsconfig values through doc; changed
 * Markdown sections through md. BEFORE is the old rendering, the whole
 * unified diff (a toolkit made with `resultDiff: "full"` renders exactly
 * it; an undo, which had no view of its own, as its JSON), AFTER the
 * default, both rendered from the same result of the same call.
 * SPLICE_BENCH_REPO names another repository, SPLICE_BENCH_COMMITS how many
 * of the newest commits to replay (default 30, 0 for all: about
 * 3 s a commit).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { createSplice, type Splice } from "../src/splice.js";
import { changeHunks } from "../src/text/diff.js";
import { renderResult, withResultDiff } from "../src/toolkit/render-result.js";
import { defineBenchmark, formatTable, withScratchDir } from "./lib.js";

type Tool =
  | "edit (ops)"
  | "edit (text)"
  | "patch"
  | "write"
  | "file"
  | "doc"
  | "md"
  | "rollback"
  | "undo";

interface Sample {
  before: number;
  after: number;
  /** Tokens of the call's arguments, for the payload ratio. */
  payload: number;
}

const samples = new Map<Tool, Sample[]>();

const tokens = (text: string) => countTokens(text);

/** The result as the old rendering saw it: undo had no `content`, so it read as JSON. */
function oldShape(name: string, result: unknown): unknown {
  const copy = structuredClone(result) as Record<string, unknown>;
  if (name === "undo") delete copy.content;
  return copy;
}

/** Renders one result both ways and records it. */
function record(tool: Tool, name: string, args: unknown, result: unknown): void {
  const after = renderResult(name, result);
  const before = renderResult(name, withResultDiff(oldShape(name, result), "full"));
  const list = samples.get(tool) ?? [];
  list.push({
    before: tokens(before),
    after: tokens(after),
    payload: tokens(JSON.stringify(args)),
  });
  samples.set(tool, list);
}

/** What the replay reads back of a result: the new tag of an edit. */
type Written = { results: { file_hash: string }[] };

async function call(
  splice: Splice,
  tool: Tool,
  name: string,
  args: unknown,
): Promise<Written | undefined> {
  try {
    const result = await splice.call(name, args);
    record(tool, name, args, result);
    return result as Written;
  } catch {
    return undefined; // a refused replay (an ambiguous text edit, say) is not a result
  }
}

const git = (repo: string, args: string[]): string =>
  execFileSync("git", ["-C", repo, ...args], { maxBuffer: 1 << 30, encoding: "utf8" });

function show(repo: string, rev: string, path: string): string | undefined {
  try {
    return execFileSync("git", ["-C", repo, "show", `${rev}:${path}`], {
      maxBuffer: 1 << 30,
      encoding: "utf8",
    });
  } catch {
    return undefined;
  }
}

interface Touch {
  status: string;
  old?: string;
  path: string;
}

function touches(repo: string, sha: string): Touch[] {
  const out = git(repo, ["diff", "--name-status", "-M", `${sha}^`, sha]).trim();
  if (out === "") return [];
  return out.split("\n").map((line) => {
    const [status, a, b] = line.split("\t") as [string, string, string?];
    return b === undefined
      ? { status: status[0]!, path: a }
      : { status: status[0]!, old: a, path: b };
  });
}

const isText = (s: string) => !s.includes("\0") && s.length < 400_000;
const linesOf = (s: string) => (s.endsWith("\n") ? s.slice(0, -1) : s).split("\n");

function plant(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

async function tagOf(splice: Splice, path: string): Promise<string> {
  const read = await splice.call("read", { targets: [{ path, line_range: [1, 1] }] });
  return /^¶.*#([0-9A-F]{4})$/m.exec(renderResult("read", read))![1]!;
}

/** Each hunk as one line-op edit against the version the last one made. */
async function editByOps(splice: Splice, path: string, before: string, after: string) {
  let tag = await tagOf(splice, path);
  let shift = 0;
  for (const h of changeHunks(linesOf(before), linesOf(after))) {
    const start = h.start + 1 + shift;
    const end = h.end + shift;
    const body = h.lines.map((l) => `+${l}`).join("\n");
    const ops =
      h.end === h.start
        ? `${start === 1 ? "insert head" : `insert after ${start - 1}`}:\n${body}`
        : h.lines.length === 0
          ? `delete ${start}..${end}`
          : `replace ${start}..${end}:\n${body}`;
    const args = { targets: [{ path, file_hash: tag, ops }] };
    const r = await call(splice, "edit (ops)", "edit", args);
    if (!r) return;
    tag = r.results[0]!.file_hash;
    shift += h.lines.length - (h.end - h.start);
  }
}

/** Each hunk as an old_text/new_text edit, widened by a line each side so it is unique. */
async function editByText(splice: Splice, path: string, before: string, after: string) {
  const old = linesOf(before);
  for (const h of changeHunks(old, linesOf(after))) {
    const from = Math.max(0, h.start - 1);
    const to = Math.min(old.length, h.end + 1);
    const oldText = old.slice(from, to).join("\n");
    const newText = [...old.slice(from, h.start), ...h.lines, ...old.slice(h.end, to)].join("\n");
    if (oldText.trim() === "") continue;
    const args = { targets: [{ path, edits: [{ old_text: oldText, new_text: newText }] }] };
    await call(splice, "edit (text)", "edit", args);
  }
}

/** A unified diff of one file, as git writes it, for the patch tool. */
function fileDiff(repo: string, sha: string, path: string): string {
  return git(repo, ["diff", "--no-color", "--no-ext-diff", `${sha}^`, sha, "--", path]);
}

async function replayFile(
  splice: Splice,
  root: string,
  repo: string,
  sha: string,
  path: string,
  before: string,
  after: string,
) {
  plant(root, path, before);
  const parentTag = await tagOf(splice, path);
  await editByOps(splice, path, before, after);
  await call(splice, "rollback", "rollback", { path, hash: parentTag });
  plant(root, path, before);
  await editByText(splice, path, before, after);
  plant(root, path, before);
  await tagOf(splice, path);
  const patched = await call(splice, "patch", "patch", { patch: fileDiff(repo, sha, path) });
  if (patched) await call(splice, "undo", "undo", {});
  plant(root, path, before);
  await tagOf(splice, path);
  await call(splice, "write", "write", { targets: [{ path, text: after }] });
}

/** Leaf values of two JSON documents that differ, as doc selectors. */
function changedValues(
  a: unknown,
  b: unknown,
  at: string[] = [],
  depth = 0,
): { sel: string[]; value: unknown }[] {
  const obj = (x: unknown): x is Record<string, unknown> =>
    typeof x === "object" && x !== null && !Array.isArray(x);
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  if (!obj(a) || !obj(b) || depth >= 2) return [{ sel: at, value: b }];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].flatMap((k) => changedValues(a[k], b[k], [...at, k], depth + 1));
}

const selector = (parts: string[]) =>
  parts.map((p) => (/^[A-Za-z_$][\w$-]*$/.test(p) ? p : JSON.stringify(p))).join(".");

async function replayDoc(
  splice: Splice,
  root: string,
  path: string,
  before: string,
  after: string,
) {
  let a: unknown;
  let b: unknown;
  try {
    a = JSON.parse(before);
    b = JSON.parse(after);
  } catch {
    return; // JSONC with comments: the doc tool reads it, JSON.parse does not
  }
  plant(root, path, before);
  for (const { sel, value } of changedValues(a, b)) {
    if (sel.length === 0) continue;
    const args =
      value === undefined
        ? { action: "delete", path, selector: selector(sel) }
        : { action: "set", path, selector: selector(sel), value };
    await call(splice, "doc", "doc", args);
  }
}

/** Headings with the text under them up to the next heading (of any level). */
function leafSections(text: string): { heading: string; line: number; body: string }[] {
  const lines = linesOf(text);
  const out: { heading: string; line: number; body: string[] }[] = [];
  let fence = false;
  for (const [i, line] of lines.entries()) {
    if (/^(```|~~~)/.test(line)) fence = !fence;
    const m = !fence && /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (m) out.push({ heading: m[2]!, line: i + 1, body: [] });
    else out.at(-1)?.body.push(line);
  }
  return out.map((s) => ({ ...s, body: s.body.join("\n") }));
}

async function replayMd(splice: Splice, root: string, path: string, before: string, after: string) {
  plant(root, path, before);
  const wanted = leafSections(after);
  for (const [k, want] of wanted.entries()) {
    const now = leafSections(readFileSync(join(root, path), "utf8"));
    const have = now[k];
    if (!have || have.heading !== want.heading || have.body === want.body) continue;
    // Only a section with no subsection: replace_section takes its subsections too.
    const next = now[k + 1];
    const leafLevel = (t: string, line: number) => /^#+/.exec(linesOf(t)[line - 1]!)![0].length;
    const text = readFileSync(join(root, path), "utf8");
    if (next && leafLevel(text, next.line) > leafLevel(text, have.line)) continue;
    const body = want.body.trim();
    if (body === "") continue;
    await call(splice, "md", "md", {
      action: "replace_section",
      path,
      heading: have.heading,
      line: have.line,
      text: body,
    });
  }
}

async function replayCommit(repo: string, root: string, sha: string): Promise<void> {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const splice = createSplice({ root, history: { session: "bench" }, lsp: false, durable: false });
  for (const t of touches(repo, sha)) {
    const before = t.status === "A" ? undefined : show(repo, `${sha}^`, t.old ?? t.path);
    const after = t.status === "D" ? undefined : show(repo, sha, t.path);
    if ((before !== undefined && !isText(before)) || (after !== undefined && !isText(after)))
      continue;
    if (t.status === "A" && after !== undefined) {
      await call(splice, "file", "file", { action: "create", path: t.path, text: after });
    } else if (t.status === "D" && before !== undefined) {
      plant(root, t.path, before);
      await call(splice, "file", "file", { action: "delete", path: t.path });
    } else if (t.status === "R" && before !== undefined && t.old) {
      plant(root, t.old, before);
      await call(splice, "file", "file", { action: "rename", path: t.old, to: t.path });
    } else if (t.status === "M" && before !== undefined && after !== undefined) {
      await replayFile(splice, root, repo, sha, t.path, before, after);
      if (/(^|\/)(package|tsconfig[^/]*|biome)\.json$/.test(t.path)) {
        await replayDoc(splice, root, t.path, before, after);
      }
      if (t.path.endsWith(".md")) await replayMd(splice, root, t.path, before, after);
    }
  }
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
const p90 = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    0.9,
  );

const ORDER: Tool[] = [
  "edit (ops)",
  "edit (text)",
  "patch",
  "write",
  "file",
  "doc",
  "md",
  "rollback",
  "undo",
];

defineBenchmark({
  name: "results",
  description:
    "result tokens (o200k) per tool on this repository's own commits, full diff vs. changes",
  async run() {
    const repo = resolve(process.env.SPLICE_BENCH_REPO ?? ".");
    const limit = Number(process.env.SPLICE_BENCH_COMMITS ?? 30);
    let shas = git(repo, ["log", "--no-merges", "--format=%H", "--min-parents=1"])
      .trim()
      .split("\n");
    if (limit > 0) shas = shas.slice(0, limit);
    samples.clear();
    await withScratchDir("splice-bench-results-", async (dir) => {
      for (const sha of shas) await replayCommit(repo, join(dir, "root"), sha);
    });
    const rows = ORDER.filter((t) => samples.has(t)).map((tool) => {
      const s = samples.get(tool)!;
      const before = s.map((x) => x.before);
      const after = s.map((x) => x.after);
      return [
        tool,
        String(s.length),
        String(median(s.map((x) => x.payload))),
        String(median(before)),
        String(p90(before)),
        String(median(after)),
        String(p90(after)),
        `${(median(after) / median(before)).toFixed(2)}x`,
        `${(median(s.map((x) => x.after / x.before))).toFixed(2)}x`,
      ];
    });
    console.log(`${shas.length} commits of ${repo}; tokens counted with o200k (gpt-tokenizer)\n`);
    console.log(
      formatTable(
        [
          { header: "tool" },
          ...["calls", "args med", "before med", "before p90", "after med", "after p90"].map(
            (header) => ({ header, right: true }),
          ),
          { header: "after/before med", right: true },
          { header: "per call", right: true },
        ],
        rows,
      ),
    );
    console.log(
      '\nbefore: the whole unified diff (resultDiff: "full", the old rendering); after: the default view, same result of the same call.',
    );
  },
});
