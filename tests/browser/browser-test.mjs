// Opens pages of a built gpusheet site in a real Chromium over file:// and
// fails on anything a reader's browser would show as wrong or unsafe.
//
//   node browser-test.mjs SITE_DIR SCREENSHOT_DIR [PAGE...]
//
// PAGE is a path relative to SITE_DIR (default: index.html, offers.html,
// gpus/rtx-4090.html, sheets/hostile.html, sheets/seed-7b.html,
// sheets/context-sweep.html).
// Each page is opened at 1280 x 800 and 390 x 844 px, in light and dark
// colour schemes. Each time: no console message of type error, no uncaught page
// error, no request whose URL is not a file:// URL inside SITE_DIR,
// window.__pwned never defined, no inline script and no script from outside
// the site, no javascript: link, every <img> loaded (naturalWidth > 0), the
// page itself never scrolls sideways, and axe-core (injected through the
// DevTools protocol, not the page) finds no WCAG 2.1 A or AA violation.
// A full-page screenshot of each goes to SCREENSHOT_DIR/<name>-<width>-<scheme>.png.
// The matrix's groups are by memory per lot and its columns lots of a GPU
// model, each head linking its GPU page (gpus/).
// On a page with the matrix (#matrix): the header row and the first column
// stay in view when its box is scrolled; matrix.js sorts (by id, both ways;
// by an offer's class, then its price per hour or its cost of a million
// tokens at the bound) and filters (decision, text, minimum memory) the
// visible rows as the data says; with scripts disabled every row is shown.
// The offers page has its charts (SVG), each followed by its data table
// with units in the headers; the matrix has two header rows (groups of
// offers by memory per card, then the offers), both in view when scrolled.
// At 1280 px light, printing hides navigation and filters and clips or
// sticks nothing, and Tab from the top reaches every link and control; at
// 1280 px, chart text is at least 11 px as drawn.
// The browser is Debian's Chromium ($CHROMIUM, default /usr/bin/chromium).
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const axeSource = fs.readFileSync(path.join(here, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
// A laptop's first screen (1280 x 800) and a phone's (390 x 844).
const views = [
  { width: 1280, height: 800, scheme: 'light' }, { width: 1280, height: 800, scheme: 'dark' },
  { width: 390, height: 844, scheme: 'light' }, { width: 390, height: 844, scheme: 'dark' },
];

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
  : ['index.html', 'offers.html', 'gpus/rtx-4090.html', 'sheets/hostile.html', 'sheets/seed-7b.html', 'sheets/context-sweep.html'];
// Every request must stay inside the site folder.
const sitePrefix = pathToFileURL(site).href.replace(/\/?$/, '/');

// Print: navigation and filters hidden, nothing sticky or clipped in a
// scrolling box, every workload row of a matrix printed.
async function printChecks(page, own) {
  await page.emulateMedia({ media: 'print' });
  const r = await page.evaluate(() => {
    const all = Array.from(document.querySelectorAll('body *'));
    return {
      shownNav: Array.from(document.querySelectorAll('nav, .filters, .pager')).filter((e) => getComputedStyle(e).display !== 'none').length,
      sticky: all.filter((e) => getComputedStyle(e).position === 'sticky').length,
      clipped: all.filter((e) => /auto|scroll|hidden/.test(getComputedStyle(e).overflowX) && e.scrollHeight > e.clientHeight + 1).length,
      rows: Array.from(document.querySelectorAll('#matrix tbody tr')).filter((tr) => tr.offsetParent === null).length,
    };
  });
  if (r.shownNav) own.push(`print: ${r.shownNav} navigation or filter element(s) printed`);
  if (r.sticky) own.push(`print: ${r.sticky} sticky element(s)`);
  if (r.clipped) own.push(`print: ${r.clipped} box(es) clip their content vertically`);
  if (r.rows) own.push(`print: ${r.rows} matrix row(s) not printed`);
  await page.emulateMedia({ media: 'screen' });
}

// The first screen answers, and no table hides its first two columns:
// on a sheet, the answer sentence (the first paragraph outside the synthetic
// warning) and its price ("/h" or "no offer") lie inside the first viewport,
// without scrolling; on the index, the first workload's offer to take with
// its price per hour (inside the first screen at 1280 x 800), and never
// "Total cost: missing". On the index and a GPU page (gpus/), the first
// table's header and the first price per hour of its rows end inside the
// first viewport, at 1280 x 800 and 390 x 844. In every table, at
// its box's scroll 0, the first two cells of each row (of each body row in
// a matrix) lie inside the box (a table wider than the screen scrolls
// inside its box, its first column sticky), and the box inside the window.
async function firstScreenChecks(page, rel, tag, own) {
  const r = await page.evaluate(() => {
    const h = window.innerHeight, w = window.innerWidth;
    const out = { answer: null, price: null, best: null, missing: document.body.innerText.includes('Total cost: missing'), clipped: [] };
    const ps = Array.from(document.querySelectorAll('body p')).filter((p) => !p.closest('blockquote, nav, .filters, .pager, td, th'));
    const ans = ps.find((p) => p.firstElementChild && p.firstElementChild.tagName === 'STRONG' && /:$/.test(p.firstElementChild.textContent.trim()));
    if (ans) {
      out.answer = ans.getBoundingClientRect().top;
      const walker = document.createTreeWalker(ans, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const i = n.data.search(/\/h|no offer|ninguna oferta/);
        if (i < 0) continue;
        const range = document.createRange();
        range.setStart(n, i);
        range.setEnd(n, Math.min(n.data.length, i + 2));
        out.price = range.getBoundingClientRect().bottom;
        break;
      }
    }
    const best = document.querySelector('#matrix td.best');
    if (best) out.best = { top: best.getBoundingClientRect().top, hour: /\/h/.test(best.textContent) };
    // The first table of the page (the index's matrix, a GPU page's offers):
    // where its header ends, and where the first price per hour of its
    // first row with one ends.
    const first = document.querySelector('main table');
    if (first && first.tHead && first.tBodies.length) {
      out.first = { head: first.tHead.getBoundingClientRect().bottom, price: null };
      for (const tr of first.tBodies[0].rows) {
        const walker = document.createTreeWalker(tr, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n && out.first.price === null; n = walker.nextNode()) {
          const i = n.data.search(/\/h/);
          if (i < 0) continue;
          const range = document.createRange();
          range.setStart(n, i);
          range.setEnd(n, i + 2);
          out.first.price = range.getBoundingClientRect().bottom;
        }
        if (out.first.price !== null) break;
      }
    }
    for (const t of document.querySelectorAll('table')) {
      // a matrix scrolls inside its box: its body rows' first two cells
      // (the workload and the offer to take) must lie inside that box
      const inBox = t.closest('.matrix-box');
      const box = (inBox || t).getBoundingClientRect();
      if (box.right > w + 1) out.clipped.push(`table "${(t.caption ? t.caption.textContent : '').slice(0, 40)}" is wider than the window`);
      for (const tr of inBox ? Array.from(t.tBodies).flatMap((b) => Array.from(b.rows)) : t.rows) {
        for (const cell of Array.from(tr.cells).slice(0, 2)) {
          const c = cell.getBoundingClientRect();
          if (c.right > box.right + 1 || c.left < box.left - 1) {
            out.clipped.push(`table "${(t.caption ? t.caption.textContent : '').slice(0, 40)}": cell "${cell.textContent.slice(0, 30)}" clipped`);
            break;
          }
        }
      }
    }
    out.height = h;
    return out;
  });
  if (r.missing) own.push(`"Total cost: missing" on the page at ${tag}`);
  for (const c of r.clipped.slice(0, 5)) own.push(`${tag}: ${c}`);
  if (rel.startsWith('sheets/')) {
    if (r.answer === null) own.push('no answer sentence');
    else if (r.answer >= r.height) own.push(`the answer starts at ${Math.round(r.answer)} px, below the first screen (${r.height} px) at ${tag}`);
    if (r.price === null) own.push('the answer gives no price per hour nor says there is no offer');
    else if (r.price > r.height) own.push(`the answer's price ends at ${Math.round(r.price)} px, below the first screen (${r.height} px) at ${tag}`);
  }
  if ((rel === 'index.html' || rel.startsWith('gpus/')) && r.first) {
    if (r.first.head > r.height) own.push(`the table's header ends at ${Math.round(r.first.head)} px, below the first screen (${r.height} px) at ${tag}`);
    if (r.first.price === null) own.push('the first table has no price per hour');
    else if (r.first.price > r.height) own.push(`the first price per hour ends at ${Math.round(r.first.price)} px, below the first screen (${r.height} px) at ${tag}`);
  } else if (rel === 'index.html' || rel.startsWith('gpus/')) {
    own.push('no table with a header and a body');
  }
  if (rel === 'index.html' && r.best) {
    if (!r.best.hour) own.push('the offer to take gives no price per hour');
    // (at 390 px the matrix's header rows alone fill most of the screen)
    if (r.best.top >= r.height && tag.startsWith('1280')) own.push(`the first offer to take starts at ${Math.round(r.best.top)} px, below the first screen at ${tag}`);
  }
}

// Keyboard: Tab from the top reaches every link, button, field and focusable
// box of the page, in at most as many presses as there are of them (+ slack).
async function keyboardChecks(page, own) {
  const want = await page.evaluate(() => {
    const els = Array.from(document.querySelectorAll('a[href], button, input, select, [tabindex="0"]'))
      .filter((el) => el.offsetParent !== null || el === document.body);
    els.forEach((el, i) => { el.dataset.kbd = String(i); });
    return els.length;
  });
  const seen = new Set();
  await page.evaluate(() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); });
  for (let i = 0; i < want + 5 && seen.size < want; i++) {
    await page.keyboard.press('Tab');
    const k = await page.evaluate(() => (document.activeElement ? document.activeElement.dataset.kbd : undefined));
    if (k !== undefined) seen.add(k);
  }
  if (seen.size !== want) own.push(`keyboard: Tab reached ${seen.size} of ${want} links and controls`);
}

// The matrix: sticky header and first column, sorting and filters (matrix.js).
async function matrixChecks(page, own) {
  await page.setViewportSize({ width: 1280, height: 500 });
  const sticky = await page.evaluate(() => {
    const box = document.querySelector('.matrix-box');
    box.scrollTop = box.scrollHeight;
    box.scrollLeft = box.scrollWidth;
    const b = box.getBoundingClientRect();
    // Two header rows: the groups of offers by memory per card, then the offers.
    const th = document.querySelector('#matrix thead tr:first-child th:nth-child(3)').getBoundingClientRect();
    const offer = document.querySelector('#matrix thead tr:last-child th').getBoundingClientRect();
    const first = document.querySelector('#matrix tbody tr:last-child th').getBoundingClientRect();
    const r = {
      scrolledDown: box.scrollTop > 0, scrolledRight: box.scrollLeft > 0,
      headTop: th.top - b.top, firstLeft: first.left - b.left,
      rows: document.querySelectorAll('#matrix thead tr').length,
      offerTop: offer.top - th.bottom,
      groups: document.querySelectorAll('#matrix thead th[scope="colgroup"]').length,
    };
    box.scrollTop = 0;
    box.scrollLeft = 0;
    return r;
  });
  if (!sticky.scrolledDown) own.push('matrix: its box does not scroll down at 1280 x 500');
  else if (Math.abs(sticky.headTop) > 2) own.push(`matrix: header row not in view after scrolling (${sticky.headTop} px from the box top)`);
  if (sticky.rows !== 2 || !sticky.groups) own.push(`matrix: ${sticky.rows} header rows and ${sticky.groups} groups of offers by memory (want 2 rows, groups)`);
  else if (Math.abs(sticky.offerTop) > 2) own.push(`matrix: the offers' header row is ${sticky.offerTop} px from the groups' row after scrolling`);
  if (!sticky.scrolledRight) own.push('matrix: its box does not scroll sideways at 1280 px');
  else if (Math.abs(sticky.firstLeft) > 2) own.push(`matrix: first column not in view after scrolling (${sticky.firstLeft} px from the box left)`);
  await page.setViewportSize({ width: 1280, height: 900 });

  const ids = () => page.$$eval('#matrix tbody tr', (rs) => rs.filter((r) => !r.hidden).map((r) => r.dataset.id));
  const all = await page.$$eval('#matrix tbody tr', (rs) => rs.map((r) => ({ id: r.dataset.id, d: r.dataset.decision, text: r.cells[0].textContent.toLowerCase() })));
  const sorted = all.map((r) => r.id).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const sortButtons = await page.$$('#matrix thead button.sort');
  if (sortButtons.length < 3) { own.push(`matrix: ${sortButtons.length} sort buttons (matrix.js did not run)`); return; }
  await sortButtons[0].click();
  let got = await ids();
  if (got.join() !== sorted.join()) own.push(`matrix: sorting by workload gave ${got.join()}`);
  await sortButtons[0].click();
  got = await ids();
  if (got.join() !== sorted.slice().reverse().join()) own.push(`matrix: sorting by workload again did not reverse: ${got.join()}`);
  await sortButtons[2].click();
  const verdicts = await page.$$eval('#matrix tbody tr', (rs) => rs.map((r) => Number((/\bv([0-3])\b/.exec(r.cells[2].className) || [0, 3])[1])));
  if (verdicts.some((v, i) => i && v < verdicts[i - 1])) own.push(`matrix: sorting by the first offer gave verdicts ${verdicts.join()}`);
  // Within a class, by the cost of a million tokens at the bound (data-mtok, unknown last):
  // the offer to take's column, then back to the price per hour.
  await page.selectOption('#sort-order', 'mtok');
  await sortButtons[1].click();
  const bymtok = await page.$$eval('#matrix tbody tr', (rs) => rs.map((r) => {
    const c = r.cells[1].dataset;
    const k = c.c === undefined ? 6 : Number(c.c) === 6 ? 7 : Number(c.c);
    return [k, c.mtok === undefined ? Infinity : Number(c.mtok)];
  }));
  if (bymtok.some((v, i) => i && (v[0] < bymtok[i - 1][0] || (v[0] === bymtok[i - 1][0] && v[1] < bymtok[i - 1][1]))))
    own.push(`matrix: sorting the offer to take by class, then cost per million tokens gave ${bymtok.map((v) => v.join(':')).join()}`);
  await page.selectOption('#sort-order', 'hour');

  for (const d of ['0', '1', '2']) {
    await page.selectOption('#filter-decision', d);
    got = await ids();
    const want = all.filter((r) => r.d === d).map((r) => r.id).sort();
    if (got.slice().sort().join() !== want.join()) own.push(`matrix: decision filter ${d} shows ${got.join()} (want ${want.join()})`);
  }
  await page.selectOption('#filter-decision', '');
  const q = all[all.length - 1].id;
  await page.fill('#filter-text', q);
  got = await ids();
  const wantq = all.filter((r) => r.text.includes(q)).map((r) => r.id).sort();
  if (!wantq.length || got.slice().sort().join() !== wantq.join()) own.push(`matrix: text filter "${q}" shows ${got.join()} (want ${wantq.join()})`);
  await page.fill('#filter-text', '');
  await page.fill('#filter-mem', '100000');
  got = await ids();
  const cols = await page.$$eval('#matrix thead th', (ths) => ths.filter((th) => !th.hidden).length);
  if (got.length || cols !== 2) own.push(`matrix: minimum memory 100000 GiB leaves ${got.length} rows and ${cols - 2} offers or groups`);
  // A minimum that keeps some offers: each group heading spans the offers it still shows.
  const mid = await page.$$eval('#matrix thead tr:last-child th[data-mem]', (ths) => ths.map((th) => Number(th.dataset.mem)).sort((a, b) => a - b));
  if (mid.length > 1) {
    const min = Math.ceil(mid[Math.floor(mid.length / 2)] / 1073741824);
    await page.fill('#filter-mem', String(min));
    const g = await page.evaluate(() => {
      const shown = Array.from(document.querySelectorAll('#matrix thead tr:last-child th')).filter((th) => !th.hidden).length;
      const spans = Array.from(document.querySelectorAll('#matrix thead th[scope="colgroup"]')).filter((th) => !th.hidden).reduce((n, th) => n + th.colSpan, 0);
      return { shown, spans };
    });
    if (g.shown !== g.spans) own.push(`matrix: minimum memory ${min} GiB shows ${g.shown} offers under groups spanning ${g.spans}`);
  }
  await page.fill('#filter-mem', '');
  got = await ids();
  if (got.length !== all.length) own.push(`matrix: clearing the filters shows ${got.length} of ${all.length} rows`);
}

const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
// File pages read one another as a web server would serve them from one
// origin: axe-core reads the site's linked style sheet (style.css) through
// the CSSOM instead of fetching it, which the pages' CSP rightly forbids.
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--allow-file-access-from-files'] });
const problems = [];

try {
  for (const rel of pages) {
    const file = path.join(site, rel);
    if (!fs.existsSync(file)) {
      problems.push(`${rel}: no such page in the site`);
      continue;
    }
    const url = pathToFileURL(file).href;
    for (const view of views) {
    const context = await browser.newContext({ viewport: { width: view.width, height: view.height }, colorScheme: view.scheme });
    const page = await context.newPage();
    const tag = `${view.width}px ${view.scheme}`;
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
      // Scripts: only files of the site (checked as requests), never inline.
      scripts: Array.from(document.querySelectorAll('script')).filter((el) => !el.src).length,
      sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      handlers: Array.from(document.querySelectorAll('*'))
        .flatMap((el) => Array.from(el.attributes).filter((a) => /^on/i.test(a.name)).map((a) => `<${el.tagName.toLowerCase()} ${a.name}>`)),
      jsLinks: Array.from(document.querySelectorAll('[href], [src]'))
        .map((el) => el.getAttribute('href') || el.getAttribute('src'))
        .filter((v) => /^\s*javascript:/i.test(v)),
      images: Array.from(document.images).map((img) => ({
        src: img.getAttribute('src'),
        complete: img.complete,
        naturalWidth: img.naturalWidth,
        shownWidth: img.clientWidth,
      })),
    }));
    if (state.pwned) own.push('window.__pwned is defined: injected script ran');
    if (state.scripts) own.push(`${state.scripts} inline <script> element(s) in the page`);
    if (state.sideways > 0) own.push(`the page scrolls sideways by ${state.sideways} px at ${tag}`);
    for (const h of state.handlers) own.push(`event handler attribute in the DOM: ${h}`);
    for (const l of state.jsLinks) own.push(`javascript: link in the DOM: ${l}`);
    for (const img of state.images) {
      if (!img.complete || img.naturalWidth <= 0)
        own.push(`image not loaded: ${img.src} (complete=${img.complete}, naturalWidth=${img.naturalWidth})`);
    }
    // Chart text at least 11 px as shown at 1280 px: the SVG's smallest
    // font-size times the scale the page draws the image at.
    if (view.width === 1280) {
      for (const img of state.images) {
        if (!/\.svg$/.test(img.src || '') || !img.naturalWidth) continue;
        const svg = fs.readFileSync(path.resolve(path.dirname(file), img.src), 'utf8');
        const sizes = Array.from(svg.matchAll(/font-size[=:]\s*"?([0-9.]+)/g), (m) => Number(m[1]));
        if (!sizes.length) continue;
        const px = Math.min(...sizes) * img.shownWidth / img.naturalWidth;
        if (px < 11) own.push(`chart ${img.src}: smallest text ${px.toFixed(1)} px at ${tag} (want >= 11)`);
      }
    }
    if (rel.startsWith('sheets/') && state.images.length === 0)
      own.push('no chart image in the sheet');
    await firstScreenChecks(page, rel, tag, own);
    // The offers page: its charts, each followed by its data table (units in the headers).
    if (/^offers(-[0-9]+)?\.html$/.test(rel)) {
      const charts = await page.evaluate(() => Array.from(document.querySelectorAll('img[src$=".svg"]')).map((img) => {
        let el = img.closest('p');
        while (el && el.tagName !== 'TABLE' && el.tagName !== 'H3' && el.tagName !== 'H2') el = el.nextElementSibling;
        return { src: img.getAttribute('src'), alt: img.alt, table: !!el && el.tagName === 'TABLE',
          units: el && el.tagName === 'TABLE' ? Array.from(el.querySelectorAll('th')).filter((th) => /\(.+\)/.test(th.textContent)).length : 0 };
      }));
      if (charts.length < 2) own.push(`offers page: ${charts.length} chart(s) (want cost per GiB-day and campaign or hourly prices)`);
      for (const c of charts) {
        if (!c.alt) own.push(`offers page: chart ${c.src} has no text alternative`);
        if (!c.table) own.push(`offers page: chart ${c.src} is not followed by its data table`);
        else if (c.units < 2) own.push(`offers page: the data table of ${c.src} names ${c.units} unit(s) in its headers`);
      }
    }

    // axe-core through the DevTools protocol (the page's CSP does not apply to it).
    await page.evaluate(axeSource);
    const axe = await page.evaluate(async () => {
      const r = await window.axe.run(document, {
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      });
      return r.violations.map((v) => `${v.id} (${v.impact}): ${v.help}; ${v.nodes.length} node(s), first ${v.nodes[0] ? v.nodes[0].target.join(' ') : '?'}`);
    });
    for (const v of axe) own.push(`axe, ${tag}: ${v}`);
    if (view.width === 1280 && view.scheme === 'light') {
      await printChecks(page, own);
      await keyboardChecks(page, own);
      if (await page.$('#matrix')) await matrixChecks(page, own);
    }

    const shot = path.join(shots, rel.replace(/[\/\\]/g, '_').replace(/\.html?$/, '') + `-${view.width}-${view.scheme}.png`);
    // (a long page on a busy machine takes more than the default 30 s)
    await page.screenshot({ path: shot, fullPage: true, timeout: 180000 });
    const loaded = state.images.filter((i) => i.complete && i.naturalWidth > 0).length;
    console.log(`${rel} (${tag}): ${own.length ? own.length + ' problem(s)' : 'ok'}; ` +
      `${loaded}/${state.images.length} images loaded; screenshot ${shot}`);
    for (const p of own) problems.push(`${rel}: ${p}`);
    await context.close();
    own.length = 0;
    }
    if (fs.readFileSync(file, 'utf8').includes('id="matrix"')) {
      // Scripts disabled: the page is complete, every workload row shown.
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'load' });
      const r = await page.evaluate(() => ({
        rows: document.querySelectorAll('#matrix tbody tr').length,
        visible: Array.from(document.querySelectorAll('#matrix tbody tr')).filter((tr) => tr.offsetParent !== null).length,
        filters: document.querySelectorAll('.filters').length,
      }));
      if (!r.rows || r.visible !== r.rows) problems.push(`${rel}: without scripts ${r.visible} of ${r.rows} rows are visible`);
      if (r.filters) problems.push(`${rel}: without scripts a filter bar is shown`);
      console.log(`${rel} (scripts disabled): ${r.visible}/${r.rows} rows visible`);
      await context.close();
    }
  }
} finally {
  await browser.close();
}

if (problems.length) {
  for (const p of problems) console.log(`FAIL: ${p}`);
  process.exit(1);
}
console.log(`all ${pages.length} pages ok`);
