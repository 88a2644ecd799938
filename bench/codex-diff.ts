/**
 * A `git diff` turned into the patch a Codex model writes for the same
 * change (apply_patch's format): the same hunks with bare `@@` headers, so no
 * line numbers, an Add File with every line for a new file, Delete File, and
 * Move to for a rename. Used by the patch benchmark's Codex runs.
 */

/**
 * The Codex patch, or undefined for a diff it cannot say the same way: a
 * quoted path, a mode-only change, a missing final newline (Codex always
 * ends a file with one).
 */
export function toCodex(diff: string): string | undefined {
  const out = ["*** Begin Patch"];
  for (const section of diff.split(/^diff --git /m).slice(1)) {
    const file = codexFile(section);
    if (file === undefined) return undefined;
    out.push(...file);
  }
  out.push("*** End Patch");
  return `${out.join("\n")}\n`;
}

function codexFile(section: string): string[] | undefined {
  const lines = section.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const header = lines.findIndex((l) => l.startsWith("@@"));
  const meta = header === -1 ? lines : lines.slice(0, header);
  if (meta.some((l) => l.includes('"'))) return undefined;
  const from = meta.find((l) => l.startsWith("--- "))?.slice(4);
  const to = meta.find((l) => l.startsWith("+++ "))?.slice(4);
  const renameFrom = meta.find((l) => l.startsWith("rename from "))?.slice(12);
  const renameTo = meta.find((l) => l.startsWith("rename to "))?.slice(10);
  const oldPath = renameFrom ?? (from && from !== "/dev/null" ? from.slice(2) : undefined);
  const newPath = renameTo ?? (to && to !== "/dev/null" ? to.slice(2) : undefined);
  const body = header === -1 ? [] : lines.slice(header);
  if (body.some((l) => l.startsWith("\\"))) return undefined;
  if (meta.some((l) => l.startsWith("new file mode"))) {
    if (newPath === undefined) return undefined;
    return [`*** Add File: ${newPath}`, ...body.filter((l) => l.startsWith("+"))];
  }
  if (meta.some((l) => l.startsWith("deleted file mode"))) {
    return oldPath === undefined ? undefined : [`*** Delete File: ${oldPath}`];
  }
  if (oldPath === undefined || newPath === undefined) return undefined;
  if (body.length === 0 && oldPath === newPath) return undefined;
  const out = [`*** Update File: ${oldPath}`];
  if (newPath !== oldPath) out.push(`*** Move to: ${newPath}`);
  for (const line of body) out.push(line.startsWith("@@") ? "@@" : line);
  return out;
}
