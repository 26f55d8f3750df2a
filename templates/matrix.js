// matrix.js: sorting and filters for the gpusheet index matrix.
//
// Copied into the site folder and loaded by the index pages only, as the one
// script their Content-Security-Policy allows ('self'). It loads nothing and
// sends nothing. Without it the pages are complete: every row and column is
// there, in the order gpusheet wrote them. With it:
//  - each column header gets a button that sorts the workloads by that
//    column (workload id; or class, in the sheet's order, then price per
//    hour of the lot, or the cost of a million tokens at the speed bound
//    as "Within a class, sort by" says, unknown figures last); a second
//    press reverses the order; the headings of the groups of lots by
//    memory per lot get none, and follow the filters' columns;
//  - a filter bar shows only the workloads with a given decision, whose id
//    or title contains a text, and (minimum memory per card, in GiB = 2^30
//    bytes) hides the lots with less memory per card or none known, then
//    the workloads left with no retained or pre-selected offer on the page.
// Labels come from the table's data-l-* attributes (written in the page's
// language by gpusheet).
(function () {
  'use strict';
  var table = document.getElementById('matrix');
  if (!table || !table.tHead || !table.tBodies.length) return;
  var body = table.tBodies[0];
  // Column headings: with two header rows, the first row's cells that span
  // both (workload, offer to take) then the last row's (the lots); the
  // first row's other cells head groups of lots (scope="colgroup").
  var hrows = table.tHead.rows, head = [], groups = [];
  Array.prototype.forEach.call(hrows[0].cells, function (th) {
    if (hrows.length === 1 || th.rowSpan >= hrows.length) head.push(th);
    else groups.push(th);
  });
  if (hrows.length > 1) Array.prototype.forEach.call(hrows[hrows.length - 1].cells, function (th) { head.push(th); });
  groups.forEach(function (g) { g.dataset.span = String(g.colSpan); });
  var rows = Array.prototype.slice.call(body.rows);
  var L = table.dataset;
  var GIB = 1073741824;
  var sortCol = -1, sortDir = 1;

  rows.forEach(function (r, i) { r.dataset.pos = String(i); });

  // A lot's cell gives its verdict by its class (v0 to v4, also its
  // colour), the offer-to-take cell by data-v; both the class of their
  // offer by data-c (the sheet's classes, 0 retained to 5 excluded, 6 a
  // reference card; none: not compared), their price per hour of the lot
  // by data-cost and their cost of a million tokens at the bound by
  // data-mtok, in millionths.
  function verdictOf(cell) {
    if (cell.dataset.v !== undefined) return Number(cell.dataset.v);
    var m = /\bv([0-4])\b/.exec(cell.className);
    return m ? Number(m[1]) : 3;
  }

  // The sheet's order, then not compared, then a reference card.
  function classOf(cell) {
    if (cell.dataset.c === undefined) return 6;
    var c = Number(cell.dataset.c);
    return c === 6 ? 7 : c;
  }

  var byMtok = false;

  function key(row, col) {
    if (col === 0) return [row.dataset.id || ''];
    var c = row.cells[col];
    var f = byMtok ? c.dataset.mtok : c.dataset.cost;
    return [classOf(c), f !== undefined ? Number(f) : Infinity];
  }

  function compare(a, b) {
    var ka = key(a, sortCol), kb = key(b, sortCol), i;
    for (i = 0; i < ka.length; i++) {
      if (ka[i] < kb[i]) return -sortDir;
      if (ka[i] > kb[i]) return sortDir;
    }
    return Number(a.dataset.pos) - Number(b.dataset.pos);
  }

  function sortBy(col) {
    sortDir = col === sortCol ? -sortDir : 1;
    sortCol = col;
    resort();
  }

  function resort() {
    var col = sortCol;
    if (col < 0) return;
    rows.slice().sort(compare).forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(head, function (th, i) {
      if (i === col) th.setAttribute('aria-sort', sortDir > 0 ? 'ascending' : 'descending');
      else th.removeAttribute('aria-sort');
    });
  }

  // A sort button after each header's content (which may hold a link).
  Array.prototype.forEach.call(head, function (th, i) {
    var b = document.createElement('button');
    var name = th.textContent.replace(/\s+/g, ' ').trim();
    b.type = 'button';
    b.className = 'sort';
    b.textContent = '\u21C5';
    b.title = L.lSort || '';
    b.setAttribute('aria-label', (L.lSort || '') + ': ' + name);
    th.appendChild(document.createTextNode(' '));
    th.appendChild(b);
    b.addEventListener('click', function () { sortBy(i); });
  });

  // The filter bar, before the table's box.
  var bar = document.createElement('div');
  bar.className = 'filters';
  bar.setAttribute('role', 'group');
  bar.setAttribute('aria-label', L.lFilter || '');

  function field(labelText, control, id) {
    var lab = document.createElement('label');
    lab.htmlFor = id;
    lab.textContent = labelText + ' ';
    control.id = id;
    lab.appendChild(control);
    bar.appendChild(lab);
    return control;
  }

  var decision = document.createElement('select');
  [['', L.lAll], ['0', L.lRetained], ['1', L.lPreselected], ['2', L.lNone]].forEach(function (o) {
    var opt = document.createElement('option');
    opt.value = o[0];
    opt.textContent = o[1] || o[0];
    decision.appendChild(opt);
  });
  field(L.lDecision || '', decision, 'filter-decision');
  var text = document.createElement('input');
  text.type = 'search';
  field(L.lText || '', text, 'filter-text');
  var mem = document.createElement('input');
  mem.type = 'number';
  mem.min = '0';
  mem.step = '1';
  mem.inputMode = 'numeric';
  field(L.lMem || '', mem, 'filter-mem');
  // Within a class: the price per hour, or the cost of a million tokens.
  var order = document.createElement('select');
  [['hour', L.lHour], ['mtok', L.lMtok]].forEach(function (o) {
    var opt = document.createElement('option');
    opt.value = o[0];
    opt.textContent = o[1] || o[0];
    order.appendChild(opt);
  });
  field(L.lOrder || '', order, 'sort-order');
  order.addEventListener('change', function () {
    byMtok = order.value === 'mtok';
    resort();
  });
  var shown = document.createElement('output');
  shown.setAttribute('aria-live', 'polite');
  shown.id = 'filter-shown';
  bar.appendChild(shown);
  var box = table.parentNode;
  box.parentNode.insertBefore(bar, box);

  function apply() {
    var want = decision.value;
    var q = text.value.trim().toLowerCase();
    var min = mem.value === '' ? 0 : Number(mem.value) * GIB;
    var keep = [], n = 0, j;
    for (j = 2; j < head.length; j++) {
      var m = head[j].dataset.mem;
      keep[j] = !(min > 0) || (m !== undefined && Number(m) >= min);
      head[j].hidden = !keep[j];
    }
    // A group heading spans the offers still shown, and hides with the last.
    var col = 2;
    groups.forEach(function (g) {
      var span = Number(g.dataset.span), k = 0, c;
      for (c = col; c < col + span; c++) if (keep[c]) k++;
      col += span;
      g.colSpan = Math.max(k, 1);
      g.hidden = k === 0;
    });
    Array.prototype.forEach.call(table.tFoot ? table.tFoot.rows : [], function (r) {
      // The footer's first cell spans the workload and best-offer columns.
      for (j = 2; j < head.length; j++) if (r.cells[j - 1]) r.cells[j - 1].hidden = !keep[j];
    });
    rows.forEach(function (r) {
      var ok = (want === '' || r.dataset.decision === want) &&
        (q === '' || r.cells[0].textContent.toLowerCase().indexOf(q) >= 0);
      var any = !(min > 0);
      for (j = 2; j < head.length; j++) {
        r.cells[j].hidden = !keep[j];
        if (keep[j] && verdictOf(r.cells[j]) < 2) any = true;
      }
      r.hidden = !(ok && any);
      if (!r.hidden) n++;
    });
    shown.textContent = n + ' / ' + rows.length + ' ' + (L.lShown || '');
  }

  decision.addEventListener('change', apply);
  text.addEventListener('input', apply);
  mem.addEventListener('input', apply);
  apply();
}());
