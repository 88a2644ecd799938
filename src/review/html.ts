/**
 * The review page's shell: one HTML document with the bundled script and
 * styles inline (dist/review-page/, made by scripts/bundle-review.mjs), so
 * the server serves no files at all and the page works offline.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Built modules (dist/review/, dist/cli-bundle/) sit one folder below dist/;
 * run from src/ (tests), the build's copy is in ../../dist/.
 */
const PLACES = ["../review-page/", "../../dist/review-page/"];

let cached: string | undefined;

function assetDir(): string {
  for (const place of PLACES) {
    const dir = fileURLToPath(new URL(place, import.meta.url));
    if (existsSync(`${dir}main.js`)) return dir;
  }
  throw new Error(
    "The review page's bundle (dist/review-page/main.js) is missing: run npm run build.",
  );
}

/** Closing tags inside the inline code would end the element early; `<\/` means the same there. */
function inline(text: string, tag: "script" | "style"): string {
  return text.replaceAll(`</${tag}`, `<\\/${tag}`);
}

export function reviewPage(): string {
  if (cached !== undefined) return cached;
  const dir = assetDir();
  const js = readFileSync(`${dir}main.js`, "utf8");
  const css = readFileSync(`${dir}main.css`, "utf8");
  cached = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>splice review</title>
<style>${inline(css, "style")}</style>
</head>
<body>
<div id="app"><p class="loading">Loading the history…</p></div>
<script type="module">${inline(js, "script")}</script>
</body>
</html>
`;
  return cached;
}
