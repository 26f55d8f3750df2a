// Opens pages of a built gpusheet site in a real Chromium over file:// and
// fails on anything a reader's browser would show as wrong or unsafe.
//
//   node browser-test.mjs SITE_DIR SCREENSHOT_DIR [PAGE...]
//
// PAGE is a path relative to SITE_DIR (default: index.html, offers.html,
// sheets/hostile.html, sheets/seed-7b.html, sheets/context-sweep.html).
// For each page: no console message of type error, no uncaught page error,
// no request whose URL is not a file:// URL inside SITE_DIR, window.__pwned
// never defined, no javascript: link, every <img> loaded (naturalWidth > 0).
// A full-page screenshot of each page goes to SCREENSHOT_DIR/<name>.png.
// The browser is Debian's Chromium ($CHROMIUM, default /usr/bin/chromium).
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [siteArg, shotArg, ...pageArgs] = process.argv.slice(2);
if (!siteArg || !shotArg) {
  console.error('usage: node browser-test.mjs SITE_DIR SCREENSHOT_DIR [PAGE...]');
  process.exit(2);
}
const site = fs.realpathSync(siteArg);
const shots = path.resolve(shotArg);
fs.mkdirSync(shots, { recursive: true });
const pages = pageArgs.length
  ? pageArgs
  : ['index.html', 'offers.html', 'sheets/hostile.html', 'sheets/seed-7b.html', 'sheets/context-sweep.html'];
// Every request must stay inside the site folder.
const sitePrefix = pathToFileURL(site).href.replace(/\/?$/, '/');

const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
const problems = [];

try {
  for (const rel of pages) {
    const file = path.join(site, rel);
    if (!fs.existsSync(file)) {
      problems.push(`${rel}: no such page in the site`);
      continue;
    }
    const url = pathToFileURL(file).href;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const own = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') {
        const loc = msg.location();
        own.push(`console error: ${msg.text()}${loc && loc.url ? ` (${loc.url}:${loc.lineNumber})` : ''}`);
      }
    });
    page.on('pageerror', (err) => own.push(`page error: ${err.message}`));
    page.on('request', (req) => {
      const u = req.url();
      if (!u.startsWith(sitePrefix)) own.push(`request outside the site: ${u}`);
    });
    page.on('requestfailed', (req) => {
      own.push(`request failed: ${req.url()} (${req.failure() ? req.failure().errorText : '?'})`);
    });
    page.on('dialog', async (d) => {
      own.push(`dialog opened: ${d.type()} ${d.message()}`);
      await d.dismiss();
    });

    await page.goto(url, { waitUntil: 'load' });
    // Let late handlers (onerror of a broken image, timers) run.
    await page.waitForTimeout(300);

    const state = await page.evaluate(() => ({
      pwned: typeof window.__pwned !== 'undefined',
      scripts: document.querySelectorAll('script').length,
      handlers: Array.from(document.querySelectorAll('*'))
        .flatMap((el) => Array.from(el.attributes).filter((a) => /^on/i.test(a.name)).map((a) => `<${el.tagName.toLowerCase()} ${a.name}>`)),
      jsLinks: Array.from(document.querySelectorAll('[href], [src]'))
        .map((el) => el.getAttribute('href') || el.getAttribute('src'))
        .filter((v) => /^\s*javascript:/i.test(v)),
      images: Array.from(document.images).map((img) => ({
        src: img.getAttribute('src'),
        complete: img.complete,
        naturalWidth: img.naturalWidth,
      })),
    }));
    if (state.pwned) own.push('window.__pwned is defined: injected script ran');
    if (state.scripts) own.push(`${state.scripts} <script> element(s) in the page`);
    for (const h of state.handlers) own.push(`event handler attribute in the DOM: ${h}`);
    for (const l of state.jsLinks) own.push(`javascript: link in the DOM: ${l}`);
    for (const img of state.images) {
      if (!img.complete || img.naturalWidth <= 0)
        own.push(`image not loaded: ${img.src} (complete=${img.complete}, naturalWidth=${img.naturalWidth})`);
    }
    if (rel.startsWith('sheets/') && state.images.length === 0)
      own.push('no chart image in the sheet');

    const shot = path.join(shots, rel.replace(/[\/\\]/g, '_').replace(/\.html?$/, '') + '.png');
    await page.screenshot({ path: shot, fullPage: true });
    const loaded = state.images.filter((i) => i.complete && i.naturalWidth > 0).length;
    console.log(`${rel}: ${own.length ? own.length + ' problem(s)' : 'ok'}; ` +
      `${loaded}/${state.images.length} images loaded; screenshot ${shot}`);
    for (const p of own) problems.push(`${rel}: ${p}`);
    await context.close();
  }
} finally {
  await browser.close();
}

if (problems.length) {
  for (const p of problems) console.log(`FAIL: ${p}`);
  process.exit(1);
}
console.log(`all ${pages.length} pages ok`);
