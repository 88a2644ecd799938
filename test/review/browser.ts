/**
 * A real headless Chromium for the review page's tests: Debian's chromium
 * (CHROMIUM overrides the path) driven by puppeteer-core. Screenshots go to
 * artifacts/ at the repository root (ignored by git), and their paths are
 * printed so a run's log says where to find them.
 */
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import puppeteer, { type Browser, type Page } from "puppeteer-core";

export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";
const ARTIFACTS = join(import.meta.dirname, "../../artifacts");

/** Why the browser tests cannot run here, or undefined when they can (under CI they must). */
export function chromiumMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  const why = `${CHROMIUM} is not installed (Debian's chromium)`;
  if (process.env.CI)
    throw new Error(`${why}, and CI must run the browser tests (.ci/run installs it)`);
  return why;
}

export function launch(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // As root (CI) Chromium needs --no-sandbox; /dev/shm is small in containers.
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,900"],
    defaultViewport: { width: 1400, height: 900 },
  });
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: path as `${string}.png` });
  console.log(`screenshot: ${path}`);
  return path;
}

/** Waits until `fn` (run in the page) is truthy. */
export async function until(page: Page, fn: string, timeout = 15_000): Promise<void> {
  await page.waitForFunction(fn, { timeout, polling: 50 });
}
