/**
 * A PDF's text, page by page, through pdf.js (`pdfjs-dist`, Mozilla's
 * reader). pdf.js is an add-on, not a dependency: with its optional canvas
 * it is some 70 MB, about half of splice's install budget, for a file type
 * most projects never hold. It is found like every add-on (util/addons.ts):
 * beside splice, then in the add-on folder.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { addonDir, findAddon, pinnedVersion } from "../util/addons.js";
import { firstLine, MediaError } from "./error.js";

export const PDF_PACKAGE = "pdfjs-dist";

export interface PdfPage {
  number: number;
  text: string;
}

export interface PdfText {
  pageCount: number;
  pages: PdfPage[];
}

interface PdfJs {
  getDocument(options: Record<string, unknown>): {
    promise: Promise<{
      numPages: number;
      getPage(n: number): Promise<{
        getTextContent(): Promise<{ items: { str?: string; hasEOL?: boolean }[] }>;
        cleanup(): void;
      }>;
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

/** The command that installs pdf.js where splice finds it. */
export function pdfInstallCommand(): string {
  const version = pinnedVersion(PDF_PACKAGE);
  const spec = version ? `${PDF_PACKAGE}@${version}` : PDF_PACKAGE;
  return `npm install --prefix '${addonDir()}' --omit=optional ${spec}`;
}

async function pdfjs(): Promise<PdfJs> {
  const found = findAddon(PDF_PACKAGE);
  if (!found) {
    throw new MediaError(
      `reading a PDF needs pdf.js, an add-on splice does not install by default; install it with: ${pdfInstallCommand()}`,
      "needs_addon",
    );
  }
  // The legacy build is the one that runs on Node 20 without a DOM.
  loaded ??= import(pathToFileURL(join(found.dir, "legacy/build/pdf.mjs")).href) as Promise<PdfJs>;
  return loaded;
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
 * The text of pages `first..last` (clamped to the document), and the page count.
 * `bytes` is copied: pdf.js takes ownership of (detaches) the buffer it is given.
 */
export async function pdfText(bytes: Uint8Array, first: number, last: number): Promise<PdfText> {
  const lib = await pdfjs();
  let doc: Awaited<ReturnType<PdfJs["getDocument"]>["promise"]>;
  try {
    doc = await lib.getDocument({ data: new Uint8Array(bytes), ...PDF_OPTIONS }).promise;
  } catch (error) {
    throw new MediaError(`the PDF is damaged or incomplete (${firstLine(error)})`);
  }
  try {
    const pages: PdfPage[] = [];
    for (let n = Math.max(1, first); n <= Math.min(last, doc.numPages); n++) {
      const page = await doc.getPage(n);
      pages.push({ number: n, text: pageText((await page.getTextContent()).items) });
      page.cleanup();
    }
    return { pageCount: doc.numPages, pages };
  } catch (error) {
    throw new MediaError(`the PDF is damaged or incomplete (${firstLine(error)})`);
  } finally {
    await doc.destroy();
  }
}
