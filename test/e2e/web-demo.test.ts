/**
 * The live demo end to end in headless Chromium against a real server: the page loads, frames of the animated
 * test scene stream to `shapes` (over the WebSocket frame stream, and over REST /image when asked), the boxes that
 * come back match the scene's known shapes, the stats show results, round trips and drops, and a digit drawn with
 * the mouse is classified. Screenshots go to test-artifacts/. Without Chromium the tests skip, saying why.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { RunningServer } from '../../src/app/rtserve-server.ts';
import { startTestServer } from '../helpers/server.ts';
import { artifactPath, browserSkipReason, launchChromium } from './browser.ts';

const skip = browserSkipReason();
if (skip !== undefined) console.log(`# skipping the browser tests: ${skip}`);

interface DemoSnapshot {
  ready: boolean;
  transport: string | undefined;
  fallbackReason: string | undefined;
  sent: number;
  results: number;
  dropped: number;
  errors: number;
  lastError: string | undefined;
  lastRttMs: number | undefined;
  truthObjects: number;
  matchedObjects: number;
  falsePositives: number;
  lastResult: { detections: { label: string; score: number; box: number[] }[]; truth: { label: string; box: number[] }[] | undefined } | undefined;
  digit: { classes: { label: string; score: number }[] } | undefined;
}

const snapshot = (page: Page): Promise<DemoSnapshot> =>
  page.evaluate(() => JSON.parse(JSON.stringify((window as unknown as { rtDemo: unknown }).rtDemo)) as DemoSnapshot);

describe('web demo in headless Chromium', { skip }, () => {
  let server: RunningServer;
  let browser: Browser;
  before(async () => {
    server = await startTestServer();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  async function open(query: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    await page.goto(`${server.httpUrl}/${query}`);
    await page.waitForFunction(() => (window as unknown as { rtDemo?: { ready: boolean } }).rtDemo?.ready === true, undefined, { timeout: 30_000 });
    return { page, problems };
  }

  async function waitForResults(page: Page, n: number): Promise<DemoSnapshot> {
    await page.waitForFunction((k) => (window as unknown as { rtDemo: { results: number } }).rtDemo.results >= k, n, { timeout: 90_000 });
    return snapshot(page);
  }

  test('frames stream over the WebSocket frame stream and the boxes match the scene', async () => {
    const { page, problems } = await open('?fps=8&seed=2');
    const s = await waitForResults(page, 20);
    assert.equal(s.transport, 'ws', `the page fell back to REST: ${s.fallbackReason}`);
    assert.equal(s.errors, 0, s.lastError);
    assert.ok(s.sent >= s.results + s.dropped, 'every answered or dropped frame was sent');
    assert.ok(s.lastRttMs !== undefined && s.lastRttMs > 0);
    assert.ok(s.truthObjects >= 20 * 4 - 1, `scene 2 has 4 shapes: ${s.truthObjects}`);
    // Moving shapes sometimes overlap and hide each other; most are found in any case.
    const found = s.matchedObjects / s.truthObjects;
    assert.ok(found >= 0.75, `found ${(found * 100).toFixed(1)} % of the shapes`);
    assert.ok(s.falsePositives <= s.results, `${s.falsePositives} extra boxes in ${s.results} frames`);
    // the stats on the page
    assert.match((await page.textContent('#s-transport')) ?? '', /WebSocket/);
    assert.match((await page.textContent('#s-rtt')) ?? '', /^\d+ ms \(mean \d+\)$/);
    assert.match((await page.textContent('#s-dropped')) ?? '', /^\d+$/);
    assert.match((await page.textContent('#s-match')) ?? '', /^\d+\.\d %/);
    await page.screenshot({ path: await artifactPath('web-demo-ws.png') });
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a digit drawn with the mouse is classified as it is drawn', async () => {
    const { page, problems } = await open('?fps=2');
    const pad = await page.locator('#pad').boundingBox();
    assert.ok(pad);
    const draw = async (points: [number, number][]): Promise<void> => {
      await page.click('#clear');
      await page.mouse.move(pad.x + points[0]![0], pad.y + points[0]![1]);
      await page.mouse.down();
      for (let k = 1; k < points.length; k++) {
        const [ax, ay] = points[k - 1]!;
        const [bx, by] = points[k]!;
        for (let t = 1; t <= 8; t++) await page.mouse.move(pad.x + ax + ((bx - ax) * t) / 8, pad.y + ay + ((by - ay) * t) / 8);
      }
      await page.mouse.up();
    };
    const readAs = async (label: string): Promise<void> => {
      await page.waitForFunction((l) => (window as unknown as { rtDemo: DemoSnapshot }).rtDemo.digit?.classes[0]?.label === l, label, {
        timeout: 20_000,
      });
    };
    await draw([
      [140, 40],
      [140, 240],
    ]);
    await readAs('1');
    await draw(
      Array.from(
        { length: 33 },
        (_, i) => [140 + 70 * Math.sin((i / 32) * 2 * Math.PI), 140 - 100 * Math.cos((i / 32) * 2 * Math.PI)] as [number, number],
      ),
    );
    await readAs('0');
    await draw([
      [70, 50],
      [210, 50],
      [120, 240],
    ]);
    await readAs('7');
    const s = await snapshot(page);
    assert.equal(s.digit?.classes.length, 3);
    assert.ok((s.digit?.classes[0]?.score ?? 0) > 0.5);
    assert.equal(await page.locator('#digit-result li').count(), 3);
    await page.screenshot({ path: await artifactPath('web-demo-digit.png') });
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('with transport=rest the frames go to POST /image and still match the scene', async () => {
    const { page, problems } = await open('?transport=rest&fps=8&seed=3');
    const s = await waitForResults(page, 10);
    assert.equal(s.transport, 'rest');
    assert.equal(s.errors, 0, s.lastError);
    assert.ok(s.matchedObjects / s.truthObjects >= 0.75, `found ${s.matchedObjects} of ${s.truthObjects}`);
    assert.match((await page.textContent('#s-transport')) ?? '', /REST/);
    await page.screenshot({ path: await artifactPath('web-demo-rest.png') });
    assert.deepEqual(problems, []);
    await page.close();
  });
});
