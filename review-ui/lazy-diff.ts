/**
 * Diffs drawn by diff2html (side by side or inline, word-level changes) and
 * coloured by highlight.js, a piece at a time: each file's lines are cut into
 * pieces of PIECE_LINES, and only the pieces near the visible window are
 * drawn. A piece that scrolls far away is emptied again (keeping its height),
 * so a 10,000-line diff costs what a screenful costs.
 */
import { parse } from "diff2html";
import type { DiffBlock, DiffFile } from "diff2html/lib-esm/types";
import { Diff2HtmlUI } from "diff2html/lib-esm/ui/js/diff2html-ui-base";
import hljs from "highlight.js/lib/common";

export type Layout = "side-by-side" | "line-by-line";

const PIECE_LINES = 120;
/** A drawn line's height before it is measured (page.css sets the same). */
const LINE_PX = 20;

function pieces(file: DiffFile): DiffFile[] {
  const out: DiffFile[] = [];
  for (const block of file.blocks) {
    for (let i = 0; i < Math.max(1, block.lines.length); i += PIECE_LINES) {
      const part: DiffBlock = { ...block, lines: block.lines.slice(i, i + PIECE_LINES) };
      // Only a block's first piece shows its @@ line.
      if (i > 0) part.header = "";
      out.push({ ...file, blocks: [part] });
    }
  }
  return out;
}

function draw(el: HTMLElement, piece: DiffFile, layout: Layout): void {
  const ui = new Diff2HtmlUI(
    el,
    [piece],
    {
      outputFormat: layout,
      drawFileList: false,
      matching: "words",
      highlight: true,
      synchronisedScroll: false,
      fileListToggle: false,
      fileContentToggle: false,
      stickyFileHeaders: false,
      smartSelection: false,
      colorScheme: "light" as never,
    },
    hljs,
  );
  ui.draw();
}

/** Draws `diff` into `target`, lazily within `scroller`; returns how to stop watching. */
export function renderDiff(
  target: HTMLElement,
  diff: string,
  layout: Layout,
  scroller: HTMLElement,
): () => void {
  const files = parse(diff, { matching: "words" });
  const parts = new Map<Element, { piece: DiffFile; drawn: boolean }>();
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const el = entry.target as HTMLElement;
        const part = parts.get(el);
        if (!part) continue;
        if (entry.isIntersecting && !part.drawn) {
          draw(el, part.piece, layout);
          el.style.height = "";
          part.drawn = true;
        } else if (!entry.isIntersecting && part.drawn) {
          el.style.height = `${el.offsetHeight}px`;
          el.replaceChildren();
          part.drawn = false;
        }
      }
    },
    { root: scroller, rootMargin: "600px 0px" },
  );
  target.replaceChildren();
  if (files.length === 0) {
    const none = document.createElement("p");
    none.className = "muted";
    none.textContent = diff.trim() ? diff.trim() : "No changes.";
    target.append(none);
  }
  for (const file of files) {
    const wrap = document.createElement("div");
    wrap.className = "diff-file";
    for (const piece of pieces(file)) {
      const el = document.createElement("div");
      el.className = "diff-piece";
      const lines = piece.blocks[0]?.lines.length ?? 0;
      el.style.height = `${(lines + 1) * LINE_PX}px`;
      parts.set(el, { piece, drawn: false });
      wrap.append(el);
      observer.observe(el);
    }
    target.append(wrap);
  }
  return () => observer.disconnect();
}
