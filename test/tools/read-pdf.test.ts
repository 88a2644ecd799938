/**
 * `read` of PDFs written here by pdf-lib: the text page by page under page
 * markers, `pages` ranges, the page cap with how to read on, pages with no
 * text layer drawn as images (with their own cap), and a truncated PDF.
 */
import { PDFDocument, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { MAX_LONG_EDGE } from "../../src/media/image.js";
import { PDF_IMAGE_CAP, PDF_PAGE_CAP } from "../../src/tools/read/media.js";
import { identify } from "../../src/util/hash.js";
import { Project } from "../helpers/project.js";
import { scannedPdf } from "../helpers/scanned-pdf.js";

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

  it("draws pages with no text layer as images and says which", async () => {
    const p = new Project();
    p.write("scan.pdf", await scannedPdf(["#3366cc", "#cc3333"]));
    const r = await read(p, { path: "scan.pdf" });
    expect(r.error).toBeUndefined();
    // A US Letter page (612×792 pt) drawn at the long-edge limit.
    const size = `${Math.round((612 * MAX_LONG_EDGE) / 792)}×${MAX_LONG_EDGE}`;
    expect(r.content.split("\n").slice(1)).toEqual([
      "[page 1 of 2]",
      `[no text layer: drawn as image 1 of this read, ${size}]`,
      "[page 2 of 2]",
      `[no text layer: drawn as image 2 of this read, ${size}]`,
    ]);
    expect(r.warnings).toEqual([
      "no text layer: pages 1..2 hold no text (a scanned or image-only PDF); pages 1..2 shown as images 1..2 of this read",
    ]);
    expect(r.images!.map((i) => i.mime_type)).toEqual(["image/jpeg", "image/jpeg"]);
    // The picture scannedPdf placed on each page, in its own colour, at its place.
    for (const [i, rgb] of [
      [0x33, 0x66, 0xcc],
      [0xcc, 0x33, 0x33],
    ].entries()) {
      const sent = Buffer.from(r.images![i]!.data, "base64");
      const meta = await sharp(sent).metadata();
      expect([meta.format, `${meta.width}×${meta.height}`]).toEqual(["jpeg", size]);
      const middle = await sharp(sent)
        .extract({
          left: Math.round(meta.width! / 2),
          top: Math.round(meta.height! / 2),
          width: 1,
          height: 1,
        })
        .raw()
        .toBuffer();
      const corner = await sharp(sent)
        .extract({ left: 2, top: 2, width: 1, height: 1 })
        .raw()
        .toBuffer();
      for (const [c, v] of [...middle].entries()) expect(Math.abs(v - rgb[c]!)).toBeLessThan(12);
      expect([...corner].every((v) => v > 245)).toBe(true);
    }
  });

  it("draws only the text-less pages asked for, at most the image cap per read", async () => {
    const p = new Project();
    const mixed = await PDFDocument.load(await pdf([["first has text"], [], ["third has text"]]));
    const scan = await PDFDocument.load(await scannedPdf(["#22aa44"]));
    const [scanned] = await mixed.copyPages(scan, [0]);
    mixed.removePage(1);
    mixed.insertPage(1, scanned!);
    p.write("mixed.pdf", await mixed.save());
    const r = await read(p, { path: "mixed.pdf" });
    expect(r.content.split("\n").slice(1)).toEqual([
      "[page 1 of 3]",
      "first has text",
      "[page 2 of 3]",
      "[no text layer: drawn as image 1 of this read, 1212×1568]",
      "[page 3 of 3]",
      "third has text",
    ]);
    expect(r.warnings).toEqual([
      "no text layer: page 2 holds no text (a scanned or image-only PDF); page 2 shown as image 1 of this read",
    ]);
    expect(r.images).toHaveLength(1);
    const textOnly = await read(p, { path: "mixed.pdf", pages: "3..3" });
    expect(textOnly.images).toBeUndefined();
    expect(textOnly.warnings).toEqual([]);

    const colours = Array.from(
      { length: PDF_IMAGE_CAP + 3 },
      (_, i) => `#${(i * 16 + 16).toString(16)}4080`,
    );
    p.write("long-scan.pdf", await scannedPdf(colours));
    const many = await read(p, { path: "long-scan.pdf" });
    expect(many.images).toHaveLength(PDF_IMAGE_CAP);
    expect(many.content).toContain(`[page ${PDF_IMAGE_CAP + 1} of 13]\n\n[page 12 of 13]`);
    expect(many.warnings).toEqual([
      `no text layer: pages 1..13 hold no text (a scanned or image-only PDF); pages 1..10 shown as images 1..10 of this read; pages 11..13 not drawn (at most ${PDF_IMAGE_CAP} images per read): read on with "pages": "11..13"`,
    ]);
    const rest = await read(p, { path: "long-scan.pdf", pages: "11..13" });
    expect(rest.images).toHaveLength(3);
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
