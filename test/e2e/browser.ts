/** Headless Chromium for the browser tests (playwright-core drives the system Chromium; nothing is downloaded). */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { assertPresent, skipUnlessPresent } from '../helpers/tools.ts';

export const CHROMIUM = process.env['RTSERVE_CHROMIUM'] ?? '/usr/bin/chromium';

const CHROMIUM_INSTALL = 'apt-get install chromium, or set RTSERVE_CHROMIUM to its path';

/** Why the browser tests cannot run here, or undefined when they can; never a reason under CI=true (they fail). */
export function browserSkipReason(): string | undefined {
  return skipUnlessPresent(existsSync(CHROMIUM), `Chromium (${CHROMIUM})`, CHROMIUM_INSTALL) || undefined;
}

export async function launchChromium(): Promise<Browser> {
  assertPresent(existsSync(CHROMIUM), `Chromium (${CHROMIUM})`, CHROMIUM_INSTALL);
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** test-artifacts/ at the repository root (git-ignored): screenshots for people to look at. */
export async function artifactPath(name: string): Promise<string> {
  const dir = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
  await mkdir(dir, { recursive: true });
  return `${dir}${name}`;
}
