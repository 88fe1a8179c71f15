// Renders the app icons (PNG) from the logo with the system's Chromium: `node web/scripts/make-icons.mjs`.
// The PNGs are committed; run this again only when the logo changes.
import { chromium } from 'playwright-core';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const out = fileURLToPath(new URL('../public/icons/', import.meta.url));
const logo = (padding) => `<!doctype html><html><body style="margin:0;background:#0f1115">
<svg xmlns="http://www.w3.org/2000/svg" viewBox="${-padding} ${-padding} ${64 + 2 * padding} ${64 + 2 * padding}"
 style="display:block;width:100vw;height:100vh">
<rect x="${-padding}" y="${-padding}" width="${64 + 2 * padding}" height="${64 + 2 * padding}" fill="${padding ? '#f5a524' : '#0f1115'}"/>
<rect width="64" height="64" rx="${padding ? 0 : 14}" fill="#f5a524"/>
<path d="M20 14v36M20 32l18-18M24 30l16 20" stroke="#0f1115" stroke-width="7" stroke-linecap="round" fill="none"/></svg>
</body></html>`;

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
for (const [name, size, padding] of [
  ['icon-192.png', 192, 0],
  ['icon-512.png', 512, 0],
  ['icon-maskable-512.png', 512, 12],
]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  await page.setContent(logo(padding));
  await writeFile(`${out}${name}`, await page.screenshot({ type: 'png', omitBackground: false }));
  await page.close();
}
await browser.close();
