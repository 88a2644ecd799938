import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Project } from "../helpers/project.js";

const line = fc.string({ unit: fc.constantFrom("a", "b", " ", "é", "\t", "x"), maxLength: 6 });
const fileText = fc
  .record({
    lines: fc.array(line, { minLength: 1, maxLength: 8 }),
    eol: fc.constantFrom("\n", "\r\n"),
    bom: fc.boolean(),
    finalNewline: fc.boolean(),
  })
  .map(
    ({ lines, eol, bom, finalNewline }) =>
      (bom ? "\uFEFF" : "") + lines.join(eol) + (finalNewline ? eol : ""),
  );

/** One edit step: an op against the current numbers, or a whole-file write. */
const step = fc.oneof(
  fc.record({ kind: fc.constant("edit" as const), at: fc.nat(), text: line }),
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("write" as const), text: fileText }),
);

describe("rollback (property)", () => {
  it("restores the exact original bytes after any sequence of edits", async () => {
    await fc.assert(
      fc.asyncProperty(
        fileText,
        fc.array(step, { minLength: 1, maxLength: 6 }),
        async (original, steps) => {
          const p = new Project();
          p.write("f.txt", original);
          const s = p.splice();
          const first = (await s.read({ targets: [{ path: "f.txt" }] })).results[0]!;
          let tag = first.file_hash!;
          let lines = first.total_lines!;
          for (const st of steps) {
            if (st.kind === "write") {
              const r = (await s.write({ targets: [{ path: "f.txt", text: st.text }] }))
                .results[0]!;
              tag = r.file_hash;
            } else if (lines > 0) {
              const n = (st.at % lines) + 1;
              const ops = st.kind === "edit" ? `replace ${n}:\n+${st.text}` : `delete ${n}`;
              tag = (await s.edit({ targets: [{ path: "f.txt", file_hash: tag, ops }] }))
                .results[0]!.file_hash;
            }
            lines = (await s.read({ targets: [{ path: "f.txt" }] })).results[0]!.total_lines!;
          }
          const back = await s.rollback({ path: "f.txt", hash: first.file_hash! });
          // A tag names normalized text, so "" and a lone BOM share one: then the
          // newest version with that tag is restored, and the result must say so.
          const shared = back.warnings.some((w) => w.includes("also names an older"));
          if (shared) expect(back.warnings.join(" ")).toContain("call undo with");
          else expect(p.bytes("f.txt").equals(Buffer.from(original))).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });
});
