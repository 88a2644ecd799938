/**
 * `read` of PDFs written here by pdf-lib: the text page by page under page
 * markers, `pages` ranges, the page cap with how to read on, a PDF with no
 * text layer, and a truncated one.
 */
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { identify } from "../../src/change/load.js";
import { PDF_PAGE_CAP } from "../../src/tools/read/media.js";
import { Project } from "../helpers/project.js";

async function pdf(pages: string[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([400, 400]);
    lines.forEach((line, i) => {
      page.drawText(line, { x: 40, y: 360 - i * 20, size: 12, font });
    });
  }
  return doc.save();
}

async function read(p: Project, target: { path: string; pages?: string }) {
  const { results } = await p.splice().read({ targets: [target] });
  return results[0]!;
}

describe("read of a PDF", () => {
  it("shows the text page by page with page markers and the page count", async () => {
    const p = new Project();
    const bytes = await pdf([["Spec v2", "Section one"], ["Second page"]]);
    p.write("spec.pdf", bytes);
    const r = await read(p, { path: "spec.pdf" });
    const { tag } = identify(bytes);
    expect(r.error).toBeUndefined();
    expect(r.file_hash).toBe(tag);
    expect(r.content).toBe(
      [
        `¶spec.pdf#${tag} application/pdf, 2 page(s), ${(bytes.length / 1024).toFixed(1)} KiB`,
        "[page 1 of 2]",
        "Spec v2",
        "Section one",
        "[page 2 of 2]",
        "Second page",
      ].join("\n"),
    );
    expect(r.warnings).toEqual([]);
    expect(r.media).toEqual({ type: "application/pdf", pages: 2, bytes: bytes.length });
  });

  it("reads the pages asked for, caps a long read and says how to read on", async () => {
    const p = new Project();
    const many = Array.from({ length: 45 }, (_, i) => [`page text ${i + 1}`]);
    p.write("long.pdf", await pdf(many));
    const some = await read(p, { path: "long.pdf", pages: "3..5" });
    expect(some.content.split("\n").slice(1)).toEqual([
      "[page 3 of 45]",
      "page text 3",
      "[page 4 of 45]",
      "page text 4",
      "[page 5 of 45]",
      "page text 5",
    ]);
    const first = await read(p, { path: "long.pdf" });
    expect(first.content).toContain(`[page ${PDF_PAGE_CAP} of 45]`);
    expect(first.content).not.toContain(`[page ${PDF_PAGE_CAP + 1} of 45]`);
    expect(first.warnings).toEqual([
      `showing pages 1..${PDF_PAGE_CAP} of 45 (at most ${PDF_PAGE_CAP} per read); read on with "pages": "31..45"`,
    ]);
    const past = await read(p, { path: "long.pdf", pages: "50..52" });
    expect(past.error).toEqual({
      code: "invalid_input",
      message: 'pages "50..52" starts past the end: long.pdf has 45 page(s). Read "1..30" or less.',
    });
  });

  it("says so when the pages have no text layer", async () => {
    const p = new Project();
    p.write("scan.pdf", await pdf([[], []]));
    const r = await read(p, { path: "scan.pdf" });
    expect(r.warnings).toEqual([
      "no text layer: pages 1..2 hold no text (a scanned or image-only PDF); splice reads a PDF's text, not its pictures",
    ]);
  });

  it("refuses a truncated PDF with a coded error", async () => {
    const p = new Project();
    const bytes = await pdf([["whole"]]);
    p.write("cut.pdf", bytes.subarray(0, 200));
    const r = await read(p, { path: "cut.pdf" });
    expect(r.error?.code).toBe("corrupt");
    expect(r.error?.message).toMatch(
      /^cut\.pdf cannot be read: the PDF is damaged or incomplete \(.+\)\. Check that the PDF is complete/,
    );
  });
});
