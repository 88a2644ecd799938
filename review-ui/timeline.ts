/**
 * The list of backup sessions, virtualized: rows have one fixed height and
 * only those in (and just around) the visible window exist in the DOM, so
 * 10,000 sessions cost what 30 do. It asks for more as its end comes into view.
 */
import { counts, type Session, toolOf, whoOf } from "./api";

export const ROW_PX = 52;
const SPARE_ROWS = 8;

function when(at: string): string {
  const d = new Date(at);
  return Number.isNaN(d.getTime()) ? at : d.toLocaleString();
}

function state(s: Session): string {
  if (s.undone) return "undone";
  // Undoing it now would be refused: a later change overlaps its lines.
  const conflicts = s.reverts === "conflict" ? "conflicts" : "";
  const own = s.is_undo ? "undo" : s.files.some((f) => f.undone) ? "partly undone" : "";
  return [own, conflicts].filter(Boolean).join(", ");
}

/** Each session's +/- lines, counted once: rows are drawn again on every scroll. */
const counted = new WeakMap<Session, { added: number; removed: number }>();

function totals(s: Session): { added: number; removed: number } {
  let sum = counted.get(s);
  if (!sum) {
    sum = { added: 0, removed: 0 };
    for (const f of s.files) {
      const c = counts(f.diff);
      sum.added += c.added;
      sum.removed += c.removed;
    }
    counted.set(s, sum);
  }
  return sum;
}

function row(s: Session, selected: boolean): HTMLElement {
  const el = document.createElement("div");
  el.className = `row${selected ? " selected" : ""}`;
  el.dataset.id = s.backup_session;
  el.setAttribute("role", "option");
  const { added, removed } = totals(s);
  const top = document.createElement("div");
  top.className = "row-top";
  const time = document.createElement("span");
  time.className = "time";
  time.textContent = when(s.at);
  const tool = document.createElement("span");
  tool.className = "tool";
  tool.textContent = toolOf(s);
  if (s.tool === undefined) tool.title = "read from history's note: an older record names no tool";
  const who = document.createElement("span");
  who.className = "who";
  who.textContent = whoOf(s);
  const plus = document.createElement("span");
  plus.className = "plus";
  plus.textContent = `+${added}`;
  const minus = document.createElement("span");
  minus.className = "minus";
  minus.textContent = `−${removed}`;
  top.append(time, tool, who, plus, minus);
  const mark = state(s);
  if (mark) {
    const badge = document.createElement("span");
    badge.className = `badge ${mark.replace(" ", "-")}`;
    badge.textContent = mark;
    top.append(badge);
  }
  const files = document.createElement("div");
  files.className = "row-files";
  files.textContent = s.files.map((f) => f.path).join(", ") || "(no files you may read)";
  el.append(top, files);
  return el;
}

export class Timeline {
  #items: Session[] = [];
  #selected: string | undefined;
  readonly #spacer = document.createElement("div");
  readonly #rows = document.createElement("div");

  /**
   * `onNearEnd` is told whenever the drawn window reaches the last rows (or
   * they do not fill it): the page loads the next page of sessions then.
   */
  constructor(
    readonly scroller: HTMLElement,
    onPick: (id: string) => void,
    readonly onNearEnd: () => void,
  ) {
    this.#spacer.className = "spacer";
    this.#rows.className = "rows";
    this.#spacer.append(this.#rows);
    scroller.append(this.#spacer);
    scroller.addEventListener("scroll", () => this.#draw(), { passive: true });
    new ResizeObserver(() => this.#draw()).observe(scroller);
    this.#rows.addEventListener("click", (event) => {
      const id = (event.target as HTMLElement).closest<HTMLElement>(".row")?.dataset.id;
      if (id) onPick(id);
    });
  }

  show(items: Session[], selected: string | undefined): void {
    this.#items = items;
    this.#selected = selected;
    this.#spacer.style.height = `${items.length * ROW_PX}px`;
    this.#draw();
  }

  #draw(): void {
    const first = Math.max(0, Math.floor(this.scroller.scrollTop / ROW_PX) - SPARE_ROWS);
    const count = Math.ceil(this.scroller.clientHeight / ROW_PX) + 2 * SPARE_ROWS;
    const shown = this.#items.slice(first, first + count);
    this.#rows.style.transform = `translateY(${first * ROW_PX}px)`;
    this.#rows.replaceChildren(...shown.map((s) => row(s, s.backup_session === this.#selected)));
    if (first + count >= this.#items.length - SPARE_ROWS) this.onNearEnd();
  }
}
