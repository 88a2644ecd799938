/** Names as messages and listings show them. */

const ESCAPES: Record<string, string> = { "\0": "\\0", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

/**
 * Text as a message or listing shows a name: control characters escaped, so
 * a name with a line break in it cannot pose as two entries or a header line.
 */
export function escapeControls(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f]/g,
    (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** A one-line list of the targets' paths, shortened after three. */
export function pathList(paths: string[]): string {
  const shown = paths.slice(0, 3).join(", ");
  return paths.length > 3 ? `${shown} and ${paths.length - 3} more` : shown;
}
