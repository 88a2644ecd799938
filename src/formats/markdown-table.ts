/**
 * Appending a row to a Markdown (GFM) table. When the table's pipes line up
 * on every line, the new cells are padded to the column widths (and the
 * column's alignment); otherwise the row is written plainly, in the
 * table's own pipe style.
 */
import { DocError } from "./errors.js";
import { findSection, type Parsed, type SectionRef } from "./markdown.js";
import type { MdEdit } from "./markdown-edit.js";

/** Cells of a table line, split on pipes that are not escaped, with their raw padding. */
function cells(line: string): { cells: string[]; lead: boolean; trail: boolean } {
  const trimmed = line.trim();
  const lead = trimmed.startsWith("|");
  const trail = trimmed.endsWith("|") && !trimmed.endsWith("\\|");
  const inner = trimmed.slice(lead ? 1 : 0, trail ? -1 : undefined);
  return { cells: inner.split(/(?<!\\)\|/), lead, trail };
}

function pipes(line: string): number[] {
  const at: number[] = [];
  for (let i = 0; i < line.length; i++) if (line[i] === "|" && line[i - 1] !== "\\") at.push(i);
  return at;
}

function align(delimiter: string): "left" | "right" | "center" {
  const d = delimiter.trim();
  if (d.startsWith(":") && d.endsWith(":")) return "center";
  return d.endsWith(":") ? "right" : "left";
}

function pad(text: string, width: number, how: "left" | "right" | "center"): string {
  const room = width - text.length;
  if (room <= 0) return text;
  if (how === "right") return " ".repeat(room) + text;
  if (how === "center") {
    const left = Math.floor(room / 2);
    return " ".repeat(left) + text + " ".repeat(room - left);
  }
  return text + " ".repeat(room);
}

export function tableAppend(
  parsed: Parsed,
  path: SectionRef,
  row: (string | number | boolean)[] | undefined,
  label: string,
): MdEdit {
  const { lines, tokens } = parsed;
  const s = findSection(parsed, path, label);
  if (!row || row.length === 0) {
    throw new DocError(
      "invalid_input",
      "The row to append has no cells.",
      {},
      {
        tool: "md",
        say: (v) => `Give them as ${v.arg("row")}, a list such as \`["left-pad", "1.3.0"]\`.`,
      },
    );
  }
  const table = tokens.find(
    (t) =>
      t.type === "table_open" && t.level === 0 && t.map && t.map[0] >= s.body && t.map[0] < s.end,
  );
  if (!table?.map) {
    throw new DocError(
      "not_found",
      `The section "${s.heading.text}" (line ${s.heading.line + 1}) has no table. Append one to the section first (its header and separator rows), then add rows.`,
    );
  }
  const [start, rawEnd] = table.map;
  let end = rawEnd;
  while (end > start + 2 && lines[end - 1]!.trim() === "") end--;
  const header = cells(lines[start]!);
  const delimiters = cells(lines[start + 1]!).cells;
  const columns = header.cells.length;
  if (row.length > columns) {
    throw new DocError(
      "invalid_input",
      `The table under "${s.heading.text}" has ${columns} columns, but the row has ${row.length} cells. Give at most ${columns}.`,
    );
  }
  const texts = Array.from({ length: columns }, (_, i) =>
    String(row[i] ?? "")
      .replace(/\r?\n/g, " ")
      .replace(/(?<!\\)\|/g, "\\|"),
  );
  const block = lines.slice(start, end);
  const first = pipes(block[0]!);
  const aligned = block.every(
    (l) => l.length === block[0]!.length && pipes(l).join() === first.join(),
  );
  const warnings: string[] = [];
  let line: string;
  if (aligned) {
    const rows = block.filter((_, i) => i !== 1).map((l) => cells(l).cells);
    const out = texts.map((t, i) => {
      const column = rows.map((r) => r[i] ?? "");
      const lead = column.reduce(
        (low, c) => Math.min(low, c.length - c.trimStart().length),
        Infinity,
      );
      const trail = column.reduce(
        (low, c) => Math.min(low, c.length - c.trimEnd().length),
        Infinity,
      );
      const width = header.cells[i]!.length - lead - trail;
      if (t.length > width)
        warnings.push(
          `Cell ${i + 1} is wider than its column; the other rows were left as they are.`,
        );
      return " ".repeat(lead) + pad(t, width, align(delimiters[i] ?? "-")) + " ".repeat(trail);
    });
    line = (header.lead ? "|" : "") + out.join("|") + (header.trail ? "|" : "");
  } else {
    const body = texts.join(" | ");
    line = `${header.lead ? "| " : ""}${body}${header.trail ? " |" : ""}`;
  }
  const indent = /^\s*/.exec(lines[start]!)![0];
  return { lines: [...lines.slice(0, end), indent + line, ...lines.slice(end)], warnings };
}
