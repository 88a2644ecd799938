/**
 * Diffs drawn by diff2html (side by side or inline, word-level changes) and
 * coloured by highlight.js, a piece at a time: each file's lines are cut into
 * pieces of PIECE_LINES, and only the pieces near the visible window are
 * drawn. A piece that scrolls far away is emptied again (keeping its height),
 * so a 10,000-line diff costs what a screenful costs.
 */
import { parse } from "diff2html";
import type { DiffBlock, DiffFile, DiffLine } from "diff2html/lib-esm/types";
import { Diff2HtmlUI } from "diff2html/lib-esm/ui/js/diff2html-ui-base";
import hljs from "highlight.js/lib/common";

export type Layout = "side-by-side" | "line-by-line";

const PIECE_LINES = 120;
/** A drawn line's height before it is measured (page.css sets the same). */
const LINE_PX = 20;

/**
 * A block's lines in runs of the same kind, a change run (its removed lines,
 * then its added ones) split into windows that keep each removed line with
 * the added line beside it, so side by side still pairs them across pieces.
 */
function windows(lines: DiffLine[]): DiffLine[][] {
  const out: DiffLine[][] = [];
  const half = PIECE_LINES / 2;
  for (let i = 0; i < lines.length; ) {
    let j = i;
    if (lines[i]!.type === "context") {
      while (j < lines.length && lines[j]!.type === "context") j++;
      for (let k = i; k < j; k += PIECE_LINES)
        out.push(lines.slice(k, Math.min(j, k + PIECE_LINES)));
    } else {
      while (j < lines.length && lines[j]!.type === "delete") j++;
      const removed = lines.slice(i, j);
      while (j < lines.length && lines[j]!.type === "insert") j++;
      const added = lines.slice(i + removed.length, j);
      for (let k = 0; k < Math.max(removed.length, added.length); k += half) {
        out.push([...removed.slice(k, k + half), ...added.slice(k, k + half)]);
      }
    }
    i = j;
  }
  return out;
}

function pieces(file: DiffFile): DiffFile[] {
  const out: DiffFile[] = [];
  for (const block of file.blocks) {
    // Windows joined up to PIECE_LINES, so short runs share a piece.
    const groups: DiffLine[][] = [[]];
    for (const w of windows(block.lines)) {
      const last = groups[groups.length - 1]!;
      if (last.length > 0 && last.length + w.length > PIECE_LINES) groups.push([...w]);
      else last.push(...w);
    }
    groups.forEach((lines, i) => {
      // Only a block's first piece shows its @@ line.
      const part: DiffBlock = { ...block, lines, header: i === 0 ? block.header : "" };
      out.push({ ...file, blocks: [part] });
    });
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
