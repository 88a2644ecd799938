/**
 * The metadata pass around a command (snapshot.ts) against the truth: random
 * rounds of changes made by a real process (files added, removed, rewritten,
 * rewritten at the same size with the mtime put back, touched, chmodded,
 * renamed, a folder swapped for a file, ignored and secret files written),
 * each diffed by a long-lived walk (reusing folder listings) and checked
 * against a model of the tree and against a fresh walk (nothing reused).
 */
import { spawnSync } from "node:child_process";
import { utimesSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createCheckpoint, diffCheckpoint } from "../../src/checkpoint/named.js";
import { diffSnapshots, type Snapshot, takeSnapshot } from "../../src/checkpoint/snapshot.js";
import type { Splice } from "../../src/splice.js";
import { Project } from "../helpers/project.js";

const open: Splice[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

/** mulberry32: a seeded generator, so a failing round can be replayed. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Op =
  | { op: "write"; path: string; text: string }
  | { op: "rm"; path: string }
  | { op: "same-size"; path: string; text: string }
  | { op: "touch"; path: string }
  | { op: "chmod"; path: string; mode: number }
  | { op: "rename"; from: string; to: string };

/** A whole second, so a same-size rewrite can put the mtime back exactly (only the ctime then tells). */
const STAMP = 1_700_000_000;

/** Applies `ops` in a child process, as a command would. */
function apply(root: string, ops: Op[]): void {
  const script = `
const fs = require("node:fs"), path = require("node:path");
for (const o of JSON.parse(process.argv[1])) {
  const at = (p) => path.join(${JSON.stringify(root)}, p);
  if (o.op === "write") { fs.mkdirSync(path.dirname(at(o.path)), { recursive: true }); fs.writeFileSync(at(o.path), o.text); }
  else if (o.op === "rm") fs.rmSync(at(o.path), { recursive: true, force: true });
  else if (o.op === "same-size") { const t = Math.floor(fs.statSync(at(o.path)).mtimeMs / 1000); fs.writeFileSync(at(o.path), o.text); fs.utimesSync(at(o.path), t, t); }
  else if (o.op === "touch") { const t = new Date(Date.now() + 5000); fs.utimesSync(at(o.path), t, t); }
  else if (o.op === "chmod") fs.chmodSync(at(o.path), o.mode);
  else if (o.op === "rename") fs.renameSync(at(o.from), at(o.to));
}`;
  const ran = spawnSync(process.execPath, ["-e", script, JSON.stringify(ops)], {
    encoding: "utf8",
  });
  expect(ran.stderr).toBe("");
}

/** The visible tree: path → bytes and mode; what a walk must see. */
type Model = Map<string, { text: string; mode: number }>;

function round(next: () => number, model: Model, n: number) {
  const ops: Op[] = [];
  const changed = new Map<string, "created" | "changed" | "deleted">();
  const touched = new Set<string>();
  const was = new Map([...model].map(([rel, file]) => [rel, { ...file }]));
  const pick = () => {
    const paths = [...model.keys()].filter((rel) => rel !== ".gitignore").sort();
    return paths[Math.floor(next() * paths.length)];
  };
  for (let i = 0; i < 8; i++) {
    const r = next();
    const path = pick();
    const name = `f${n}_${i}.txt`;
    if (r < 0.15 || !path) {
      const folders = [
        ...new Set([...model.keys()].map((rel) => rel.slice(0, Math.max(0, rel.lastIndexOf("/"))))),
      ]
        .filter(Boolean)
        .sort();
      const rel = `${folders[Math.floor(next() * folders.length)] ?? "fresh"}/${name}`;
      ops.push({ op: "write", path: rel, text: `new ${rel}\n` });
      model.set(rel, { text: `new ${rel}\n`, mode: 0o644 });
    } else if (r < 0.25) {
      ops.push({ op: "rm", path });
      model.delete(path);
    } else if (r < 0.35) {
      const text = `${model.get(path)!.text}longer ${n}\n`;
      ops.push({ op: "write", path, text });
      model.get(path)!.text = text;
    } else if (r < 0.45) {
      // Same size, mtime put back (exactly, for a planted file): only the ctime tells.
      const old = model.get(path)!.text;
      const text = old.replace(/^./, old[0] === "X" ? "Y" : "X");
      ops.push({ op: "same-size", path, text });
      model.get(path)!.text = text;
    } else if (r < 0.5) {
      ops.push({ op: "touch", path });
      touched.add(path); // metadata only: the diff names it, its bytes decide later
    } else if (r < 0.6) {
      const mode = model.get(path)!.mode === 0o644 ? 0o755 : 0o644;
      ops.push({ op: "chmod", path, mode });
      touched.add(path); // its ctime moved, even when a second chmod puts the mode back
      model.get(path)!.mode = mode;
    } else if (r < 0.7) {
      const to = path.includes("/") ? `${path.slice(0, path.lastIndexOf("/"))}/${name}` : name;
      ops.push({ op: "rename", from: path, to });
      model.set(to, model.get(path)!);
      model.delete(path);
    } else if (r < 0.75 && path.includes("/")) {
      // A folder swapped for a file of its name (and its files moved aside, still seen).
      const folder = path.slice(0, path.lastIndexOf("/"));
      const aside = `${folder}-${n}_${i}`;
      ops.push({ op: "rename", from: folder, to: aside });
      ops.push({ op: "write", path: folder, text: "now a file\n" });
      for (const [rel, file] of [...model]) {
        if (!rel.startsWith(`${folder}/`)) continue;
        model.delete(rel);
        model.set(`${aside}${rel.slice(folder.length)}`, file);
      }
      model.set(folder, { text: "now a file\n", mode: 0o644 });
    } else if (r < 0.85) {
      // Ignored (a .gitignore'd folder, a pattern, a heavy folder) and secret: never seen.
      const where = ["build/out.js", "x.log", "node_modules/m/i.js", ".env"][
        Math.floor(next() * 4)
      ]!;
      ops.push({ op: "write", path: where, text: `ignored ${n}_${i}\n` });
    } else {
      const text = `rewritten ${n}_${i}\n`;
      ops.push({ op: "write", path, text });
      model.get(path)!.text = text;
    }
  }
  for (const [rel, now] of model) {
    const before = was.get(rel);
    if (!before) changed.set(rel, "created");
    else if (before.text !== now.text || before.mode !== now.mode || touched.has(rel))
      changed.set(rel, "changed");
  }
  for (const rel of was.keys()) if (!model.has(rel)) changed.set(rel, "deleted");
  return { ops, changed, was };
}

const metas = (s: Snapshot) =>
  [...s.files].map(([rel, m]) => [rel, m.size, m.mtimeMs, m.ctimeMs, m.ino, m.mode]).sort();

describe.skipIf(process.env.SPLICE_TEST_REMOTE)("the metadata pass around a command", () => {
  it("finds exactly what changed, over random rounds of changes made by a real process", async () => {
    const p = new Project();
    p.write(".gitignore", "build/\n*.log\n");
    const model: Model = new Map();
    for (const folder of ["src", "src/deep", "docs", "lib/a", "lib/b"]) {
      for (let i = 0; i < 6; i++) {
        const rel = `${folder}/file${i}.txt`;
        utimesSync(p.write(rel, `${rel}\n`), STAMP, STAMP);
        model.set(rel, { text: `${rel}\n`, mode: 0o644 });
      }
    }
    model.set(".gitignore", { text: "build/\n*.log\n", mode: 0o644 });
    const s = p.splice();
    open.push(s);
    const seed = Number(process.env.SPLICE_TEST_SEED ?? 22);
    const next = random(seed);
    for (let n = 0; n < 15; n++) {
      const before = await takeSnapshot(s.context, false);
      const { ops, changed } = round(next, model, n);
      apply(p.root, ops);
      const after = await takeSnapshot(s.context, false);
      const found = new Map(diffSnapshots(before, after));
      // A racy stat may say less (its bytes are compared later); none is expected here.
      const racy = [...before.files].filter(([, m]) => m.racy).map(([rel]) => rel);
      const context = `seed ${seed}, round ${n}: ${JSON.stringify(ops)}`;
      expect(racy, context).toEqual([]);
      expect([...found].sort(), context).toEqual([...changed].sort());
      expect([...after.files.keys()].sort(), context).toEqual([...model.keys()].sort());
      for (const [rel, file] of model) expect(after.files.get(rel)?.mode, rel).toBe(file.mode);
      // A fresh walk (a new guard: no listing reused) sees the same, field for field.
      const other = p.splice();
      open.push(other);
      expect(metas(await takeSnapshot(other.context, false)), context).toEqual(metas(after));
    }
  });

  it("a named checkpoint's diff finds a same-size rewrite with its mtime put back", async () => {
    const p = new Project();
    utimesSync(p.write("a.txt", "one\n"), STAMP, STAMP);
    p.write("b.txt", "two\n");
    const s = p.splice();
    open.push(s);
    await createCheckpoint(s.context, "start");
    apply(p.root, [{ op: "same-size", path: "a.txt", text: "ONE\n" }]);
    const diff = await diffCheckpoint(s.context, "start");
    expect(diff.changes.map((c) => [c.path, c.kind])).toEqual([["a.txt", "changed"]]);
  });
});
