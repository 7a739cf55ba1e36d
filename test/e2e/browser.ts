/** Headless Chromium for the browser tests (playwright-core drives the system Chromium; nothing is downloaded). */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';

export const CHROMIUM = process.env['RTSERVE_CHROMIUM'] ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can. */
export function browserSkipReason(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  return `Chromium not found at ${CHROMIUM}: install it (apt-get install chromium; .ci/run does) or set RTSERVE_CHROMIUM`;
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** test-artifacts/ at the repository root (git-ignored): screenshots for people to look at. */
export async function artifactPath(name: string): Promise<string> {
  const dir = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
  await mkdir(dir, { recursive: true });
  return `${dir}${name}`;
}
