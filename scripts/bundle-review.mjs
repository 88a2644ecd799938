/**
 * Bundles the review page's browser code (review-ui/main.ts, with diff2html,
 * highlight.js and their styles) into dist/review-page/main.js and main.css.
 * src/review/html.ts puts both inline in the page: no CDN, no file served.
 */
import { rmSync } from "node:fs";
import { build } from "esbuild";

const DIST = process.env.SPLICE_DIST ?? "dist";
rmSync(`${DIST}/review-page`, { recursive: true, force: true });
await build({
  entryPoints: ["review-ui/main.ts"],
  outdir: `${DIST}/review-page`,
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "chrome110",
  minify: true,
  legalComments: "none",
  logLevel: "warning",
});
