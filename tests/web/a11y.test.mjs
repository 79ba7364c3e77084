// a11y.test.mjs -- every page of pages.js, in both views where it has two
// (play, engineer): every control has a name, one h1, nothing wider than a
// 390 px phone, an axe-core audit with no serious or critical violation,
// and screenshots at 1280 and 390 px, light and dark, in build/web-shots
// (page-<name>[-<view>]-<width>-<scheme>.png), each audited too.

import { before, after } from 'node:test';
import { assert, webTest, startServer, startBrowser, openPage, shoot } from './harness.mjs';
import { PAGES } from '../../web/js/pages.js';

let srv;
let browser;
before(async () => {
  srv = await startServer(['--threads', '2'], 'web-a11y');
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
  await srv?.stop();
});

for (const p of PAGES) {
  for (const mode of p.play ? ['play', 'engineer'] : ['play']) {
    const name = p.play ? `${p.name}-${mode}` : p.name;
    webTest(`the ${name} page: named controls, axe-core, screenshots`, async () => {
      const page = await openPage(browser.ctx, `${srv.base}/#/${p.name}`, { mode });
      await page.waitForLoadState('networkidle');
      const unnamed = await page.evaluate(() =>
        [...document.querySelectorAll('section.page:not([hidden]) :is(input, select, textarea, button, [role=grid])')]
          .filter((el) => el.checkVisibility())
          .filter((el) => {
            const named = (el.labels && el.labels.length) || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
            const text = el.tagName === 'BUTTON' && el.textContent.trim();
            return !named && !text;
          })
          .map((el) => el.outerHTML.slice(0, 80)),
      );
      assert.deepEqual(unnamed, []);
      assert.equal(await page.locator('h1').filter({ visible: true }).count(), 1);
      await shoot(page, `page-${name}`, { audit: true });
      page.assertNoErrors();
    });
  }
}
