/**
 * Files that went away while ripgrep searched: a file deleted (or a folder
 * replaced) between rg's listing and its open is reported on stderr and
 * turns rg's exit code into 2. Such a file was simply not there to search,
 * so its lines are dropped rather than shown as a fault.
 */

/** ENOENT and ENOTDIR as rg prints them: `rg: PATH: … (os error 2)`. */
const VANISHED = /\((?:os error 2|os error 20)\)\s*$/;

/** rg's stderr without the lines about files that vanished, and how many there were. */
export function withoutVanished(stderr: string): { stderr: string; vanished: number } {
  const lines = stderr.split("\n").filter((l) => l.trim() !== "");
  const kept = lines.filter((l) => !VANISHED.test(l));
  return { stderr: kept.join("\n"), vanished: lines.length - kept.length };
}
