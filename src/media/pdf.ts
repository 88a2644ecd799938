/**
 * A PDF's text, page by page, through pdf.js (`pdfjs-dist`, Mozilla's
 * reader), and the pages that hold no text drawn as images (pdf-image.ts).
 * pdf.js and its canvas are an add-on, not a dependency: some 70 MB, about
 * half of splice's install budget, for a file type most projects never
 * hold. They are found like every add-on (util/addons.ts): beside splice,
 * then in the add-on folder.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { addonDir, findAddon, pinnedVersion } from "../util/addons.js";
import { firstLine, MediaError } from "./error.js";
import type { PreparedImage } from "./image.js";
import { CANVAS_PACKAGE, type DrawablePage, pageCanvas, renderPage } from "./pdf-image.js";

export const PDF_PACKAGE = "pdfjs-dist";

export interface PdfPage {
  number: number;
  text: string;
  /** The page drawn: it holds no text, the canvas is installed, and it is within the image cap. */
  image?: PreparedImage;
  /** Why a page without text could not be drawn (pdf.js's own words). */
  undrawn?: string;
}

export interface PdfText {
  pageCount: number;
  pages: PdfPage[];
  /** False when the canvas is installed nowhere splice looks, so no page was drawn. */
  canvas: boolean;
}

interface PdfJs {
  getDocument(options: Record<string, unknown>): {
    promise: Promise<{
      numPages: number;
      getPage(n: number): Promise<
        DrawablePage & {
          getTextContent(): Promise<{ items: { str?: string; hasEOL?: boolean }[] }>;
          cleanup(): void;
        }
      >;
      destroy(): Promise<void>;
    }>;
  };
}

/**
 * How splice opens a PDF: no eval (pdf.js compiles font programs with it
 * otherwise), no font loading (text needs none), errors stop the load.
 */
export const PDF_OPTIONS = {
  isEvalSupported: false,
  disableFontFace: true,
  useSystemFonts: false,
  stopAtErrors: true,
  verbosity: 0,
} as const;

let loaded: Promise<PdfJs> | undefined;

/** The command that installs `packages` (at the versions splice was tested with) where splice finds them. */
function installCommand(packages: string[]): string {
  const specs = packages.map((pkg) => {
    const version = pinnedVersion(pkg);
    return version ? `${pkg}@${version}` : pkg;
  });
  return `npm install --prefix '${addonDir()}' ${specs.join(" ")}`;
}

/** The command that installs the PDF add-on: pdf.js and the canvas it draws pages on. */
export const pdfInstallCommand = (): string => installCommand([PDF_PACKAGE, CANVAS_PACKAGE]);

/** The command that adds the canvas beside a pdf.js installed without it. */
export const canvasInstallCommand = (): string => installCommand([CANVAS_PACKAGE]);

async function pdfjs(): Promise<PdfJs> {
  const found = findAddon(PDF_PACKAGE);
  if (!found) {
    throw new MediaError(
      `reading a PDF needs pdf.js, an add-on splice does not install by default; install it with: ${pdfInstallCommand()}`,
      "needs_addon",
    );
  }
  // The legacy build is the one that runs on Node 20 without a DOM.
  loaded ??= importQuietly(pathToFileURL(join(found.dir, "legacy/build/pdf.mjs")).href);
  return loaded;
}

/**
 * pdf.js prints warnings with console.log as it loads (no canvas to take
 * DOMMatrix from, say), before any `verbosity` option applies; stdout is an
 * MCP server's protocol and the CLI's JSON, so they are dropped while it
 * loads. Finding the canvas first sets what they would warn about, and a
 * read's own notice says when it is missing.
 */
async function importQuietly(url: string): Promise<PdfJs> {
  pageCanvas();
  const log = console.log;
  console.log = (...args: unknown[]) => {
    if (!(typeof args[0] === "string" && args[0].startsWith("Warning: "))) log(...args);
  };
  try {
    return (await import(url)) as PdfJs;
  } finally {
    console.log = log;
  }
}

/** One page's text: pdf.js items joined, a line break where the text layer ends a line. */
function pageText(items: { str?: string; hasEOL?: boolean }[]): string {
  let text = "";
  for (const item of items) {
    text += item.str ?? "";
    if (item.hasEOL) text += "\n";
  }
  return text.replace(/[ \t]+\n/g, "\n").trim();
}

/**
 * The text of pages `first..last` (clamped to the document), and the page
 * count; the first `maxImages` of them that hold no text are drawn as
 * images when the canvas is installed. `bytes` is copied: pdf.js takes
 * ownership of (detaches) the buffer it is given.
 */
export async function pdfPages(
  bytes: Uint8Array,
  first: number,
  last: number,
  maxImages: number,
): Promise<PdfText> {
  const lib = await pdfjs();
  const canvas = pageCanvas();
  let doc: Awaited<ReturnType<PdfJs["getDocument"]>["promise"]>;
  try {
    doc = await lib.getDocument({
      data: new Uint8Array(bytes),
      ...PDF_OPTIONS,
      ...(canvas ? { CanvasFactory: canvas.factory } : {}),
    }).promise;
  } catch (error) {
    throw new MediaError(`the PDF is damaged or incomplete (${firstLine(error)})`);
  }
  try {
    const pages: PdfPage[] = [];
    let drawn = 0;
    for (let n = Math.max(1, first); n <= Math.min(last, doc.numPages); n++) {
      const page = await doc.getPage(n);
      const shown: PdfPage = { number: n, text: pageText((await page.getTextContent()).items) };
      if (shown.text === "" && canvas && drawn < maxImages) {
        drawn++;
        // One page that will not draw leaves the text of the others.
        await renderPage(canvas, page).then(
          (image) => (shown.image = image),
          (error) => (shown.undrawn = firstLine(error)),
        );
      }
      pages.push(shown);
      page.cleanup();
    }
    return { pageCount: doc.numPages, pages, canvas: canvas !== undefined };
  } catch (error) {
    throw new MediaError(`the PDF is damaged or incomplete (${firstLine(error)})`);
  } finally {
    await doc.destroy();
  }
}
