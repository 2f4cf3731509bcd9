import { mkdirSync } from "node:fs";
import { join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, type BrowserContext, chromium, type Page, type Route } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, inject } from "vitest";
import { isKeyedWrite } from "../../web/src/api/keyed-writes";

export const origin = inject("origin");
export const SCREENSHOTS = join(import.meta.dirname, "../../test-results");
export const DEMO = { email: "owner@demo.example", password: "demo-password-1" };

let browser: Browser;
const contexts: BrowserContext[] = [];

/** What a page did that the tests forbid: a request to another origin, a CSP violation, an uncaught error. */
interface Misdeeds {
  otherOrigins: string[];
  cspViolations: string[];
  pageErrors: string[];
  consoleErrors: string[];
  /** Writes sent without an Idempotency-Key, and retried writes the server did not replay. */
  unkeyedWrites: string[];
  unreplayedRetries: string[];
  keysSeen: Set<string>;
  /** URLs whose answer was cut off on purpose: Chromium logs each as a console error, which is expected. */
  lostAnswers: Set<string>;
}
const misdeeds = new WeakMap<Page, Misdeeds>();

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      // A camera for the scan field's camera test: a synthetic picture, access granted without a prompt.
      "--use-fake-device-for-media-stream",
      "--use-fake-ui-for-media-stream",
    ],
  });
});

afterEach(async () => {
  for (const context of contexts.splice(0)) {
    // A write the page sent as the test ended may still be inside loseFirstAnswers: its route.fetch would reject
    // once the context is gone, an error of the harness and not of the app.
    await context.unrouteAll({ behavior: "ignoreErrors" });
    await context.close();
  }
});

afterAll(async () => {
  await browser?.close();
});

export interface PageOptions {
  /** A phone-sized viewport (390 x 844, touch) instead of a laptop's. */
  phone?: boolean;
  /** The page's clock is Playwright's, moved by `page.clock` (timers and Date; the server keeps real time). */
  fakeClock?: boolean;
  /**
   * A `BarcodeDetector` for a browser that has none (Chromium on Linux): each look at the camera finds the next
   * of these codes, as a phone's camera would read them.
   */
  cameraCodes?: string[];
  /**
   * Records the scan screens' sound and vibration (`window.signals`: each tone's frequency as it starts, each
   * vibration pattern), read by `signalsOf`. Headless Chromium plays to no speaker; the tones are still made.
   */
  recordSignals?: boolean;
  /** Every answer arrives. By default the first answer of every keyed write is lost (see `loseFirstAnswers`). */
  reliableNetwork?: boolean;
}

/**
 * A network that loses answers (issue #45): the first request of every Idempotency-Key reaches the server, which
 * acts, and then its answer is cut off, so the page sees a network failure. The web app must retry with the same
 * key and get the server's replay; every test's own checks of what happened (stock, orders, counts) then prove
 * that each write acted once. A write without a key, or a retry the server did not replay, is a misdeed.
 */
async function loseFirstAnswers(route: Route, record: Misdeeds, reliable: boolean): Promise<boolean> {
  const request = route.request();
  const { pathname } = new URL(request.url());
  // The app's one list of keyed writes: what it leaves unkeyed on purpose (sign-in, uploads) is never lost here.
  if (!pathname.startsWith("/api/v1/") || !isKeyedWrite(request.method(), pathname)) return false;
  const write = `${request.method()} ${pathname}`;
  const key = await request.headerValue("idempotency-key");
  if (!key) record.unkeyedWrites.push(write);
  if (reliable) {
    await route.continue();
  } else if (!key || !record.keysSeen.has(key)) {
    // Without a key nothing can tell a retry from a new write: every answer is lost, as the page would live it.
    if (key) record.keysSeen.add(key);
    await route.fetch();
    record.lostAnswers.add(request.url());
    await route.abort("connectionreset");
  } else {
    const response = await route.fetch();
    if (response.status() < 500 && response.headers()["idempotent-replayed"] !== "true")
      record.unreplayedRetries.push(`${write} answered ${response.status()}, not replayed`);
    await route.fulfill({ response });
  }
  return true;
}

/**
 * A fresh browser context (no storage shared with other tests) and page. Every request to another origin is
 * aborted and recorded, as are CSP violations and uncaught errors; `expectWellBehaved` asserts there were none.
 */
export async function openPage(path = "/app/", options: PageOptions = {}): Promise<Page> {
  const context = await browser.newContext({
    baseURL: origin,
    viewport: options.phone ? { width: 390, height: 844 } : { width: 1366, height: 800 },
    isMobile: options.phone ?? false,
    hasTouch: options.phone ?? false,
    permissions: ["clipboard-read", "clipboard-write"],
  });
  contexts.push(context);
  // A page's load event (the API reference's 3 MB document and script) takes over 30 s on a loaded machine.
  context.setDefaultNavigationTimeout(90_000);
  const page = await context.newPage();
  const record: Misdeeds = {
    otherOrigins: [],
    cspViolations: [],
    pageErrors: [],
    consoleErrors: [],
    unkeyedWrites: [],
    unreplayedRetries: [],
    keysSeen: new Set(),
    lostAnswers: new Set(),
  };
  misdeeds.set(page, record);
  await context.route("**/*", async (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin) {
      if (await loseFirstAnswers(route, record, options.reliableNetwork ?? false)) return;
      return route.continue();
    }
    if (url.startsWith("data:") || url.startsWith("blob:")) return route.continue();
    record.otherOrigins.push(url);
    return route.abort("blockedbyclient");
  });
  page.on("console", (message) => {
    if (/Content[- ]Security[- ]Policy|Trusted Type/i.test(message.text()))
      record.cspViolations.push(message.text());
    const lost =
      record.lostAnswers.has(message.location().url) && /net::ERR_CONNECTION_RESET/.test(message.text());
    if (message.type() === "error" && !lost)
      record.consoleErrors.push(`${message.text()} ${message.location().url}`);
  });
  page.on("pageerror", (error) => record.pageErrors.push(String(error)));
  if (options.fakeClock) await page.clock.install();
  if (options.cameraCodes) {
    await context.addInitScript((codes: string[]) => {
      Object.assign(window, {
        BarcodeDetector: class {
          async detect() {
            const rawValue = codes.shift();
            return rawValue ? [{ rawValue }] : [];
          }
        },
      });
    }, options.cameraCodes);
  }
  if (options.recordSignals) {
    await context.addInitScript(() => {
      const signals: { tones: number[]; vibrations: number[][] } = { tones: [], vibrations: [] };
      Object.assign(window, { signals });
      const start = OscillatorNode.prototype.start;
      OscillatorNode.prototype.start = function (this: OscillatorNode, ...args: [number?]) {
        signals.tones.push(this.frequency.value);
        return start.apply(this, args);
      };
      Object.assign(navigator, {
        vibrate: (pattern: number | Iterable<number>) => {
          signals.vibrations.push(typeof pattern === "number" ? [pattern] : [...pattern]);
          return true;
        },
      });
    });
  }
  await page.goto(path);
  return page;
}

/** The tones and vibrations a page made so far (`recordSignals`), and forgets them. */
export function signalsOf(page: Page): Promise<{ tones: number[]; vibrations: number[][] }> {
  return page.evaluate(() => {
    const { signals } = window as unknown as { signals: { tones: number[]; vibrations: number[][] } };
    const taken = { tones: signals.tones.splice(0), vibrations: signals.vibrations.splice(0) };
    return taken;
  });
}

/**
 * Waits until every scan stored on the device reached the server (the floor screens store each scan first and
 * send it after, so the server is read only then): none waits in the device's queue (IndexedDB, read as the app
 * reads it: a page still starting shows no badge yet, though its scans wait), and the top bar's badge is gone.
 */
export async function allScansSent(page: Page) {
  const waiting = () =>
    page.evaluate(async () => {
      // Opening a database that does not exist would create it empty, without the app's stores.
      if (!(await indexedDB.databases()).some((d) => d.name === "wms-floor")) return 0;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open("wms-floor");
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const writes = await new Promise<{ refusal?: unknown }[]>((resolve, reject) => {
        const all = db.transaction("writes").objectStore("writes").getAll();
        all.onsuccess = () => resolve(all.result);
        all.onerror = () => reject(all.error);
      });
      db.close();
      return writes.filter((w) => !w.refusal).length;
    });
  await expect.poll(waiting, { timeout: 120_000 }).toBe(0);
  await expect.poll(() => page.locator(".waiting-badge").count(), { timeout: 120_000 }).toBe(0);
}

/**
 * A keyboard-wedge scanner: the code's characters typed into whatever has the focus, then Enter, without
 * waiting for the screen (a scanner does not). The scan screens must have their field focused for this to land.
 */
export async function wedge(page: Page, code: string) {
  await page.keyboard.type(code);
  await page.keyboard.press("Enter");
}

/**
 * `expectWellBehaved`, and not one console error either. (Chromium logs every 4xx answer as one, so tests that
 * provoke a refusal on purpose use `expectWellBehaved` alone.)
 */
export function expectSpotless(page: Page) {
  expectWellBehaved(page);
  expect(misdeeds.get(page)?.consoleErrors, "console errors").toEqual([]);
}

export function expectWellBehaved(page: Page) {
  const record = misdeeds.get(page);
  expect(record?.otherOrigins, "requests to other origins").toEqual([]);
  expect(record?.cspViolations, "Content-Security-Policy violations").toEqual([]);
  expect(record?.pageErrors, "uncaught errors").toEqual([]);
  expect(record?.unkeyedWrites, "writes without an Idempotency-Key").toEqual([]);
  expect(record?.unreplayedRetries, "retried writes the server did not replay").toEqual([]);
}

/** A screenshot under test-results/ for a reviewer to look at (the whole page unless `fullPage: false`). */
export async function screenshot(page: Page, name: string, { fullPage = true } = {}) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage });
}

/** Signs in through the form, as a person would. */
export async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * At phone size: nothing scrolls sideways (the page is no wider than the screen) and every visible button, field
 * and menu link is a touch target at least 44 px high. The offenders are listed in the failure.
 */
export async function expectFitsPhone(page: Page, where: string) {
  const found = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const problems: string[] = [];
    if (document.documentElement.scrollWidth > width)
      problems.push(`page is ${document.documentElement.scrollWidth} px wide on a ${width} px screen`);
    // Every link counts, inline ones in text and tables too (they were 19 px high, issue #45).
    const targets = document.querySelectorAll<HTMLElement>(
      "button, input:not([type=checkbox]):not([type=radio]), select, a[href]",
    );
    for (const target of targets) {
      const box = target.getBoundingClientRect();
      const hidden = target.closest(".visually-hidden, .skip-link");
      if (box.width === 0 || box.height === 0 || hidden) continue;
      const name = `${target.tagName.toLowerCase()} "${(target.textContent || target.getAttribute("aria-label") || target.getAttribute("name") || "").trim()}"`;
      if (box.height < 44) problems.push(`${name} is ${Math.round(box.height)} px high`);
      if (box.right > width + 1) problems.push(`${name} ends at ${Math.round(box.right)} px, off the screen`);
    }
    return problems;
  });
  expect(found, where).toEqual([]);
}

/** axe-core's WCAG 2.1 A and AA rules on the page as it is now: any finding fails, each node named. */
export async function expectAccessible(page: Page, where: string) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  const found = violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join("; ")})`,
  );
  expect(found, where).toEqual([]);
}

/** On a laptop the header is one row: its brand, menu groups and session controls share one line. */
export async function expectHeaderOneRow(page: Page, where: string) {
  const rows = await page.evaluate(() => {
    const header = document.querySelector(".topbar");
    const items = header?.querySelectorAll<HTMLElement>(
      ".brand, .main-nav a, .main-nav button, .tenant-name, select",
    );
    const tops = [...(items ?? [])]
      .filter((item) => item.offsetParent !== null && !item.closest(".nav-links"))
      .map((item) => {
        const box = item.getBoundingClientRect();
        return Math.round(box.top + box.height / 2);
      });
    return { centres: [...new Set(tops)], height: Math.round(header?.getBoundingClientRect().height ?? 0) };
  });
  const spread = Math.max(...rows.centres) - Math.min(...rows.centres);
  expect(spread, `${where}: header items centred ${rows.centres.join(", ")} px from the top`).toBeLessThan(8);
  expect(rows.height, `${where}: header height`).toBeLessThan(70);
}

/**
 * Goes to a page through the main menu, as a person would: on a laptop the group's button then its link, on a
 * phone the Menu button then the link.
 */
export async function openFromMenu(page: Page, group: string, link: string) {
  const nav = page.getByRole("navigation", { name: "Main" });
  if ((page.viewportSize()?.width ?? 1366) <= 760) await page.getByRole("button", { name: "Menu" }).click();
  else await nav.getByRole("button", { name: group, exact: true }).click();
  await nav.getByRole("link", { name: link, exact: true }).click();
}
