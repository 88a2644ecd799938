/**
 * The index-staleness property: files edited from outside splice (plain fs
 * writes, some with their size and mtime kept) between lookups, and every
 * location a folder outline or a folder symbol read shows matches a fresh
 * parse of the file as it is on disk, and no file that defines the name is
 * missed. From a toolkit's second walk on, the index trusts the folder watch
 * (workspace/watch.ts), so these edits also test what the watch vouches for.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
} from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { languageOf, parseCode } from "../../src/code/languages.js";
import { outlineEntries } from "../../src/code/outline.js";
import { extractDefinitions } from "../../src/code/symbols.js";
import { documentFromBytes, normalizedText } from "../../src/text/document.js";
import type { OutlineResult } from "../../src/tools/outline/index.js";
import type { ReadResult } from "../../src/tools/read/index.js";
import { Project } from "../helpers/project.js";

const FILES = ["a.ts", "b.ts", "sub/c.ts"];
/** Names of one length, so a rename can keep the file's size. */
const NAMES = ["alpha", "bravo", "delta", "gamma", "omega"];

type Unit = { blank: true } | { name: string; long: boolean };
const render = (units: Unit[]) =>
  units
    .map((u) =>
      "blank" in u
        ? ""
        : u.long
          ? `export function ${u.name}() {\n  return 1;\n}`
          : `function ${u.name}() {}`,
    )
    .join("\n");

const unit = fc.oneof(
  fc.constant<Unit>({ blank: true }),
  fc.record({ name: fc.constantFrom(...NAMES), long: fc.boolean() }),
);
const op = fc.oneof(
  fc.record({ kind: fc.constant("insert" as const), file: fc.nat(2), at: fc.nat(8), unit }),
  fc.record({ kind: fc.constant("remove" as const), file: fc.nat(2), at: fc.nat(8) }),
  fc.record({
    kind: fc.constant("rename" as const),
    file: fc.nat(2),
    at: fc.nat(8),
    name: fc.constantFrom(...NAMES),
    keepStamp: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("delete" as const), file: fc.nat(2) }),
  fc.record({
    kind: fc.constant("create" as const),
    file: fc.nat(2),
    units: fc.array(unit, { maxLength: 6 }),
  }),
  fc.record({ kind: fc.constant("lookup" as const), name: fc.constantFrom(...NAMES) }),
);

/** The definitions of a file now, parsed afresh: "name start..end". */
function fresh(root: string, rel: string): string[] {
  const abs = join(root, rel);
  if (!existsSync(abs)) return [];
  const doc = documentFromBytes(new Uint8Array(readFileSync(abs)));
  if ("kind" in doc) return [];
  const language = languageOf(rel)!;
  const defs = extractDefinitions(
    parseCode(language, normalizedText(doc)).root(),
    language,
    doc.lines,
  );
  return outlineEntries(defs, language).map((e) => `${e.name} ${e.lines[0]}..${e.lines[1]}`);
}

describe("symbol index staleness", () => {
  it("never shows a location a fresh parse does not give", async () => {
    let stamp = Date.now() - 3_600_000;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 10 }), async (ops) => {
        const p = new Project();
        try {
          const state: (Unit[] | undefined)[] = FILES.map(() => [
            { name: "alpha", long: true },
            { blank: true },
            { name: "bravo", long: false },
          ]);
          /** Writes a file; its mtime is an old one (so the stat alone is trusted), or the one it had. */
          const put = (i: number, keep = false) => {
            const abs = join(p.root, FILES[i]!);
            const before = keep && existsSync(abs) ? statSync(abs).mtime : undefined;
            p.write(FILES[i]!, render(state[i]!));
            stamp += 1000;
            const t = before ?? new Date(stamp);
            utimesSync(abs, t, t);
          };
          for (let i = 0; i < FILES.length; i++) put(i);
          const splice = p.splice();
          const check = async (name: string) => {
            if (state.every((u) => u === undefined)) {
              // Every file deleted: nothing to outline, and the index must not invent one.
              await expect(splice.call("outline", { path: "." })).rejects.toThrow(/No file/);
              return;
            }
            const outlined = (await splice.call("outline", { path: "." })) as OutlineResult;
            for (const f of outlined.files) {
              const shown = f.definitions.map((d) => `${d.name} ${d.lines[0]}..${d.lines[1]}`);
              expect(shown, f.path).toEqual(fresh(p.root, f.path));
            }
            const { results } = await splice.read({ targets: [{ path: ".", symbol: name }] });
            const found = new Set<string>();
            for (const r of results) {
              for (const d of r.definitions ?? []) {
                expect(fresh(p.root, d.path), `${d.path} ${name}`).toContain(
                  `${d.name} ${d.lines[0]}..${d.lines[1]}`,
                );
                found.add(d.path);
              }
            }
            // And none is missed: an entry the watch wrongly vouched for would hide a new one.
            const defining = FILES.filter((rel) =>
              fresh(p.root, rel).some((d) => d.startsWith(`${name} `)),
            );
            expect([...found].sort(), name).toEqual(defining.sort());
          };
          await check("alpha");
          for (const o of ops) {
            const units = "file" in o ? state[o.file] : undefined;
            if (o.kind === "lookup") await check(o.name);
            else if (o.kind === "delete") {
              if (units) unlinkSync(join(p.root, FILES[o.file]!));
              state[o.file] = undefined;
            } else if (o.kind === "create") {
              state[o.file] = [...o.units];
              put(o.file);
            } else if (units && o.kind === "insert") {
              units.splice(Math.min(o.at, units.length), 0, o.unit);
              put(o.file);
            } else if (units && o.kind === "remove" && units.length > 0) {
              units.splice(o.at % units.length, 1);
              put(o.file);
            } else if (units && o.kind === "rename") {
              const named = units.filter((u): u is { name: string; long: boolean } => "name" in u);
              if (named.length === 0) continue;
              named[o.at % named.length]!.name = o.name;
              // Same length names: the size stays, and keepStamp puts the old mtime back.
              put(o.file, o.keepStamp);
            }
          }
          await check("bravo");
        } finally {
          rmSync(p.root, { recursive: true, force: true });
        }
      }),
      { numRuns: 15 },
    );
  }, 120_000);

  it("walks from its cache exactly what a fresh walk finds: files created, removed, renamed, ignored", async () => {
    const SLOTS = ["a.ts", "sub/b.ts", "sub/deep/c.ts", "other/d.ts", "sub/e.ts"];
    const IGNORES = ["", "b.ts\n", "deep/\n", "other\n", "*.ts\n!e.ts\n"];
    const IGNORE_AT = ["", "sub"];
    const walkOp = fc.oneof(
      fc.record({
        kind: fc.constant("create" as const),
        slot: fc.nat(SLOTS.length - 1),
        name: fc.constantFrom(...NAMES),
      }),
      fc.record({ kind: fc.constant("delete" as const), slot: fc.nat(SLOTS.length - 1) }),
      fc.record({
        kind: fc.constant("move" as const),
        from: fc.nat(SLOTS.length - 1),
        to: fc.nat(SLOTS.length - 1),
      }),
      fc.record({
        kind: fc.constant("ignore" as const),
        at: fc.nat(IGNORE_AT.length - 1),
        rules: fc.nat(IGNORES.length - 1),
      }),
      fc.record({ kind: fc.constant("lookup" as const), name: fc.constantFrom(...NAMES) }),
    );
    let stamp = Date.now() - 3_600_000;
    await fc.assert(
      fc.asyncProperty(fc.array(walkOp, { minLength: 1, maxLength: 12 }), async (ops) => {
        const p = new Project();
        try {
          const splice = p.splice();
          /**
           * What the last step changed (a file written, a folder whose entries
           * changed) gets an older, advancing mtime, old enough to be trusted;
           * the rest keeps its own, so unchanged folders hit the walk cache.
           */
          const age = () => {
            stamp += 1000;
            const t = new Date(stamp);
            const recent = Date.now() - 60_000;
            const touch = (abs: string) => {
              if (statSync(abs).mtimeMs > recent) utimesSync(abs, t, t);
            };
            const visit = (abs: string) => {
              for (const e of readdirSync(abs, { withFileTypes: true })) {
                if (e.name === ".splice") continue;
                const child = join(abs, e.name);
                if (e.isDirectory()) visit(child);
                touch(child);
              }
            };
            visit(p.root);
            touch(p.root);
          };
          const put = (slot: number, name: string) =>
            p.write(SLOTS[slot]!, `export function ${name}() {\n  return ${slot};\n}\n`);
          put(0, "alpha");
          put(1, "bravo");
          age();
          /** The same call with the index (and its walk cache) and as a fresh scan. */
          const both = async <T>(call: () => Promise<T>): Promise<[T | string, T | string]> => {
            const run = async () => call().catch((error: Error) => error.message);
            const indexed = await run();
            process.env.SPLICE_SYMBOL_INDEX = "0";
            try {
              return [indexed, await run()];
            } finally {
              delete process.env.SPLICE_SYMBOL_INDEX;
            }
          };
          const check = async (name: string) => {
            const [outlined, scanned] = await both(
              () => splice.call("outline", { path: "." }) as Promise<OutlineResult>,
            );
            const shape = (o: OutlineResult | string) =>
              typeof o === "string" ? o : { found: o.files_found, files: o.files };
            expect(shape(outlined)).toEqual(shape(scanned));
            const [read, fresh] = await both(() =>
              splice.read({ targets: [{ path: ".", symbol: name }] }),
            );
            const where = (r: { results: ReadResult[] } | string) =>
              typeof r === "string"
                ? r.split(". ")[0]
                : r.results.flatMap((x) =>
                    (x.definitions ?? []).map((d) => `${d.path} ${d.lines[0]}..${d.lines[1]}`),
                  );
            expect(where(read), name).toEqual(where(fresh));
          };
          await check("alpha");
          for (const o of ops) {
            if (o.kind === "lookup") {
              await check(o.name);
              continue;
            }
            if (o.kind === "create") put(o.slot, o.name);
            else if (o.kind === "delete") rmSync(join(p.root, SLOTS[o.slot]!), { force: true });
            else if (o.kind === "move") {
              const from = join(p.root, SLOTS[o.from]!);
              if (!existsSync(from) || o.from === o.to) continue;
              mkdirSync(dirname(join(p.root, SLOTS[o.to]!)), { recursive: true });
              renameSync(from, join(p.root, SLOTS[o.to]!));
            } else {
              const file = join(IGNORE_AT[o.at]!, ".gitignore");
              if (IGNORES[o.rules] === "") rmSync(join(p.root, file), { force: true });
              else p.write(file, IGNORES[o.rules]!);
            }
            age();
            // Rules rewritten in place change no folder's mtime: look right after each change.
            if (o.kind === "ignore") await check("bravo");
          }
          await check("bravo");
        } finally {
          rmSync(p.root, { recursive: true, force: true });
        }
      }),
      { numRuns: 30 },
    );
  }, 120_000);
});
