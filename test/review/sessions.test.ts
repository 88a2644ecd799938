/// <reference lib="dom" />
/**
 * The review page on a history of 10,000 real backup sessions (journaled
 * through the history API, on disk, as the tools would have): the list opens
 * on its newest page, loads older pages as the timeline scrolls, keeps only
 * the visible rows in the DOM, and reaches the oldest session. The times to
 * open the list and to scroll to its end are printed, not asserted.
 */
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReviewServer, serveReview } from "../../src/review/server.js";
import { Project } from "../helpers/project.js";
import { journalSessions } from "../helpers/sessions.js";
import { chromiumMissing, launch, screenshot, until } from "./browser.js";

const SESSIONS = 10_000;
const AGENTS = 7;
const BROWSER_MS = 120_000;

const noChromium = chromiumMissing();
if (noChromium) describe.skip(`10,000 sessions in Chromium: skipped, ${noChromium}`, () => {});

describe.skipIf(noChromium)("the review page with 10,000 sessions", () => {
  const project = new Project();
  let ids: string[];
  let server: ReviewServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const t0 = performance.now();
    ids = journalSessions(project.root, SESSIONS, AGENTS);
    console.log(
      `journaled ${SESSIONS} backup sessions in ${(performance.now() - t0).toFixed(0)} ms`,
    );
    server = await serveReview({ root: project.root });
    browser = await launch();
    page = await browser.newPage();
  }, BROWSER_MS);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it(
    "opens on the newest page, loads the rest while scrolling, and keeps the DOM small",
    async () => {
      const t0 = performance.now();
      await page.goto(server.url);
      await page.waitForSelector("#timeline .row");
      const openMs = performance.now() - t0;
      // How much of it was the page itself (its bundle parsed and run), before the list's request.
      const pageMs = await page.evaluate(
        () =>
          (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming)
            .domContentLoadedEventEnd,
      );
      expect(await page.$eval("#timeline .row", (el) => (el as HTMLElement).dataset.id)).toBe(
        ids.at(-1),
      );
      expect(await page.$eval("#count", (el) => el.textContent)).toMatch(
        /^200 of 200 sessions loaded so far/,
      );
      await screenshot(page, "review-10000-sessions");
      const scrollMs = await page.evaluate(async (oldest) => {
        const list = document.querySelector<HTMLElement>("#timeline")!;
        const start = performance.now();
        const last = () =>
          [...list.querySelectorAll<HTMLElement>(".row")].at(-1)?.dataset.id === oldest;
        while (!last()) {
          list.scrollTop = list.scrollHeight;
          await new Promise((r) => requestAnimationFrame(r));
        }
        return performance.now() - start;
      }, ids[0]!);
      expect(await page.$eval("#count", (el) => el.textContent)).toBe("10000 of 10000 sessions");
      expect(
        await page.evaluate("document.querySelectorAll('#timeline .row').length"),
      ).toBeLessThan(100);
      await screenshot(page, "review-10000-sessions-end");
      // A filter covers every loaded session: one agent's share of the 10,000.
      await page.select("#f-session", "mcp-agent-3");
      const share = Math.round(4 * (SESSIONS / AGENTS)) - Math.round(3 * (SESSIONS / AGENTS));
      expect(await page.$eval("#count", (el) => el.textContent)).toBe(`${share} of 10000 sessions`);
      await page.select("#f-session", "");
      // The tool as recorded (an even agent's), and as an older record's note says it (an odd one's).
      const tools = await page.$$eval("#timeline .row", (els) =>
        els.slice(0, 1).map((el) => {
          const tool = el.querySelector<HTMLElement>(".tool")!;
          return {
            who: el.querySelector(".who")?.textContent,
            tool: tool.textContent,
            title: tool.title,
          };
        }),
      );
      expect(tools).toEqual([{ who: "mcp-agent-6", tool: "edit", title: "" }]);
      await page.select("#f-session", "mcp-agent-5");
      const older = await page.$eval("#timeline .row .tool", (el) => ({
        tool: el.textContent,
        title: (el as HTMLElement).title,
      }));
      expect(older.tool).toMatch(/^(edit|write)$/);
      expect(older.title).toMatch(/older record/);
      await page.select("#f-session", "");
      await page.select("#f-tool", "write");
      expect(await page.$eval("#count", (el) => el.textContent)).toMatch(/^\d+ of 10000 sessions$/);
      await page.select("#f-tool", "");
      console.log(
        `review page figures, ${SESSIONS} real sessions: list opened (first page of 200 drawn) in ${openMs.toFixed(0)} ms (the page itself ${pageMs.toFixed(0)} ms of it); ` +
          `scrolled to the oldest (49 more pages loaded) in ${scrollMs.toFixed(0)} ms (not asserted)`,
      );
    },
    BROWSER_MS,
  );

  it(
    "marks an old session undone when an agent undoes it, without reloading the older pages",
    async () => {
      const agent = project.splice({ history: { session: "mcp-undoer" } });
      try {
        const old = ids[100]!;
        // The journaled sessions have no files on disk: restore wholesale, past the revert's refusal.
        await agent.undo({ backup_session: old, all_sessions: true, force: true });
        await until(
          page,
          `document.querySelector("#count").textContent === "10001 of 10001 sessions"`,
        );
        const badge = await page.evaluate(async (id) => {
          const list = document.querySelector<HTMLElement>("#timeline")!;
          // Newest first: the undo on top, then the 10,000 newest first; the row is 100 from the end.
          list.scrollTop = (10_001 - 101) * 52 - 200;
          await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
          return list.querySelector(`.row[data-id="${id}"] .badge`)?.textContent;
        }, old);
        expect(badge).toBe("undone");
        // The undo names its tool and its agent's session.
        const top = await page.evaluate(async () => {
          const list = document.querySelector<HTMLElement>("#timeline")!;
          list.scrollTop = 0;
          await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
          const row = list.querySelector(".row")!;
          return [row.querySelector(".tool")?.textContent, row.querySelector(".who")?.textContent];
        });
        expect(top).toEqual(["undo", "mcp-undoer"]);
        await screenshot(page, "review-10000-sessions-old-undone");
      } finally {
        await agent.close();
      }
    },
    BROWSER_MS,
  );
});
