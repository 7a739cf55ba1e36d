/**
 * The chat page (web/chat, GET /chat) in headless Chromium against a real server with charlm: tokens stream into
 * the page over the WebSocket protocol and over the OpenAI SSE route, greedy answers equal the server's own
 * non-streamed answer, the Stop button cancels a long answer, and chat mode keeps a conversation. Skipped, saying
 * why, when Chromium is absent.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { postJson } from '../../helpers/server.ts';
import { artifactPath, browserSkipReason, launchChromium } from '../../e2e/browser.ts';
import { startCharlmServer } from './charlm-helpers.ts';

const skip = browserSkipReason();
if (skip !== undefined) console.log(`# skipping the chat page tests: ${skip}`);

interface ChatState {
  ready: boolean;
  streaming: boolean;
  pieces: number;
  text: string;
  finishReason: string | undefined;
  completionTokens: number | undefined;
  ttftMs: number | undefined;
  error: string | undefined;
  history: { role: string; content: string }[];
  answers: number;
}

const chatState = (page: Page): Promise<ChatState> =>
  page.evaluate(() => JSON.parse(JSON.stringify((window as unknown as { rtChat: unknown }).rtChat)) as ChatState);

async function waitFor(page: Page, pred: (s: ChatState) => boolean, what: string): Promise<ChatState> {
  for (let i = 0; i < 600; i++) {
    const s = await chatState(page);
    if (pred(s)) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}: ${JSON.stringify(await chatState(page))}`);
}

describe('chat page in headless Chromium', { skip }, () => {
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    ({ server, cleanup } = await startCharlmServer());
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (e) => pageErrors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(m.text());
    });
    const res = await page.goto(`${server.httpUrl}/chat`);
    assert.equal(res?.status(), 200);
    assert.match(res?.headers()['content-security-policy'] ?? '', /default-src 'self'/);
    await waitFor(page, (s) => s.ready, 'the page to load the model list');
  });
  after(async () => {
    await browser?.close();
    await cleanup?.();
  });

  for (const transport of ['ws', 'sse'] as const) {
    test(`a greedy completion streams over ${transport === 'ws' ? 'WebSocket' : 'SSE'} and equals the server's answer`, async () => {
      const prompt = 'def fibonacci(n):\n';
      const expected = await postJson(`${server.httpUrl}/v1/completions`, { model: 'charlm', prompt, max_tokens: 60, temperature: 0 });
      const expectedText = (expected.json() as { choices: { text: string }[] }).choices[0]?.text;
      await page.selectOption('#mode', 'completion');
      await page.selectOption('#transport', transport);
      await page.fill('#temperature', '0');
      await page.fill('#max-tokens', '60');
      await page.fill('#prompt', prompt);
      const before = (await chatState(page)).answers;
      await page.click('#send');
      const s = await waitFor(page, (x) => x.answers > before && !x.streaming, 'the answer to finish');
      assert.equal(s.error, undefined);
      assert.equal(s.text, expectedText);
      assert.ok(s.pieces > 1, `the answer arrived in pieces (${s.pieces})`);
      assert.equal(s.completionTokens, 60);
      assert.equal(s.finishReason, 'length');
      assert.ok(s.ttftMs !== undefined);
      const shown = await page.locator('.turn.assistant pre').last().textContent();
      assert.equal(shown, prompt + expectedText, 'the page shows the prompt and its continuation');
      await page.screenshot({ path: await artifactPath(`chat-${transport}.png`) });
    });
  }

  test('Stop cancels a long answer and frees the server slot', async () => {
    await page.selectOption('#transport', 'ws');
    await page.fill('#temperature', '0.8');
    await page.fill('#max-tokens', '500');
    await page.fill('#prompt', 'class Parser:\n');
    const before = (await chatState(page)).answers;
    await page.click('#send');
    await waitFor(page, (s) => s.pieces >= 3, 'the first pieces');
    await page.click('#stop');
    const s = await waitFor(page, (x) => x.answers > before && !x.streaming, 'the cancelled answer to end');
    assert.ok(s.text.length < 500);
    for (let i = 0; i < 100 && (server.generate.load()[0]?.running ?? 0) > 0; i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(server.generate.load()[0]?.running ?? 0, 0);
  });

  test('chat mode keeps the conversation and streams each answer', async () => {
    await page.click('#clear');
    await page.selectOption('#mode', 'chat');
    await page.selectOption('#transport', 'sse');
    await page.fill('#temperature', '0');
    await page.fill('#max-tokens', '30');
    for (const [i, question] of ['how do I open a file?', 'and close it?'].entries()) {
      const before = (await chatState(page)).answers;
      await page.fill('#prompt', question);
      await page.click('#send');
      const s = await waitFor(page, (x) => x.answers > before && !x.streaming, `answer ${i + 1}`);
      assert.equal(s.error, undefined);
      assert.equal(s.history.length, 2 * (i + 1));
      assert.equal(s.history.at(-2)?.content, question);
    }
    assert.equal(await page.locator('.turn.user').count(), 2);
    assert.equal(await page.locator('.turn.assistant').count(), 2, 'Clear emptied the page; then two answers');
    await page.screenshot({ path: await artifactPath('chat-conversation.png') });
    assert.deepEqual(pageErrors, []);
  });
});
