/**
 * `read` of what is not plain text: images (as image content with a
 * one-line summary), PDFs (their text page by page) and notebooks (cells,
 * sources, outputs). A binary file of another type keeps the refusal, with
 * the type named when it is known.
 */
import type { LoadedFile } from "../../change/load.js";
import { ToolError } from "../../errors.js";
import type { GuardedPath } from "../../guard/path-guard.js";
import { MediaError } from "../../media/error.js";
import { type ImageContent, prepareImage } from "../../media/image.js";
import { type MediaKind, sniffMedia } from "../../media/kind.js";
import { parseNotebook, renderNotebook } from "../../media/notebook.js";
import { canvasInstallCommand, type PdfPage, pdfPages } from "../../media/pdf.js";
import { header } from "../../text/hashline.js";
import { parseRange } from "../../text/range.js";
import { formatBytes } from "../../util/format.js";
import { identify } from "../../util/hash.js";
import type { ToolContext } from "../define.js";
import type { ReadResult } from "./result.js";

/** Pages one PDF read shows; `pages` reads on. */
export const PDF_PAGE_CAP = 30;
/**
 * Pages without text one PDF read draws as images: ten pages at the long
 * edge are some 25k tokens, and a request stays well under Anthropic's 100
 * images (and its 20-image rule for images past 2000 px).
 */
export const PDF_IMAGE_CAP = 10;

type Shown = Pick<ReadResult, "content" | "images" | "media">;

/** A MediaError as the ToolError a model acts on. */
function mediaError(file: GuardedPath, error: unknown, what: string): unknown {
  if (!(error instanceof MediaError)) return error;
  if (error.kind === "needs_addon") {
    return new ToolError("needs_addon", `${file.display}: ${error.reason}.`, {
      path: file.display,
    });
  }
  return new ToolError(
    "corrupt",
    `${file.display} cannot be read: ${error.reason}. Check that the ${what} is complete (re-export or re-download it); splice changed nothing.`,
    { path: file.display },
  );
}

const size = (info: { width: number; height: number }) => `${info.width}×${info.height}`;

async function readImage(
  file: GuardedPath,
  bytes: Uint8Array,
  mime: Parameters<typeof prepareImage>[1],
  tag: string,
): Promise<Shown> {
  const image = await prepareImage(bytes, mime).catch((e) => {
    throw mediaError(file, e, "image");
  });
  const own = image.original ?? image;
  let line = `${header(file.display, tag)} ${mime} ${size(own)}, ${formatBytes(bytes.length)}`;
  if (image.frames) line += `; animated (${image.frames} frames): the first frame is shown`;
  if (image.original && !image.frames) {
    const resized = image.width !== own.width || image.height !== own.height;
    const how = resized ? `downscaled to ${size(image)}` : "re-encoded";
    line += `; shown ${how} (${image.mime}, ${formatBytes(image.bytes)})`;
  }
  return {
    content: line,
    images: [{ type: "image", mime_type: image.mime, data: image.data }],
    media: { type: mime, width: own.width, height: own.height, bytes: bytes.length },
  };
}

function pageRange(pages: string | undefined, display: string): [number, number] {
  if (pages === undefined) return [1, Number.POSITIVE_INFINITY];
  const range = parseRange(pages);
  if (!range || range[0] < 1 || range[1] < range[0]) {
    throw new ToolError(
      "invalid_input",
      `pages ${JSON.stringify(pages)} is not a page range of ${display}; use "start..end" with 1 <= start <= end, e.g. "3..5".`,
    );
  }
  return range;
}

async function readPdf(
  file: GuardedPath,
  bytes: Uint8Array,
  tag: string,
  pages: string | undefined,
): Promise<Shown & { warnings: string[] }> {
  const [first, asked] = pageRange(pages, file.display);
  const last = Math.min(asked, first + PDF_PAGE_CAP - 1);
  const pdf = await pdfPages(bytes, first, last, PDF_IMAGE_CAP).catch((e) => {
    throw mediaError(file, e, "PDF");
  });
  const count = pdf.pageCount;
  const warnings: string[] = [];
  if (first > count) {
    throw new ToolError(
      "invalid_input",
      `pages ${JSON.stringify(pages)} starts past the end: ${file.display} has ${count} page(s). Read "1..${Math.min(count, PDF_PAGE_CAP)}" or less.`,
    );
  }
  const shownTo = pdf.pages.at(-1)?.number ?? first;
  const images: ImageContent[] = [];
  const body = pdf.pages
    .map((p) => {
      if (!p.image) return `[page ${p.number} of ${count}]\n${p.text}`;
      images.push({ type: "image", mime_type: p.image.mime, data: p.image.data });
      return `[page ${p.number} of ${count}]\n[no text layer: drawn as image ${images.length} of this read, ${size(p.image)}]`;
    })
    .join("\n");
  const blank = textless(pdf.pages, pdf.canvas);
  if (blank) warnings.push(blank);
  if (shownTo < Math.min(asked, count)) {
    const next = `${shownTo + 1}..${Math.min(count, shownTo + PDF_PAGE_CAP)}`;
    warnings.push(
      `showing pages ${first}..${shownTo} of ${count} (at most ${PDF_PAGE_CAP} per read); read on with "pages": "${next}"`,
    );
  }
  const line = `${header(file.display, tag)} application/pdf, ${count} page(s), ${formatBytes(bytes.length)}`;
  return {
    content: `${line}\n${body}`,
    ...(images.length > 0 ? { images } : {}),
    media: { type: "application/pdf", pages: count, bytes: bytes.length },
    warnings,
  };
}

/** Page numbers as runs: "page 4", "pages 1..3, 7". */
function pageList(numbers: number[]): string {
  const runs: string[] = [];
  for (let i = 0; i < numbers.length; ) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j]! + 1) j++;
    runs.push(i === j ? `${numbers[i]}` : `${numbers[i]}..${numbers[j]}`);
    i = j + 1;
  }
  return `${numbers.length === 1 ? "page" : "pages"} ${runs.join(", ")}`;
}

/** The notice for pages with no text: which were drawn as images, and how to see the rest. */
function textless(pages: PdfPage[], canvas: boolean): string | undefined {
  const blank = pages.filter((p) => p.text === "");
  if (blank.length === 0) return undefined;
  const numbers = (list: PdfPage[]) => list.map((p) => p.number);
  const verb = blank.length === 1 ? "holds" : "hold";
  let notice = `no text layer: ${pageList(numbers(blank))} ${verb} no text (a scanned or image-only PDF)`;
  if (!canvas) {
    const them = blank.length === 1 ? "it as an image" : "them as images";
    return `${notice}; to see ${them}, add the canvas pdf.js draws pages on: ${canvasInstallCommand()}`;
  }
  const drawn = blank.filter((p) => p.image);
  if (drawn.length > 0) {
    notice += `; ${pageList(numbers(drawn))} shown as image${drawn.length === 1 ? "" : "s"} ${drawn.length === 1 ? "1" : `1..${drawn.length}`} of this read`;
  }
  for (const p of blank.filter((b) => b.undrawn)) {
    notice += `; page ${p.number} could not be drawn (${p.undrawn})`;
  }
  const left = blank.filter((p) => !p.image && !p.undrawn);
  if (left.length > 0) {
    const next = numbers(left.slice(0, PDF_IMAGE_CAP));
    notice += `; ${pageList(numbers(left))} not drawn (at most ${PDF_IMAGE_CAP} images per read): read on with "pages": "${next[0]}..${next.at(-1)}"`;
  }
  return notice;
}

const MEDIA_NAME = /\.(png|jpe?g|gif|webp|pdf)$/i;

/**
 * A file named like an image or a PDF, read once and shown if its bytes are
 * one; undefined sends the read down the text path (which also gives a
 * missing, oversized or special file its error).
 */
export async function readMediaNamed(
  context: ToolContext,
  file: GuardedPath,
  pages: string | undefined,
): Promise<ReadResult | undefined> {
  if (!MEDIA_NAME.test(file.display)) return undefined;
  const stat = await context.workspace.stat(file.real);
  if (stat?.kind !== "file" || stat.size > context.limits.maxFileBytes) return undefined;
  const bytes = await context.workspace.readFile(file.real).catch(() => undefined);
  const kind = bytes && sniffMedia(bytes);
  if (!bytes || !kind || kind.kind === "other") return undefined;
  return showMedia(context, file, bytes, kind, pages);
}

/**
 * A file loadTextFile refused as binary: an image or a PDF is shown, any
 * other type keeps `refusal`, naming the type when its first bytes tell it.
 */
export async function readBinary(
  context: ToolContext,
  file: GuardedPath,
  refusal: ToolError,
  pages: string | undefined,
): Promise<ReadResult> {
  const bytes = await context.workspace.readFile(file.real);
  const kind = sniffMedia(bytes);
  if (!kind) throw refusal;
  if (kind.kind === "other") {
    throw new ToolError(
      "binary",
      `${file.display} is ${kind.name} (${kind.mime}), not a text file; splice shows images (PNG, JPEG, GIF, WebP), PDFs, notebooks and UTF-8 text.`,
      { path: file.display, type: kind.mime },
    );
  }
  return showMedia(context, file, bytes, kind, pages);
}

async function showMedia(
  context: ToolContext,
  file: GuardedPath,
  bytes: Uint8Array,
  kind: Exclude<MediaKind, { kind: "other" }>,
  pages: string | undefined,
): Promise<ReadResult> {
  const { sha, tag } = identify(bytes);
  const shown =
    kind.kind === "image"
      ? { ...(await readImage(file, bytes, kind.mime, tag)), warnings: [] }
      : await readPdf(file, bytes, tag, pages);
  context.history.recordRead(file.rel, bytes, tag, undefined, sha);
  return { path: file.display, file_hash: tag, header: header(file.display, tag), ...shown };
}

/** A notebook read whole: its cells rendered, the tag of the whole file. */
export async function readNotebook(
  context: ToolContext,
  file: GuardedPath,
  loaded: LoadedFile,
): Promise<ReadResult> {
  let rendered: Awaited<ReturnType<typeof renderNotebook>>;
  try {
    rendered = await renderNotebook(parseNotebook(new TextDecoder().decode(loaded.bytes)));
  } catch (error) {
    throw mediaError(file, error, "notebook");
  }
  context.history.recordRead(file.rel, loaded.bytes, loaded.tag, undefined, loaded.sha);
  const top = `${header(file.display, loaded.tag)} ${rendered.summary}`;
  return {
    path: file.display,
    file_hash: loaded.tag,
    header: header(file.display, loaded.tag),
    content: rendered.body ? `${top}\n${rendered.body}` : top,
    ...(rendered.images.length > 0 ? { images: rendered.images } : {}),
    media: { type: "application/x-ipynb+json", cells: rendered.cells },
    warnings: [],
  };
}
