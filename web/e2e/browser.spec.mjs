import { describe, expect, it } from '@jest/globals';
import { accessSync, constants } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS } from './support.mjs';
import { chromiumExecutable, npmChromiumAvailable, systemChromium } from './browser.mjs';

describe("the browser suite's Chromium", () => {
  it('is CHROMIUM_PATH as given, else the system one', () => {
    expect(systemChromium({ CHROMIUM_PATH: '/opt/chrome/chrome' }, '/usr/bin/true')).toEqual({
      path: '/opt/chrome/chrome',
      source: 'env',
    });
    expect(systemChromium({}, '/usr/bin/true')).toEqual({ path: '/usr/bin/true', source: 'system' });
    expect(systemChromium({}, '/nonexistent/chromium')).toBeUndefined();
  });

  // `@sparticuz/chromium` ships x64 Linux binaries only; elsewhere `npm test` needs a system one (it says so).
  (npmChromiumAvailable() ? it : it.skip)(
    'without a system one, is the npm-shipped Chromium, which renders a page here',
    async () => {
      const found = await chromiumExecutable({}, '/nonexistent/chromium');
      expect(found.source).toBe('npm');
      accessSync(found.path, constants.X_OK);
      const browser = await chromium.launch({ executablePath: found.path, args: CHROMIUM_ARGS });
      try {
        const page = await browser.newPage({ viewport: { width: 375, height: 640 } });
        await page.setContent('<main><h1>Kora</h1><p id="n"></p><script>n.textContent = 6 * 7</script></main>');
        expect(await page.textContent('#n')).toBe('42');
        expect(await page.evaluate(() => globalThis.document.documentElement.clientWidth)).toBe(375);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
