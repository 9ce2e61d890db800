// What the browser tests share: reading their environment, and Debian's
// Chromium launched through playwright-core with a fresh profile.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

// GUARD bounds each wait: generous for a loaded two-core machine, never
// waited out when things work.
export const GUARD = 60_000;

/** The value of an environment variable the test must set. */
export function env(name) {
  const value = process.env[name];
  assert.ok(value, `${name} is not set`);
  return value;
}

/**
 * Launches Chromium headless on a fresh profile (--user-data-dir, which
 * playwright takes as the persistent context's folder); close() ends it
 * and removes the profile.
 */
export async function launch(name) {
  const profile = mkdtempSync(join(tmpdir(), `${name}-chromium-`));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    // Without these Chromium reaches for Google's hosts, which this network refuses.
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    timeout: GUARD,
  });
  context.setDefaultTimeout(GUARD);
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
