/**
 * The media benchmark: `read` of a 4000×3000 JPEG (downscaled to the
 * 1568 px long edge), of a 200-page PDF, and of a scanned PDF's pages drawn
 * as images, each beside the bare library calls doing the same work in the
 * same run — sharp's resize and encode plus the base64; pdf.js's load and
 * text of the same pages; pdf.js's load, text and render of the same pages
 * on @napi-rs/canvas at the same size, then sharp's JPEG and the base64.
 * Target: read ≤ 1.2× its baseline.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createCanvas } from "@napi-rs/canvas";
import { PDFDocument, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { MAX_LONG_EDGE } from "../src/media/image.js";
import { PDF_OPTIONS } from "../src/media/pdf.js";
import { createSplice } from "../src/splice.js";
import { PDF_IMAGE_CAP, PDF_PAGE_CAP } from "../src/tools/read/media.js";
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
/** Runs per scan row: one page is quick and noisy, ten pages slow and steady. */
const SCAN_RUNS: Record<number, { warmup: number; runs: number }> = {
  1: { warmup: 2, runs: 16 },
  [PDF_IMAGE_CAP]: { warmup: 1, runs: 4 },
};

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

/**
 * A scanner's PDF: each page a US Letter sheet holding one 200 dpi grey
 * JPEG (1700×2200, noise under a blur, so it compresses like paper) and no
 * text.
 */
async function scan(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let n = 0; n < pages; n++) {
    const sheet = await sharp({
      create: {
        width: 1700,
        height: 2200,
        channels: 3,
        background: "#f0f0f0",
        noise: { type: "gaussian", mean: 200 + n, sigma: 30 },
      },
    })
      .blur(1.5)
      .greyscale()
      .jpeg({ quality: 80 })
      .toBuffer();
    const picture = await doc.embedJpg(sheet);
    doc.addPage([612, 792]).drawImage(picture, { x: 0, y: 0, width: 612, height: 792 });
  }
  return doc.save();
}

/**
 * pdf.js and the canvas themselves: load the document, then per page its
 * text (how read knows it holds none), a render at the long edge, and
 * sharp's JPEG of the pixels as base64.
 */
async function bareRender(bytes: Uint8Array, first: number, last: number): Promise<number> {
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), ...PDF_OPTIONS }).promise;
  let sent = 0;
  for (let n = first; n <= last; n++) {
    const page = await doc.getPage(n);
    await page.getTextContent();
    const natural = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({
      scale: MAX_LONG_EDGE / Math.max(natural.width, natural.height),
    });
    const [width, height] = [Math.round(viewport.width), Math.round(viewport.height)];
    const canvas = createCanvas(width, height);
    const context = canvas.getContext("2d");
    await page.render({ canvasContext: context as never, viewport }).promise;
    const { data } = context.getImageData(0, 0, width, height);
    const jpeg = await sharp(data, { raw: { width, height, channels: 4 } })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 85 })
      .toBuffer();
    sent += jpeg.toString("base64").length;
    page.cleanup();
  }
  await doc.destroy();
  return sent;
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
  description:
    "read of a 4000×3000 JPEG, a 200-page PDF and a scanned PDF drawn as images vs the bare sharp / pdf.js / canvas calls",
  async run() {
    await withScratchDir("splice-bench-media-", async (dir) => {
      console.log(environment(dir));
      writeFileSync(join(dir, "photo.jpg"), await photo());
      writeFileSync(join(dir, "spec.pdf"), await spec());
      const splice = createSplice({ root: dir, history: { session: "bench" } });
      const rows: Row[] = [];

      /**
       * `read` and `bare` in turns, so both meet the same machine load, and
       * each goes first every other run, so neither always meets the caches
       * (and the CPU clock) the other left.
       */
      const sideBySide = async (
        what: string,
        runs: { warmup: number; runs: number },
        bare: () => Promise<unknown>,
        read: () => Promise<unknown>,
      ) => {
        const times = { read: [] as number[], bare: [] as number[] };
        const timed = async (run: () => Promise<unknown>, into: number[], keep: boolean) => {
          const t0 = performance.now();
          await run();
          if (keep) into.push(performance.now() - t0);
        };
        await measure(runs, async (i) => {
          const keep = i >= runs.warmup;
          const pair = [() => timed(bare, times.bare, keep), () => timed(read, times.read, keep)];
          if (i % 2 === 1) pair.reverse();
          for (const run of pair) await run();
        });
        rows.push({ what, read: summarize(times.read), bare: summarize(times.bare) });
      };

      const jpeg = readFileSync(join(dir, "photo.jpg"));
      await sideBySide(
        `photo.jpg ${(jpeg.length / 1e6).toFixed(1)} MB → ${MAX_LONG_EDGE} px`,
        IMAGE_RUNS,
        async () => {
          const out = await sharp(jpeg)
            .rotate()
            .resize({ width: MAX_LONG_EDGE, height: MAX_LONG_EDGE, fit: "inside" })
            .jpeg({ quality: 85 })
            .toBuffer();
          return out.toString("base64");
        },
        () => splice.read({ targets: [{ path: "photo.jpg" }] }),
      );

      const pdf = readFileSync(join(dir, "spec.pdf"));
      for (const [first, last] of [
        [1, PDF_PAGE_CAP],
        [PDF_PAGES - PDF_PAGE_CAP + 1, PDF_PAGES],
      ] as const) {
        await sideBySide(
          `spec.pdf ${PDF_PAGES} pages, pages ${first}..${last}`,
          PDF_RUNS,
          () => barePdf(pdf, first, last),
          () => splice.read({ targets: [{ path: "spec.pdf", pages: `${first}..${last}` }] }),
        );
      }

      writeFileSync(join(dir, "scan.pdf"), await scan(PDF_IMAGE_CAP));
      const scanned = readFileSync(join(dir, "scan.pdf"));
      for (const last of [1, PDF_IMAGE_CAP]) {
        await sideBySide(
          `scan.pdf ${PDF_IMAGE_CAP} scanned pages, page${last === 1 ? " 1" : `s 1..${last}`} drawn`,
          SCAN_RUNS[last]!,
          () => bareRender(scanned, 1, last),
          async () => {
            const r = await splice.read({ targets: [{ path: "scan.pdf", pages: `1..${last}` }] });
            if (r.results[0]!.images?.length !== last) throw new Error("read drew no page images");
          },
        );
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
        "\nbare: sharp resize + JPEG encode + base64 of the same file; pdf.js load (with read's options) + text of the same pages; for scans, pdf.js load + text + render on @napi-rs/canvas at 1568 px + sharp JPEG + base64 of the same pages.",
      );
    });
  },
});
