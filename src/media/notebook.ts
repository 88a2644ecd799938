/**
 * Jupyter notebooks (nbformat 4) as a model reads them: each cell under a
 * `[cell N · type · id X]` line, its source as numbered lines, then its
 * outputs — text trimmed, images as image content, errors as their
 * traceback's last lines.
 */
import { MediaError } from "./error.js";
import { type ImageContent, prepareImage } from "./image.js";
import type { ImageMime } from "./kind.js";

export type CellType = "code" | "markdown" | "raw";

export interface NotebookCell {
  cell_type: CellType;
  id?: string;
  source: string | string[];
  metadata?: Record<string, unknown>;
  outputs?: NotebookOutput[];
  execution_count?: number | null;
}

export interface NotebookOutput {
  output_type: "stream" | "display_data" | "execute_result" | "error";
  name?: string;
  text?: string | string[];
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
  traceback?: string[];
}

export interface Notebook {
  cells: NotebookCell[];
  metadata?: Record<string, unknown>;
  nbformat: number;
  nbformat_minor?: number;
}

/** Lines of one text output shown; the rest is counted in a notice. */
export const OUTPUT_LINES = 30;
/** Characters of one text output shown. */
export const OUTPUT_CHARS = 4000;
/** Lines of an error's traceback shown (the last ones: where it failed). */
export const TRACEBACK_LINES = 6;

const IMAGE_TYPES: ImageMime[] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/** A notebook's JSON checked for the shape nbformat 4 gives it, or a MediaError saying what is wrong. */
export function parseNotebook(text: string): Notebook {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new MediaError(`the notebook is not valid JSON (${(error as Error).message})`);
  }
  const nb = value as Partial<Notebook>;
  if (typeof value !== "object" || value === null || !Array.isArray(nb.cells)) {
    throw new MediaError("the notebook has no cells array, so it is not an nbformat 4 notebook");
  }
  if (nb.nbformat !== 4) {
    throw new MediaError(
      `the notebook is nbformat ${String(nb.nbformat)}; splice reads nbformat 4 (convert it with: jupyter nbconvert --to notebook)`,
    );
  }
  for (const [i, cell] of nb.cells.entries()) {
    const ok =
      typeof cell === "object" &&
      cell !== null &&
      ["code", "markdown", "raw"].includes((cell as NotebookCell).cell_type) &&
      (typeof cell.source === "string" || Array.isArray(cell.source));
    if (!ok) throw new MediaError(`cell ${i + 1} of the notebook has no valid cell_type or source`);
  }
  return nb as Notebook;
}

export const joined = (text: string | string[] | undefined): string =>
  Array.isArray(text) ? text.join("") : (text ?? "");

/** ANSI colour codes: tracebacks carry them. */
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

/** Text cut to `maxLines` and `maxChars`, with a notice of what was left out. */
function trimmed(text: string, maxLines = OUTPUT_LINES, maxChars = OUTPUT_CHARS): string[] {
  const lines = text.replace(/\n$/, "").split("\n");
  const shown: string[] = [];
  let chars = 0;
  for (const line of lines) {
    if (shown.length >= maxLines || chars + line.length > maxChars) break;
    shown.push(line);
    chars += line.length + 1;
  }
  const left = lines.length - shown.length;
  if (left > 0) shown.push(`[… ${left} more line(s) of output not shown]`);
  return shown;
}

function language(nb: Notebook): string | undefined {
  const meta = nb.metadata as
    | { kernelspec?: { language?: string }; language_info?: { name?: string } }
    | undefined;
  return meta?.language_info?.name ?? meta?.kernelspec?.language;
}

export interface RenderedNotebook {
  /** The header line's tail: "notebook, 4 cells (python)". */
  summary: string;
  /** Everything after the header. */
  body: string;
  cells: number;
  images: ImageContent[];
}

/** The cell's label: `[cell 3 · code · id a1b2]`, with its execution count when it ran. */
export function cellLabel(cell: NotebookCell, index: number): string {
  const parts = [`cell ${index + 1}`, cell.cell_type];
  if (cell.id) parts.push(`id ${cell.id}`);
  if (typeof cell.execution_count === "number") parts.push(`ran [${cell.execution_count}]`);
  return `[${parts.join(" · ")}]`;
}

async function outputLines(output: NotebookOutput, images: ImageContent[]): Promise<string[]> {
  if (output.output_type === "stream") {
    return [`[output · ${output.name ?? "stream"}]`, ...trimmed(joined(output.text))];
  }
  if (output.output_type === "error") {
    const trace = (output.traceback ?? []).join("\n").replace(ANSI, "");
    const last = trace.split("\n").filter((l) => l.trim() !== "");
    const tail = last.slice(-TRACEBACK_LINES);
    const cut =
      last.length > tail.length
        ? [`[… ${last.length - tail.length} traceback line(s) before]`]
        : [];
    return [`[output · error ${output.ename ?? "Error"}: ${output.evalue ?? ""}]`, ...cut, ...tail];
  }
  const data = output.data ?? {};
  const mime = IMAGE_TYPES.find((m) => typeof data[m] === "string" || Array.isArray(data[m]));
  if (mime) {
    const base64 = joined(data[mime] as string | string[]).replace(/\s/g, "");
    try {
      const image = await prepareImage(Buffer.from(base64, "base64"), mime);
      images.push({ type: "image", mime_type: image.mime, data: image.data });
      return [
        `[output · ${mime} ${image.width}×${image.height}: image ${images.length} of this read]`,
      ];
    } catch (error) {
      return [`[output · ${mime}: not shown, ${(error as Error).message}]`];
    }
  }
  const plain = data["text/plain"];
  if (plain !== undefined)
    return [`[output · ${output.output_type}]`, ...trimmed(joined(plain as string))];
  return [`[output · ${Object.keys(data).join(", ") || "empty"}: not shown]`];
}

/** The notebook as text lines and image parts. */
export async function renderNotebook(nb: Notebook): Promise<RenderedNotebook> {
  const images: ImageContent[] = [];
  const lines: string[] = [];
  for (const [i, cell] of nb.cells.entries()) {
    lines.push(cellLabel(cell, i));
    const source = joined(cell.source);
    if (source !== "") {
      for (const [n, line] of source.split("\n").entries()) lines.push(`${n + 1}| ${line}`);
    }
    for (const output of cell.outputs ?? []) lines.push(...(await outputLines(output, images)));
  }
  const lang = language(nb);
  const count = `${nb.cells.length} cell${nb.cells.length === 1 ? "" : "s"}`;
  return {
    summary: `notebook, ${count}${lang ? ` (${lang})` : ""}`,
    body: lines.join("\n"),
    cells: nb.cells.length,
    images,
  };
}
