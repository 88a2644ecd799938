/**
 * A PDF page as an image, for pages with no text layer (scans): pdf.js
 * draws the page on a canvas of `@napi-rs/canvas` (the one pdf.js itself
 * uses on Node), at the long edge image.ts allows, and the pixels go
 * through image.ts's limits like any image. The canvas is part of the PDF
 * add-on (33 MB, prebuilt per platform); without it a read still gives the
 * text and says how to add it.
 */
import { findAddon, requireAddon } from "../util/addons.js";
import { MAX_LONG_EDGE, type PreparedImage, preparePixels } from "./image.js";

export const CANVAS_PACKAGE = "@napi-rs/canvas";

interface Canvas {
  width: number;
  height: number;
  getContext(kind: "2d"): { getImageData(x: number, y: number, w: number, h: number): ImageData };
}

interface ImageData {
  data: Uint8ClampedArray;
}

interface CanvasModule {
  createCanvas(width: number, height: number): Canvas;
  DOMMatrix: unknown;
  ImageData: unknown;
  Path2D: unknown;
}

/** The parts of a pdf.js page that drawing it uses. */
export interface DrawablePage {
  getViewport(options: { scale: number }): { width: number; height: number };
  render(options: { canvasContext: unknown; viewport: unknown }): { promise: Promise<void> };
}

/** What pdf.js's `CanvasFactory` option constructs: its own Node factory's three methods. */
export type CanvasFactoryClass = new () => {
  create(width: number, height: number): { canvas: Canvas; context: unknown };
  reset(entry: { canvas: Canvas }, width: number, height: number): void;
  destroy(entry: { canvas: Canvas }): void;
};

export interface PageCanvas {
  lib: CanvasModule;
  /** Given to getDocument, so pdf.js's own scratch canvases come from the same module. */
  factory: CanvasFactoryClass;
}

let found: PageCanvas | undefined;

/**
 * The canvas, or undefined when it is installed nowhere splice looks (looked
 * for again on each read until found, so installing it needs no restart).
 */
export function pageCanvas(): PageCanvas | undefined {
  if (found) return found;
  const addon = findAddon(CANVAS_PACKAGE);
  if (!addon) return undefined;
  const lib = requireAddon(addon) as CanvasModule;
  // pdf.js draws with these DOM classes and takes them from the canvas itself
  // only when the canvas sits beside it; an add-on found elsewhere sets them here.
  const globals = globalThis as Record<string, unknown>;
  for (const name of ["DOMMatrix", "ImageData", "Path2D"] as const) globals[name] ??= lib[name];
  const factory: CanvasFactoryClass = class {
    create(width: number, height: number) {
      const canvas = lib.createCanvas(width, height);
      return { canvas, context: canvas.getContext("2d") };
    }
    reset(entry: { canvas: Canvas }, width: number, height: number) {
      entry.canvas.width = width;
      entry.canvas.height = height;
    }
    destroy(entry: { canvas: Canvas }) {
      entry.canvas.width = 0;
      entry.canvas.height = 0;
    }
  };
  found = { lib, factory };
  return found;
}

/** Past this a page's pixels are upscaled with nothing more to show (a page of a few points). */
const MAX_SCALE = 4;

/** The page drawn with its long edge at MAX_LONG_EDGE pixels, encoded within image.ts's limits. */
export async function renderPage(canvas: PageCanvas, page: DrawablePage): Promise<PreparedImage> {
  const natural = page.getViewport({ scale: 1 });
  const scale = Math.min(MAX_SCALE, MAX_LONG_EDGE / Math.max(natural.width, natural.height));
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.round(viewport.width));
  const height = Math.max(1, Math.round(viewport.height));
  const surface = canvas.lib.createCanvas(width, height);
  const context = surface.getContext("2d");
  await page.render({ canvasContext: context, viewport }).promise;
  const { data } = context.getImageData(0, 0, width, height);
  return preparePixels(
    new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width,
    height,
  );
}
