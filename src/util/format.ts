/** Numbers as people read them: counts with thousands separators, and byte sizes for sentences and size columns. */

/** A count with thousands separators: 12,345. */
export const count = (n: number): string => n.toLocaleString("en-US");

const UNITS = ["B", "KB", "MB", "GB"];

const MIB = 1024 * 1024;

/**
 * A byte count for a sentence ("512 bytes", "1.5 KiB", "32.0 MiB"); with
 * `column` for a listing's size column ("512 B", "1.5 KB", "12 MB"); with
 * `limit` for a configured bound, exact ("32 MiB", "1000 bytes").
 */
export function formatBytes(
  n: number,
  style: "sentence" | "column" | "limit" = "sentence",
): string {
  if (style === "column") return columnSize(n);
  if (style === "limit") return n % MIB === 0 ? `${n / MIB} MiB` : `${n} bytes`;
  if (n < 1024) return `${n} bytes`;
  if (n < MIB) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / MIB).toFixed(1)} MiB`;
}

function columnSize(bytes: number): string {
  let size = bytes;
  let unit = 0;
  while (size >= 1024 && unit < UNITS.length - 1) {
    size /= 1024;
    unit++;
  }
  return unit === 0 ? `${size} B` : `${size.toFixed(size < 10 ? 1 : 0)} ${UNITS[unit]}`;
}
