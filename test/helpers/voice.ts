/**
 * What a model reads and a person should not: JSON arguments (`{"action": …}`),
 * a tool called by name (`Call undo with`, `the ast_edit tool`), snake_case
 * argument names (`timeout_ms`). Each finding names the words. What is quoted
 * in backticks is literal text a person types or a file holds (a command, a
 * config file's JSON), not a tool's argument.
 */
export function modelWords(said: string): string[] {
  const found: string[] = [];
  const text = said.replace(/`[^`\n]*`/g, "`…`");
  for (const m of text.matchAll(/\{"\w+": [^}]*\}?|"\w+": (?:true|false|\d+|")/g)) found.push(m[0]);
  for (const m of text.matchAll(/\b[Cc]all [a-z_]+ with\b|\bthe [a-z_]+ tool\b/g)) found.push(m[0]);
  // snake_case outside paths and error codes (`error [invalid_input]`): `timeout_ms`, `old_text`.
  for (const m of text.matchAll(/(?<![\w./[-])[a-z]+_[a-z_]+\b(?![\w./\]])/g)) found.push(m[0]);
  return found;
}
