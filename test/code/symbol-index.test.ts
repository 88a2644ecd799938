import { execFileSync, spawn } from "node:child_process";
import {
  copyFileSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { languageOf } from "../../src/code/languages.js";
import type { CodeFile } from "../../src/codebase/files.js";
import { SymbolIndex, symbolIndexFor } from "../../src/codebase/symbol-index.js";
import { buildIndexInBackground } from "../../src/codebase/symbol-index-build.js";
import { watchFor } from "../../src/codebase/symbol-index-walk.js";
import { createContext } from "../../src/toolkit/options.js";
import type { OutlineResult } from "../../src/tools/outline/index.js";
import type { ReadResult } from "../../src/tools/read/index.js";
import { Project } from "../helpers/project.js";

const here = dirname(fileURLToPath(import.meta.url));
const projects: Project[] = [];
afterEach(() => {
  for (const p of projects.splice(0)) rmSync(p.root, { recursive: true, force: true });
});

function project(): Project {
  const p = new Project();
  projects.push(p);
  return p;
}

/** A CodeFile for a root-relative path, as the walk makes it. */
function code(p: Project, rel: string): CodeFile {
  const abs = join(p.root, rel);
  const file = { input: rel, abs, real: abs, rel, display: rel, exists: true, link: false };
  return { file, language: languageOf(rel)!, explicit: false };
}

function setup(p: Project) {
  const { context } = createContext({ root: p.root, history: { session: "t" } });
  return { context: { ...context, backup: "t" }, index: new SymbolIndex(join(p.root, ".splice")) };
}

async function readSymbol(p: Project, path: string, symbol: string): Promise<ReadResult> {
  const { results } = await p.splice().read({ targets: [{ path, symbol }] });
  expect(results[0]!.error).toBeUndefined();
  return results.map((r) => ({ ...r, content: results.map((x) => x.content).join("\n") }))[0]!;
}

const HOUR_AGO = new Date(Date.now() - 3_600_000);
const age = (p: Project, rel: string) => utimesSync(join(p.root, rel), HOUR_AGO, HOUR_AGO);

const ranges = (entry: { defs: { name: string; start: number; end: number }[] }) =>
  entry.defs.map((d) => `${d.name} ${d.start}..${d.end}`);

describe("symbol index", () => {
  it("parses a file it has no entry for and stores the entry on disk", async () => {
    const p = project();
    p.write("a.ts", "export function alpha() {\n  return 1;\n}\n");
    const { context, index } = setup(p);
    const [got] = await index.lookup(context, [code(p, "a.ts")]);
    expect("entry" in got! && ranges(got.entry)).toEqual(["alpha 1..3"]);
    const onDisk = readdirSync(join(p.root, ".splice", "index")).filter((n) => n.endsWith(".json"));
    const stored = onDisk.map((n) => readFileSync(join(p.root, ".splice", "index", n), "utf8"));
    expect(stored.join("\n")).toContain('"a.ts"');
    // Another process (a fresh index object) reads it back.
    const other = new SymbolIndex(join(p.root, ".splice"));
    other.refresh();
    expect(other.get("a.ts")?.defs[0]?.name).toBe("alpha");
  });

  it("answers an unchanged, settled file from its stat alone", async () => {
    const p = project();
    p.write("a.ts", "export function alpha() {}\n");
    age(p, "a.ts");
    const { context, index } = setup(p);
    const [first] = await index.lookup(context, [code(p, "a.ts")]);
    const [second] = await index.lookup(context, [code(p, "a.ts")]);
    expect("entry" in second! && second.entry).toBe("entry" in first! && first.entry);
    // Nothing was read for the hit.
    expect("bytes" in second! && second.bytes).toBeFalsy();
  });

  it("re-parses a changed file before answering", async () => {
    const p = project();
    p.write("a.ts", "export function alpha() {}\n");
    age(p, "a.ts");
    const { context, index } = setup(p);
    await index.lookup(context, [code(p, "a.ts")]);
    p.write("a.ts", "\n\nexport function beta() {\n}\n");
    const [got] = await index.lookup(context, [code(p, "a.ts")]);
    expect("entry" in got! && ranges(got.entry)).toEqual(["beta 3..4"]);
  });

  it("re-reads a file modified within 2 s of its stat, catching a same-size edit", async () => {
    const p = project();
    p.write("a.ts", "function aaaa() {}\nfunction bbbb() {}\n");
    const { context, index } = setup(p);
    await index.lookup(context, [code(p, "a.ts")]);
    const { mtime } = await import("node:fs").then((fs) => fs.statSync(join(p.root, "a.ts")));
    p.write("a.ts", "function bbbb() {}\nfunction aaaa() {}\n");
    utimesSync(join(p.root, "a.ts"), mtime, mtime);
    const [got] = await index.lookup(context, [code(p, "a.ts")]);
    expect("entry" in got! && ranges(got.entry)).toEqual(["bbbb 1..1", "aaaa 2..2"]);
  });

  it("a toolkit's watch catches a same-size edit with its exact mtime put back, which a stat cannot", async () => {
    const p = project();
    p.write("src/a.ts", "export function alpha() {}\n");
    p.write("src/b.ts", "export function bravo() {}\n");
    age(p, "src/a.ts");
    const splice = p.splice();
    const read = (symbol: string) => splice.read({ targets: [{ path: "src", symbol }] });
    // The first walk is a one-shot's; the second starts the watch and vouches; the third trusts it.
    for (let i = 0; i < 3; i++) await read("alpha");
    expect(watchFor(splice.context)).toBeDefined();
    const abs = join(p.root, "src/a.ts");
    const ref = join(p.root, "..", `${basename(p.root)}-ref`);
    copyFileSync(abs, ref);
    execFileSync("touch", ["-r", abs, ref]);
    const before = statSync(abs, { bigint: true });
    writeFileSync(abs, "export function gamma() {}\n");
    execFileSync("touch", ["-r", ref, abs]);
    rmSync(ref);
    const after = statSync(abs, { bigint: true });
    expect([after.size, after.mtimeNs]).toEqual([before.size, before.mtimeNs]);
    const { results } = await read("gamma");
    expect(results[0]!.error).toBeUndefined();
    expect(results[0]!.definitions?.map((d) => `${d.path} ${d.name}`)).toEqual(["src/a.ts gamma"]);
    await splice.close();
    expect(watchFor(splice.context)).toBeUndefined();
  });

  it("drops a deleted file", async () => {
    const p = project();
    p.write("a.ts", "export function alpha() {}\n");
    const { context, index } = setup(p);
    await index.lookup(context, [code(p, "a.ts")]);
    unlinkSync(join(p.root, "a.ts"));
    const [got] = await index.lookup(context, [code(p, "a.ts")]);
    expect(got).toMatchObject({ skipped: "gone" });
    expect(index.get("a.ts")).toBeUndefined();
    const fresh = new SymbolIndex(join(p.root, ".splice"));
    fresh.refresh();
    expect(fresh.get("a.ts")).toBeUndefined();
  });

  it("a folder read forgets files deleted since, and does not show them", async () => {
    const p = project();
    p.write("src/a.ts", "export function alpha() {}\n");
    p.write("src/b.ts", "export function alpha() {}\n");
    const first = await readSymbol(p, "src", "alpha");
    expect(first.content).toContain("src/b.ts");
    unlinkSync(join(p.root, "src/b.ts"));
    const second = await readSymbol(p, "src", "alpha");
    expect(second.content).toContain("src/a.ts");
    expect(second.content).not.toContain("src/b.ts");
    const index = symbolIndexFor({ ...createContext({ root: p.root }).context, backup: "t" })!;
    expect([...index.paths("src")]).toEqual(["src/a.ts"]);
  });

  it("reads a corrupt index file as empty and rewrites it, with no error", async () => {
    const p = project();
    for (let i = 0; i < 20; i++) p.write(`f${i}.ts`, `export function f${i}() {}\n`);
    const splice = p.splice();
    await splice.call("outline", { path: "." });
    const dir = join(p.root, ".splice", "index");
    const shards = readdirSync(dir).filter((n) => n.endsWith(".json"));
    expect(shards.length).toBeGreaterThan(0);
    for (const name of shards) writeFileSync(join(dir, name), '{"v":1,"files":{"f1.ts":');
    p.write("f0.ts", "\nexport function changed() {}\n");
    const result = (await splice.call("outline", { path: "." })) as OutlineResult;
    expect(result.warnings).toEqual([]);
    expect(result.content).toContain("2 function changed() {}");
    for (const name of readdirSync(dir).filter((n) => n.endsWith(".json"))) {
      JSON.parse(readFileSync(join(dir, name), "utf8"));
    }
    const read = await readSymbol(p, ".", "f7");
    expect(read.content).toContain("¶f7.ts");
  });

  it("two processes building at once leave a whole, correct index", async () => {
    const p = project();
    for (let i = 0; i < 300; i++) {
      p.write(`d${i % 7}/m${i}.ts`, `${"\n".repeat(i % 5)}export function m${i}() {\n}\n`);
    }
    const build = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          ["--import", "tsx", join(here, "fixtures", "index-build.ts"), p.root, "3"],
          { stdio: ["ignore", "pipe", "pipe"] },
        );
        let out = "";
        child.stdout.on("data", (d) => (out += d));
        child.stderr.on("data", (d) => (out += d));
        child.on("error", reject);
        child.on("exit", () => resolve(out));
      });
    expect(await Promise.all([build(), build()])).toEqual(["done\n", "done\n"]);
    const dir = join(p.root, ".splice", "index");
    const names = readdirSync(dir);
    expect(names.filter((n) => !n.endsWith(".json"))).toEqual([]);
    const index = new SymbolIndex(join(p.root, ".splice"));
    index.refresh();
    for (const rel of index.paths("")) {
      const i = Number(/m(\d+)/.exec(rel)![1]);
      const start = (i % 5) + 1;
      expect(ranges(index.get(rel)!)).toEqual([`m${i} ${start}..${start + 1}`]);
    }
    const { context } = setup(p);
    const files = Array.from({ length: 300 }, (_, i) => code(p, `d${i % 7}/m${i}.ts`));
    const all = await index.lookup(context, files);
    expect(all.filter((f) => !("entry" in f))).toEqual([]);
  }, 60_000);
});

describe("background build", () => {
  it("indexes every file, waiting while a call runs, and stops when told", async () => {
    const p = project();
    for (let i = 0; i < 30; i++) p.write(`s/f${i}.ts`, `export function f${i}() {}\n`);
    const { context } = setup(p);
    let busy = true;
    const built = buildIndexInBackground(context, { busy: () => busy, stopped: () => false });
    await new Promise((r) => setTimeout(r, 150));
    const index = new SymbolIndex(join(p.root, ".splice"));
    index.refresh();
    expect([...index.paths("")]).toEqual([]);
    busy = false;
    expect(await built).toBe(true);
    index.refresh();
    expect([...index.paths("s")].length).toBe(30);
    const stopped = await buildIndexInBackground(context, {
      busy: () => false,
      stopped: () => true,
    });
    expect(stopped).toBe(false);
  });
});
