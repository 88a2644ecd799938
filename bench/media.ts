/**
 * The media benchmark: `read` of a 4000×3000 JPEG (downscaled to the
 * 1568 px long edge) and of a 200-page PDF, each beside the bare library
 * call doing the same work in the same run — sharp's resize and encode plus
 * the base64, pdf.js's load and text of the same pages. Target: read ≤ 1.2×
 * its baseline.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { MAX_LONG_EDGE } from "../src/media/image.js";
import { PDF_OPTIONS } from "../src/media/pdf.js";
import { createSplice } from "../src/splice.js";
import { PDF_PAGE_CAP } from "../src/tools/read/media.js";
import {
  defineBenchmark,
  environment,
  fixed,
  formatTable,
  measure,
  ms,
  type Stats,
  summarize,
  withScratchDir,
} from "./lib.js";

const TARGET = 1.2;
const IMAGE_RUNS = { warmup: 3, runs: 15 };
const PDF_RUNS = { warmup: 1, runs: 8 };
const PDF_PAGES = 200;

/** A photo-like JPEG: a gradient under gaussian noise, so it compresses like a photo. */
async function photo(): Promise<Buffer> {
  const noise = await sharp({
    create: {
      width: 4000,
      height: 3000,
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 128, sigma: 40 },
    },
  })
    .blur(2)
    .jpeg({ quality: 90 })
    .toBuffer();
  return noise;
}

async function spec(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= PDF_PAGES; n++) {
    const page = doc.addPage([595, 842]);
    for (let line = 0; line < 40; line++) {
      const text = `Page ${n}, requirement ${line + 1}: the server must answer within the stated limit.`;
      page.drawText(text, { x: 40, y: 800 - line * 19, size: 10, font });
    }
  }
  return doc.save();
}

/** pdf.js itself: load the document, then each page's text content. */
async function barePdf(bytes: Uint8Array, first: number, last: number): Promise<number> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), ...PDF_OPTIONS }).promise;
  let items = 0;
  for (let n = first; n <= last; n++) {
    const page = await doc.getPage(n);
    items += (await page.getTextContent()).items.length;
    page.cleanup();
  }
  await doc.destroy();
  return items;
}

interface Row {
  what: string;
  read: Stats;
  bare: Stats;
}

defineBenchmark({
  name: "media",
  description: "read of a 4000×3000 JPEG and a 200-page PDF vs the bare sharp / pdf.js calls",
  async run() {
    await withScratchDir("splice-bench-media-", async (dir) => {
      console.log(environment(dir));
      writeFileSync(join(dir, "photo.jpg"), await photo());
      writeFileSync(join(dir, "spec.pdf"), await spec());
      const splice = createSplice({ root: dir, history: { session: "bench" } });
      const rows: Row[] = [];

      const jpeg = readFileSync(join(dir, "photo.jpg"));
      const bareImage = async () => {
        const out = await sharp(jpeg)
          .rotate()
          .resize({ width: MAX_LONG_EDGE, height: MAX_LONG_EDGE, fit: "inside" })
          .jpeg({ quality: 85 })
          .toBuffer();
        return out.toString("base64");
      };
      const readImage = () => splice.read({ targets: [{ path: "photo.jpg" }] });
      // Interleaved, so both meet the same machine load.
      const image = { read: [] as number[], bare: [] as number[] };
      await measure(IMAGE_RUNS, async (i) => {
        const t0 = performance.now();
        await bareImage();
        const t1 = performance.now();
        await readImage();
        const t2 = performance.now();
        if (i >= IMAGE_RUNS.warmup) {
          image.bare.push(t1 - t0);
          image.read.push(t2 - t1);
        }
      });
      rows.push({
        what: `photo.jpg ${(jpeg.length / 1e6).toFixed(1)} MB → ${MAX_LONG_EDGE} px`,
        read: summarize(image.read),
        bare: summarize(image.bare),
      });

      const pdf = readFileSync(join(dir, "spec.pdf"));
      for (const [first, last] of [
        [1, PDF_PAGE_CAP],
        [PDF_PAGES - PDF_PAGE_CAP + 1, PDF_PAGES],
      ] as const) {
        const times = { read: [] as number[], bare: [] as number[] };
        await measure(PDF_RUNS, async (i) => {
          const t0 = performance.now();
          await barePdf(pdf, first, last);
          const t1 = performance.now();
          await splice.read({ targets: [{ path: "spec.pdf", pages: `${first}..${last}` }] });
          const t2 = performance.now();
          if (i >= PDF_RUNS.warmup) {
            times.bare.push(t1 - t0);
            times.read.push(t2 - t1);
          }
        });
        rows.push({
          what: `spec.pdf ${PDF_PAGES} pages, pages ${first}..${last}`,
          read: summarize(times.read),
          bare: summarize(times.bare),
        });
      }

      console.log(
        formatTable(
          [
            { header: "file" },
            { header: "read median ms", right: true },
            { header: "read p95 ms", right: true },
            { header: "bare median ms", right: true },
            { header: "read / bare", right: true },
            { header: `target ≤ ${TARGET}×` },
          ],
          rows.map((r) => {
            const ratio = r.read.median / r.bare.median;
            return [
              r.what,
              ms(r.read.median),
              ms(r.read.p95),
              ms(r.bare.median),
              `${fixed(ratio, 2)}×`,
              ratio <= TARGET ? "met" : "MISSED",
            ];
          }),
        ),
      );
      console.log(
        "\nbare: sharp resize + JPEG encode + base64 of the same file; pdf.js load (with read's options) + text of the same pages.",
      );
    });
  },
});
