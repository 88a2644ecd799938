/**
 * The review page's speed targets in a real headless Chromium: opening a
 * 10,000-line diff (every line of a 10,000-line file changed, so 20,000
 * diff lines) and listing 10,000 real backup sessions, each under 1 s.
 * Baselines in the same run: diff2html drawing (and highlight.js colouring)
 * the whole diff at once, and every page of the list fetched and every row
 * put in the DOM at once, which is what the page would do without paging
 * and drawing only the visible window.
 */
import { existsSync } from "node:fs";
import { build } from "esbuild";
import puppeteer, { type Browser } from "puppeteer-core";
import { serveReview } from "../src/review/server.js";
import { createSplice } from "../src/splice.js";
import { journalSessions } from "../test/helpers/sessions.js";
import { defineBenchmark, environment, formatTable, ms, summarize, withScratchDir } from "./lib.js";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const LINES = 10_000;
const SESSIONS = 10_000;
const RUNS = 5;

/** The baselines, bundled from the same packages the page uses. */
async function baselineScript(): Promise<string> {
  const result = await build({
    stdin: {
      contents: `
        import { Diff2HtmlUI } from "diff2html/lib-esm/ui/js/diff2html-ui-base";
        import hljs from "highlight.js/lib/common";
        window.wholeDiff = (target, diff) =>
          new Diff2HtmlUI(target, diff, { outputFormat: "side-by-side", drawFileList: false,
            matching: "words", highlight: true, synchronisedScroll: false, fileListToggle: false,
            fileContentToggle: false, stickyFileHeaders: false, smartSelection: false }, hljs).draw();
        window.wholeList = (target, sessions) => target.replaceChildren(...sessions.map((s) => {
          const row = document.createElement("div");
          row.className = "row";
          row.textContent = s.at + " " + s.note + " " + s.session + " " + s.files.map((f) => f.path).join(", ");
          return row;
        }));`,
      resolveDir: process.cwd(),
    },
    bundle: true,
    write: false,
    format: "iife",
    minify: true,
  });
  return result.outputFiles[0]!.text;
}

const lines = (p: string) =>
  `${Array.from({ length: LINES }, (_, i) => `const v${i} = "${p}${i}";`).join("\n")}\n`;

type Runs = (fn: () => Promise<number>, n?: number) => Promise<ReturnType<typeof summarize>>;

/**
 * A project with 10,000 real backup sessions: the page opened (its newest
 * page of the list drawn) and scrolled to the oldest session (every page
 * loaded on the way), beside fetching every page and drawing every row.
 */
async function listFigures(browser: Browser, runs: Runs) {
  return withScratchDir("splice-bench-review-list-", async (dir) => {
    const ids = journalSessions(dir, SESSIONS, 7);
    const server = await serveReview({ root: dir });
    const page = await browser.newPage();
    try {
      await page.evaluateOnNewDocument("window.__name = (f) => f;");
      const opened = await runs(async () => {
        const t0 = performance.now();
        await page.goto(server.url);
        await page.waitForSelector("#timeline .row");
        return performance.now() - t0;
      });
      const scrolled = await runs(async () => {
        await page.goto(server.url);
        await page.waitForSelector("#timeline .row");
        return page.evaluate(async (oldest) => {
          const list = document.querySelector<HTMLElement>("#timeline")!;
          const t0 = performance.now();
          const last = () =>
            [...list.querySelectorAll<HTMLElement>(".row")].at(-1)?.dataset.id === oldest;
          while (!last()) {
            list.scrollTop = list.scrollHeight;
            await new Promise((r) => requestAnimationFrame(r));
          }
          return performance.now() - t0;
        }, ids[0]!);
      });
      await page.addScriptTag({ content: await baselineScript() });
      const allRows = await runs(() =>
        page.evaluate(async (token) => {
          const t0 = performance.now();
          const all: unknown[] = [];
          let before: string | undefined;
          do {
            const query = `limit=200${before ? `&before=${before}` : ""}`;
            const r = await fetch(`/review/api/sessions?${query}`, {
              headers: { "x-splice-token": token },
            });
            const page = (await r.json()) as { sessions: unknown[]; next?: string };
            all.push(...page.sessions);
            before = page.next;
          } while (before);
          (window as never as { wholeList(t: HTMLElement, s: unknown[]): void }).wholeList(
            document.querySelector("#detail")!,
            all,
          );
          await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
          return performance.now() - t0;
        }, server.token),
      );
      return { opened, scrolled, allRows };
    } finally {
      await page.close();
      await server.close();
    }
  });
}

defineBenchmark({
  name: "review",
  description: `review page in Chromium: a ${LINES}-line diff and ${SESSIONS} sessions, vs drawing everything`,
  async run() {
    if (!existsSync(CHROMIUM)) {
      console.log(`skipped: no Chromium at ${CHROMIUM} (set CHROMIUM)`);
      return;
    }
    await withScratchDir("splice-bench-review-", async (dir) => {
      console.log(environment(dir));
      const agent = createSplice({ root: dir, history: { session: "mcp-bench" } });
      await agent.write({ targets: [{ path: "big.ts", text: lines("a") }] });
      await agent.read({ targets: [{ path: "big.ts" }] });
      await agent.write({ targets: [{ path: "big.ts", text: lines("b") }] });
      const server = await serveReview({ root: dir });
      const browser = await puppeteer.launch({
        executablePath: CHROMIUM,
        headless: true,
        args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        defaultViewport: { width: 1400, height: 900 },
      });
      try {
        const page = await browser.newPage();
        // tsx keeps function names with an __name helper, which the page does not have.
        await page.evaluateOnNewDocument("window.__name = (f) => f;");
        const loadStart = performance.now();
        await page.goto(server.url);
        await page.waitForSelector("#timeline .row");
        const loadMs = performance.now() - loadStart;
        await page.addScriptTag({ content: await baselineScript() });
        const open = async () =>
          page.evaluate(async () => {
            document.querySelector<HTMLElement>("#timeline .row")!.click();
            const t0 = performance.now();
            const drawn = () => document.querySelector("#detail .diff-piece")?.childElementCount;
            while (!drawn()) await new Promise((r) => requestAnimationFrame(r));
            await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
            return performance.now() - t0;
          });
        const whole = async () =>
          page.evaluate(async () => {
            const text = document.body.dataset.bigDiff!;
            const target = document.createElement("div");
            document.querySelector("#detail")!.replaceChildren(target);
            const t0 = performance.now();
            (window as never as { wholeDiff(t: HTMLElement, d: string): void }).wholeDiff(
              target,
              text,
            );
            await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
            return performance.now() - t0;
          });
        // The baseline draws the very diff the page shows: the API's, as the page got it.
        await page.evaluate(async (token) => {
          const r = await fetch("/review/api/sessions", { headers: { "x-splice-token": token } });
          const { sessions } = (await r.json()) as { sessions: { files: { diff: string }[] }[] };
          document.body.dataset.bigDiff = sessions[0]!.files[0]!.diff;
        }, server.token);
        const runs = async (fn: () => Promise<number>, n = RUNS) => {
          const samples: number[] = [];
          for (let i = 0; i < n; i++) samples.push(await fn());
          return summarize(samples);
        };
        const lazy = await runs(open);
        const full = await runs(whole, 2);
        const { opened, scrolled, allRows } = await listFigures(browser, runs);
        const row = (what: string, s: ReturnType<typeof summarize>, base?: number) => [
          what,
          String(s.runs),
          ms(s.median),
          ms(s.p95),
          base === undefined ? "baseline" : `${(s.median / base).toFixed(3)}x`,
        ];
        console.log(`page load with the 20,000-line diff in its list: ${ms(loadMs)} ms\n`);
        console.log(
          formatTable(
            [
              { header: "what (ms)" },
              { header: "runs", right: true },
              { header: "median", right: true },
              { header: "p95", right: true },
              { header: "vs baseline", right: true },
            ],
            [
              row(`${LINES}-line diff: diff2html, whole (baseline)`, full),
              row(`${LINES}-line diff: review page, visible pieces`, lazy, full.median),
              row(
                `${SESSIONS} sessions: every page fetched, every row in the DOM (baseline)`,
                allRows,
              ),
              row(`${SESSIONS} sessions: review page opened (newest page)`, opened, allRows.median),
              row(
                `${SESSIONS} sessions: review page scrolled to the oldest`,
                scrolled,
                allRows.median,
              ),
            ],
          ),
        );
      } finally {
        await browser.close();
        await server.close();
        await agent.close();
      }
    });
  },
});
