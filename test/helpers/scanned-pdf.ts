/**
 * A PDF with no text layer, as a scanner writes one: each page a US Letter
 * sheet holding one picture (a PNG sharp makes in the given colour, in the
 * middle of the page) and no text.
 */
import { PDFDocument } from "pdf-lib";
import sharp from "sharp";

export async function scannedPdf(colours: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const background of colours) {
    const png = await sharp({ create: { width: 200, height: 120, channels: 3, background } })
      .png()
      .toBuffer();
    const picture = await doc.embedPng(png);
    const page = doc.addPage([612, 792]);
    page.drawImage(picture, { x: 206, y: 336, width: 200, height: 120 });
  }
  return doc.save();
}
