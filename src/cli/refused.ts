/**
 * Whether a tool's answer holds a refusal: a batch tool (read, edit, write)
 * answers for every target, and one it could not serve carries an `error`.
 * The command then exits 1 though it printed the others, as `cat` does.
 */
export function refusedParts(json: unknown): number {
  if (typeof json !== "object" || json === null) return 0;
  const { results } = json as { results?: unknown };
  if (!Array.isArray(results)) return 0;
  return results.filter((r) => typeof r === "object" && r !== null && "error" in r && r.error)
    .length;
}
