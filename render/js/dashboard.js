/* perfreport's interactive report: draws the charts of the page's data (script#pr-data, see
 * render/dashboard.c) with uPlot into every div.pr-chart[data-run][data-kind] (and into the
 * chart images of a page made from Markdown), keeps every time chart on the same time range,
 * zooms to a finding's moment, switches light/dark, fits the charts to the printed page. */
(function () {
  'use strict';
  var root = document.documentElement;
  var holder = document.getElementById('pr-data');
  var D = holder ? JSON.parse(holder.textContent) : { runs: [] };
  var runs = {};
  D.runs.forEach(function (r) { runs[r.id] = r; });
  var charts = []; /* {u, el, time, spec} */
  var range = null; /* the shared time range [min, max] (s since each run's start), or null */
  var syncing = false;
  var HEIGHT = 280;
  /* chart titles, series names and units come from the page (templates/report-words.mustache:
   * the message catalog's, in the reader's language) */
  var wordsEl = document.getElementById('pr-words');
  var WORDS = wordsEl ? JSON.parse(wordsEl.textContent) : {};
  var U_US = ' ' + (WORDS.unit_us || 'µs'), U_MS = ' ' + (WORDS.ms || 'ms');
  var U_S = ' ' + (WORDS.unit_s || 's'), U_PER_S = WORDS.unit_per_s || '/s';
  /* the colour-blind-safe palette of the PNG charts (Okabe-Ito) */
  var PAL = ['#0072b2', '#e69f00', '#009e73', '#cc79a7', '#56b4e9', '#d55e00', '#f0e442',
    '#999999', '#7f3c8d', '#11a579', '#3969ac', '#f2b701', '#e73f74', '#80ba5a'];
  var RED = '#d55e00';

  function cssVar(n) { return getComputedStyle(root).getPropertyValue(n).trim(); }
  function sig(v, n) { return Number(v.toPrecision(n)).toString(); }
  function fmtMs(v) {
    if (v == null || isNaN(v)) return '-';
    if (v === 0) return '0';
    if (v < 1) return sig(v * 1000, 3) + U_US;
    if (v < 1000) return sig(v, 3) + U_MS;
    return sig(v / 1000, 3) + U_S;
  }
  function fmtRate(v) { return v == null || isNaN(v) ? '-' : sig(v, 4) + U_PER_S; }
  function fmtNum(v) { return v == null || isNaN(v) ? '-' : sig(v, 4); }
  /* time since the start: "12.5 s" under two minutes, else "h:mm:ss" */
  function fmtTime(s, clock) {
    if (s == null || isNaN(s)) return '-';
    if (!clock && Math.abs(s) < 120) return sig(s, 4) + U_S;
    var neg = s < 0; s = Math.abs(s);
    var h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60), sec = s % 60;
    var ss = (sec < 10 ? '0' : '') + (Math.round(sec * 1000) / 1000).toString();
    return (neg ? '-' : '') + (h ? h + ':' + (m < 10 ? '0' : '') + m : m) + ':' + ss;
  }

  /* ---- data of one kind: {x, series: [{key, label, values, color, points, scale}], ...} -- */
  function colsX(lat) { return lat.n.map(function (_, i) { return i * lat.w_s; }); }
  function positive(arr) { return arr.map(function (v) { return v != null && v > 0 ? v : null; }); }

  var KINDS = {
    latency: function (r) {
      var L = r.lat; if (!L) return null;
      return { x: colsX(L), unit: 'ms', log: true, density: L.dens, series: [
        { key: 'okmax', v: positive(L.okmax), color: PAL[0], width: 1 },
        { key: 'okmin', v: positive(L.okmin), color: PAL[4], width: 1 },
        { key: 'errmax', v: positive(L.errmax), color: RED, points: true },
        { key: 'errmin', v: positive(L.errmin), color: RED, points: true, show: false }] };
    },
    percentiles: function (r) {
      var T = r.ts; if (!T || !T.p50) return null;
      return { x: T.t, unit: 'ms', series: ['p50', 'p90', 'p99', 'max'].map(function (k, i) {
        return { key: k, v: T[k], color: PAL[i] }; }) };
    },
    throughput: function (r) {
      var T = r.ts; if (!T) return null;
      var s = [];
      if (T.ok) s.push({ key: 'ok', v: T.ok, color: PAL[2] });
      if (T.err) s.push({ key: 'err', v: T.err, color: RED });
      s.push({ key: 'req', v: T.req, color: PAL[7], dash: [4, 3] });
      return { x: T.t, unit: 'per_s', series: s };
    },
    codes: function (r) {
      var T = r.ts; if (!T || !T.codes || !Object.keys(T.codes).length) return null;
      return { x: T.t, unit: 'per_s', series: Object.keys(T.codes).map(function (c, i) {
        var col = c[0] === '2' ? PAL[2] : c[0] === '3' ? PAL[4] : c[0] === '4' ? PAL[1]
          : c[0] === '5' || c === '0' ? RED : PAL[(i + 3) % PAL.length];
        return { key: c, label: c === '0' ? WORDS.none : c, v: T.codes[c], color: col }; }) };
    },
    threads: function (r) {
      var T = r.ts; if (!T || !T.thr) return null;
      return { x: T.t, unit: 'count', series: [{ key: 'thr', v: T.thr, color: PAL[3] }] };
    },
    timing: function (r) {
      var T = r.ts; if (!T || (!T.conn && !T.ttfb)) return null;
      var s = [];
      if (T.conn) s.push({ key: 'conn', v: T.conn, color: PAL[1] });
      if (T.ttfb) s.push({ key: 'ttfb', v: T.ttfb, color: PAL[0] });
      if (T.p50) s.push({ key: 'p50', v: T.p50, color: PAL[7], dash: [4, 3] });
      return { x: T.t, unit: 'ms', series: s };
    },
    label_latency: function (r, el) {
      var stat = el.getAttribute('data-stat') || 'p90';
      return labelKind(r, stat, 'ms');
    },
    label_throughput: function (r) { return labelKind(r, 'ok', 'per_s', 'req'); },
    label_errors: function (r) { return labelKind(r, 'err', 'per_s'); },
    scatter_throughput: function (r) { return scatterKind(r, r.ts && (r.ts.ok || r.ts.req), 'per_s'); },
    scatter_threads: function (r) { return scatterKind(r, r.ts && r.ts.thr, 'count'); }
  };

  function labelKind(r, stat, unit, fallback) {
    var T = r.ts; if (!T || !r.labels || r.labels.length < 1) return null;
    var s = [];
    r.labels.forEach(function (l, i) {
      var v = l[stat] || (fallback && l[fallback]);
      if (v) s.push({ key: 'l' + i, label: l.name, v: v, color: PAL[i % PAL.length], show: i < 8 });
    });
    return s.length ? { x: T.t, unit: unit, series: s, stat: stat } : null;
  }

  /* Per interval: x (throughput or threads) against p50 and p99, sorted by x. */
  function scatterKind(r, xs, unit) {
    var T = r.ts; if (!xs || !T.p50) return null;
    var idx = [];
    xs.forEach(function (x, i) { if (x != null && T.p50[i] != null) idx.push(i); });
    if (idx.length < 2) return null;
    idx.sort(function (a, b) { return xs[a] - xs[b]; });
    function pick(a) { return idx.map(function (i) { return a ? a[i] : null; }); }
    return { x: pick(xs), xunit: unit, unit: 'ms', scatter: true, series: [
      { key: 'p50', v: pick(T.p50), color: PAL[0], points: true },
      { key: 'p99', v: pick(T.p99), color: PAL[1], points: true }] };
  }

  /* ---- drawing ------------------------------------------------------------------------ */
  function fmtFor(unit) { return unit === 'ms' ? fmtMs : unit === 'per_s' ? fmtRate : fmtNum; }

  /* The density of every sample under the latency chart: one rectangle per grid cell,
   * darker where more samples fell. */
  function densityHook(dens) {
    return function (u) {
      if (!dens) return;
      var ctx = u.ctx, max = 0, i;
      for (i = 0; i < dens.c.length; i++) if (dens.c[i] > max) max = dens.c[i];
      if (!max) return;
      var lmax = Math.log(1 + max), lo = Math.log10(dens.lo_ms), hi = Math.log10(dens.hi_ms);
      var rowH = (hi - lo) / dens.rows, col = cssVar('--density') || '0,114,178';
      ctx.save();
      ctx.beginPath();
      ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height);
      ctx.clip();
      for (var c = 0; c < dens.cols; c++) {
        var x0 = u.valToPos(c * dens.w_s, 'x', true), x1 = u.valToPos((c + 1) * dens.w_s, 'x', true);
        if (x1 < u.bbox.left || x0 > u.bbox.left + u.bbox.width) continue;
        for (var k = 0; k < dens.rows; k++) {
          var n = dens.c[c * dens.rows + k];
          if (!n) continue;
          var y0 = u.valToPos(Math.pow(10, lo + k * rowH), 'y', true);
          var y1 = u.valToPos(Math.pow(10, lo + (k + 1) * rowH), 'y', true);
          ctx.fillStyle = 'rgba(' + col + ',' + (0.12 + 0.6 * Math.log(1 + n) / lmax).toFixed(3) + ')';
          ctx.fillRect(x0, y1, Math.max(1, x1 - x0), Math.max(1, y0 - y1));
        }
      }
      ctx.restore();
    };
  }

  function opts(spec, el, width) {
    var fg = cssVar('--fg') || '#1b1f24', grid = cssVar('--line') || '#d0d7de';
    var yfmt = fmtFor(spec.unit), xfmt = spec.scatter ? fmtFor(spec.xunit) : fmtTime;
    var series = [{ label: spec.scatter ? WORDS[spec.xunit] || '' : WORDS.time,
      value: function (u, v) { return xfmt(v); } }];
    spec.series.forEach(function (s) {
      var o = { label: s.label || WORDS[s.key] || s.key, stroke: s.color, width: s.width || 1.5,
        show: s.show !== false, value: function (u, v) { return yfmt(v); }, spanGaps: false };
      if (s.dash) o.dash = s.dash;
      if (s.points || spec.scatter) {
        o.paths = function () { return null; };
        o.points = { show: true, size: spec.scatter ? 6 : 5, stroke: s.color, fill: s.color };
      } else {
        o.points = { show: false };
      }
      series.push(o);
    });
    var axis = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
    var yaxis = Object.assign({}, axis, { size: 70, values: function (u, vs) { return vs.map(yfmt); } });
    /* a log axis: lines and labels at the powers of ten only */
    if (spec.log) {
      var decades = function (u, splits) {
        return splits.map(function (v) {
          var e = Math.log10(v);
          return Math.abs(e - Math.round(e)) < 1e-9 ? v : null;
        });
      };
      yaxis.filter = decades;
      yaxis.grid = Object.assign({}, axis.grid, { filter: decades });
      yaxis.ticks = Object.assign({}, axis.ticks, { filter: decades });
    }
    return {
      width: width, height: HEIGHT, series: series,
      scales: { x: { time: false }, y: spec.log ? { distr: 3 } : { range: function (u, mn, mx) {
        return [0, mx > 0 ? mx * 1.05 : 1]; } } },
      axes: [Object.assign({}, axis, { values: function (u, vs) {
        /* one format per axis: seconds, or h:mm:ss once the axis reaches two minutes */
        var clock = !spec.scatter && vs.some(function (v) { return Math.abs(v) >= 120; });
        return vs.map(function (v) { return spec.scatter ? xfmt(v) : fmtTime(v, clock); });
      } }), yaxis],
      cursor: spec.scatter ? { drag: { x: true, y: true } }
        : { sync: { key: 'pr-time', scales: ['x', null] }, drag: { x: true, y: false } },
      legend: { live: true },
      hooks: {
        drawClear: spec.density ? [densityHook(spec.density)] : [],
        setScale: spec.scatter ? [] : [function (u, key) { if (key === 'x') follow(u); }]
      }
    };
  }

  /* Every time chart shows the range the last zoomed one shows. */
  function follow(u) {
    if (syncing) return;
    var mn = u.scales.x.min, mx = u.scales.x.max;
    var c0 = charts.filter(function (c) { return c.u === u; })[0];
    if (!c0) return;
    range = c0.full && mn <= c0.full[0] && mx >= c0.full[1] ? null : [mn, mx];
    syncing = true;
    charts.forEach(function (c) {
      if (c.u !== u && c.time) c.u.setScale('x', range ? { min: mn, max: mx } : { min: c.full[0], max: c.full[1] });
    });
    syncing = false;
    root.setAttribute('data-zoom', range ? range[0].toFixed(3) + ',' + range[1].toFixed(3) : '');
  }

  function make(el) {
    var r = runs[el.getAttribute('data-run')], kind = KINDS[el.getAttribute('data-kind')];
    var spec = r && kind ? kind(r, el) : null;
    if (!spec) {
      el.classList.add('pr-empty');
      var sec = el.closest('.pr-figure');
      if (sec) sec.hidden = true;
      return;
    }
    el.innerHTML = '';
    var title = document.createElement('div');
    title.className = 'pr-chart-title';
    title.textContent = WORDS[el.getAttribute('data-kind')] + (r.name ? ' · ' + r.name : '');
    el.appendChild(title);
    var data = [spec.x].concat(spec.series.map(function (s) { return s.v; }));
    var width = Math.max(320, el.clientWidth || 900);
    var u = new uPlot(opts(spec, el, width), data, el);
    var xs = spec.x.filter(function (v) { return v != null; });
    var c = { u: u, el: el, time: !spec.scatter, spec: spec, full: [xs[0], xs[xs.length - 1]] };
    charts.push(c);
    if (range && c.time) {
      syncing = true;
      u.setScale('x', { min: range[0], max: range[1] });
      syncing = false;
    }
  }

  /* A page made from Markdown (no chart places of its own): its chart images become
   * interactive charts. */
  var IMG_KINDS = { latency_over_time: 'latency', percentiles_over_time: 'percentiles',
    throughput: 'throughput', status_over_time: 'codes', threads_over_time: 'threads',
    label_latency: 'label_latency', timing_over_time: 'timing' };
  function adoptImages() {
    if (document.querySelector('.pr-chart')) return;
    document.querySelectorAll('img[src*="#pr-chart="]').forEach(function (img) {
      var m = img.getAttribute('src').match(/#pr-chart=(\d+)-(\w+)$/);
      var kind = m && IMG_KINDS[m[2]];
      if (!kind || !runs[m[1]]) return;
      var fig = document.createElement('div');
      fig.className = 'pr-figure';
      var div = document.createElement('div');
      div.className = 'pr-chart';
      div.setAttribute('data-run', m[1]);
      div.setAttribute('data-kind', kind);
      fig.appendChild(div);
      img.replaceWith(fig);
    });
  }

  function buildAll() {
    charts.forEach(function (c) { c.u.destroy(); });
    charts = [];
    document.querySelectorAll('.pr-chart').forEach(make);
    root.setAttribute('data-charts', String(charts.length));
  }

  function zoomTo(from, to) {
    range = [from, to];
    syncing = true;
    charts.forEach(function (c) { if (c.time) c.u.setScale('x', { min: from, max: to }); });
    syncing = false;
    root.setAttribute('data-zoom', from.toFixed(3) + ',' + to.toFixed(3));
  }

  function resetZoom() {
    range = null;
    syncing = true;
    charts.forEach(function (c) { if (c.time) c.u.setScale('x', { min: c.full[0], max: c.full[1] }); });
    syncing = false;
    root.setAttribute('data-zoom', '');
  }

  /* Links to a finding (#finding-RUN-INDEX) zoom every time chart to the moment it marks. */
  function onFindingLink(ev) {
    var a = ev.target.closest('a[href^="#finding-"]');
    if (!a) return;
    var m = a.getAttribute('href').match(/^#finding-(\d+)-(\d+)$/);
    var r = m && runs[m[1]];
    var f = r && r.findings.filter(function (x) { return String(x.index) === m[2]; })[0];
    if (!f || f.from == null) return;
    ev.preventDefault();
    zoomTo(f.from, f.to);
    var target = document.querySelector('.pr-chart[data-run="' + m[1] + '"][data-kind="latency"]') ||
      document.querySelector('.pr-chart[data-run="' + m[1] + '"]');
    if (target && target.scrollIntoView) target.scrollIntoView({ block: 'center' });
  }

  /* Per-label latency charts: a percentile picker. */
  function onStatButton(ev) {
    var b = ev.target.closest('button[data-stat]');
    if (!b) return;
    var fig = b.closest('.pr-figure'), el = fig && fig.querySelector('.pr-chart');
    if (!el) return;
    el.setAttribute('data-stat', b.getAttribute('data-stat'));
    fig.querySelectorAll('button[data-stat]').forEach(function (x) {
      x.setAttribute('aria-pressed', String(x === b)); });
    charts = charts.filter(function (c) { if (c.el === el) { c.u.destroy(); return false; } return true; });
    make(el);
  }

  function theme() {
    var t = root.getAttribute('data-theme');
    if (t) return t;
    return window.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }
  function toggleTheme() {
    root.setAttribute('data-theme', theme() === 'dark' ? 'light' : 'dark');
    var b = document.getElementById('pr-theme');
    if (b) b.setAttribute('aria-pressed', String(theme() === 'dark'));
    buildAll();
  }

  function resizeAll(w) {
    charts.forEach(function (c) { c.u.setSize({ width: w || Math.max(320, c.el.clientWidth), height: HEIGHT }); });
  }

  /* Breakdown tables: a bar per label of its mean connect, TTFB beyond connect, receive. */
  function bars() {
    var cells = document.querySelectorAll('td.bar-cell'), max = 0, rows = [];
    cells.forEach(function (td) {
      var c = parseFloat(td.getAttribute('data-connect')) || 0;
      var t = parseFloat(td.getAttribute('data-ttfb')) || 0;
      var r = parseFloat(td.getAttribute('data-receive')) || 0;
      var parts = [c, Math.max(0, t - c), r];
      var sum = parts[0] + parts[1] + parts[2];
      if (sum > max) max = sum;
      rows.push([td, parts]);
    });
    rows.forEach(function (row) {
      var bar = document.createElement('div');
      bar.className = 'bar';
      ['connect', 'ttfb', 'receive'].forEach(function (k, i) {
        var s = document.createElement('span');
        s.className = k;
        s.style.width = (max ? 100 * row[1][i] / max : 0) + '%';
        s.title = (WORDS['bar_' + k] || k) + ' ' + fmtMs(row[1][i] / 1e6);
        bar.appendChild(s);
      });
      row[0].appendChild(bar);
    });
  }

  function start() {
    bars();
    if (!window.uPlot) return;
    adoptImages();
    buildAll();
    window.prDrawnMs = performance.now(); /* when every chart was drawn (bench/open_report.js) */
    document.addEventListener('click', onFindingLink);
    document.addEventListener('click', onStatButton);
    var tb = document.getElementById('pr-theme');
    if (tb) tb.addEventListener('click', toggleTheme);
    var rb = document.getElementById('pr-reset');
    if (rb) rb.addEventListener('click', resetZoom);
    var pending = 0;
    window.addEventListener('resize', function () {
      clearTimeout(pending);
      pending = setTimeout(function () { resizeAll(); }, 100);
    });
    /* printed pages are narrower than the screen: fit the charts, then put them back */
    window.addEventListener('beforeprint', function () { resizeAll(680); });
    window.addEventListener('afterprint', function () { resizeAll(); });
    window.prDashboard = { charts: function () { return charts; }, zoomTo: zoomTo,
      reset: resetZoom, range: function () { return range; } };
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
