/**
 * A copy of splice laid out like a production install: `dist`, `bin` and
 * `package.json` copied under `<base>/pkg`, its node_modules holding only the
 * runtime dependencies (linked from this clone's), so what this clone has as
 * devDependencies (add-ons among them) is not beside it. Returns the copy's folder.
 */
import { cpSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";

export const REPO = join(import.meta.dirname, "../..");

export function stagedInstall(base: string): string {
  const pkg = join(base, "pkg");
  for (const part of ["dist", "bin", "package.json"])
    cpSync(join(REPO, part), join(pkg, part), { recursive: true });
  const { dependencies } = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8"));
  for (const name of Object.keys(dependencies)) {
    const link = join(pkg, "node_modules", name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(REPO, "node_modules", name), link);
  }
  return pkg;
}
