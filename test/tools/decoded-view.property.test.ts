/**
 * The decoded-file cache and the reparse of changed bytes must never show a
 * model anything but what a fresh decode of the file shows: random edits by
 * splice interleaved with random changes made behind its back (line endings,
 * a BOM, multibyte text, NUL bytes), each followed by a read checked against
 * a parse of the bytes on disk.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { documentFromBytes } from "../../src/text/document.js";
import type { Encoding } from "../../src/text/encoding.js";
import { documentTag } from "../../src/text/hashline.js";
import { Project } from "../helpers/project.js";

/** VIEW_PROPERTY_SEED replays a failing run. */
const SEED = process.env.VIEW_PROPERTY_SEED ? { seed: Number(process.env.VIEW_PROPERTY_SEED) } : {};

const piece = fc.string({
  unit: fc.constantFrom("a", "b", "é", "日", " ", "\n", "\r\n", "\r", "\uFEFF", "\u0000", "\uD800"),
  maxLength: 12,
});

/** A change behind splice's back: a slice of the text replaced by a random piece. */
const outside = fc.record({
  kind: fc.constant("outside" as const),
  at: fc.nat(),
  cut: fc.nat(),
  text: piece,
});
const edit = fc.record({
  kind: fc.constant("edit" as const),
  at: fc.nat(),
  text: fc.constantFrom("x", "yé", "", "z\r"),
});
const read = fc.record({ kind: fc.constant("read" as const) });
const write = fc.record({ kind: fc.constant("write" as const), text: piece });

describe("what a read shows (property)", () => {
  it("always equals a fresh decode of the bytes on disk", async () => {
    await fc.assert(
      fc.asyncProperty(
        piece,
        fc.array(fc.oneof(outside, edit, read, write), { maxLength: 10 }),
        async (start, steps) => {
          const p = new Project();
          p.write("f.txt", `one\ntwo\nthree\n${start}`);
          const s = p.splice({ lsp: false });
          let tag = "";
          let lines = 0;
          const check = async () => {
            const [r] = (await s.read({ targets: [{ path: "f.txt" }] })).results;
            const fresh = documentFromBytes(p.bytes("f.txt"));
            if ("kind" in fresh) {
              if (r!.file_hash === undefined) return;
              // Not UTF-8, but read in an encoding detection was sure of: the header names it.
              const named = /^¶\S+ \((\S+)\)/m.exec(r!.content ?? "")?.[1] as Encoding | undefined;
              expect(named).toBeDefined();
              const legacy = documentFromBytes(p.bytes("f.txt"), named);
              if ("kind" in legacy) throw new Error(`not ${named}: ${legacy.reason}`);
              expect(r!.file_hash).toBe(documentTag(legacy));
              return;
            }
            expect(r!.file_hash).toBe(documentTag(fresh));
            expect(r!.total_lines).toBe(fresh.lines.length);
            const shown = r!.content!.split("\n").filter((l) => /^\d+\| /.test(l));
            expect(shown.map((l) => l.replace(/^\d+\| /, ""))).toEqual(
              fresh.lines.slice(0, shown.length),
            );
            tag = r!.file_hash!;
            lines = fresh.lines.length;
          };
          await check();
          for (const st of steps) {
            if (st.kind === "outside") {
              const text = p.bytes("f.txt").toString("latin1");
              const from = st.at % (text.length + 1);
              const to = from + (st.cut % (text.length - from + 1));
              const next = Buffer.concat([
                Buffer.from(text.slice(0, from), "latin1"),
                Buffer.from(st.text, "utf8"),
                Buffer.from(text.slice(to), "latin1"),
              ]);
              writeFileSync(join(p.root, "f.txt"), next);
            } else if (st.kind === "write") {
              await s.write({ targets: [{ path: "f.txt", text: st.text }] }).catch(() => undefined);
            } else if (st.kind === "edit" && tag && lines > 0) {
              const ops = `replace ${(st.at % lines) + 1}:\n+${st.text}`;
              // A stale tag may merge or be refused; either way the next read must be true.
              await s
                .edit({ targets: [{ path: "f.txt", file_hash: tag, ops }] })
                .catch(() => undefined);
            }
            await check();
          }
        },
      ),
      { numRuns: Number(process.env.VIEW_PROPERTY_RUNS ?? 150), ...SEED },
    );
  });
});
