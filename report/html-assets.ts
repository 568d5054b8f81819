/**
 * The HTML report's style sheet and script, kept whole where a reader can see
 * them: html.ts puts them in each page and allows them by their hash; the
 * matrix page (matrix-html.ts) adds its own to these.
 */
export const STYLE = `
:root{--pass:#1a7f37;--fail:#cf222e;--error:#8250df;--timeout:#bc4c00;--crash:#a40e26;--skip:#6e7781;--flaky:#bf3989;\
--bg:#fff;--fg:#1f2328;--muted:#656d76;--line:#d0d7de;--del:#ffebe9;--ins:#dafbe1;--delm:#ff818266;--insm:#4ac26b66}
*{box-sizing:border-box}
body{font:14px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Helvetica,Arial,sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;max-width:1200px;padding:16px 24px}
h1{font-size:22px;margin:0 0 8px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid var(--line);padding-bottom:4px}h3{font-size:15px;margin:16px 0 6px}
.verdict{font-size:16px;font-weight:600;padding:10px 14px;border-radius:6px;color:#fff;margin:8px 0}
.verdict.pass{background:var(--pass)}.verdict.fail{background:var(--fail)}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:8px 0;color:var(--muted)}dl.meta dt{font-weight:600}dl.meta dd{margin:0}
table{border-collapse:collapse;margin:6px 0}th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}th{background:#f6f8fa}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.st{display:inline-block;border-radius:10px;padding:0 8px;color:#fff;font-size:12px;font-weight:600}
.st.pass{background:var(--pass)}.st.fail{background:var(--fail)}.st.error{background:var(--error)}\
.st.timeout{background:var(--timeout)}.st.crash{background:var(--crash)}.st.flaky{background:var(--flaky)}.st.skip{background:var(--skip)}
.chip{display:inline-block;border-radius:4px;padding:0 5px;margin:1px;font:12px ui-monospace,SFMono-Regular,Menlo,monospace;\
border-left:4px solid var(--skip);background:#f6f8fa;color:var(--fg);text-decoration:none}
.chip.pass{border-color:var(--pass)}.chip.fail{border-color:var(--fail)}.chip.error{border-color:var(--error)}\
.chip.timeout{border-color:var(--timeout)}.chip.crash{border-color:var(--crash)}.chip.flaky{border-color:var(--flaky)}
code,pre,.id{font:12px ui-monospace,SFMono-Regular,Menlo,monospace}
pre{background:#f6f8fa;padding:8px;overflow:auto;white-space:pre-wrap;word-break:break-word;margin:4px 0}
.msg{white-space:pre-wrap;word-break:break-word}
#filters{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;margin:8px 0}#filters .group{display:flex;flex-wrap:wrap;gap:4px;align-items:center}
#filters button{font:inherit;font-size:12px;border:1px solid var(--line);background:#f6f8fa;border-radius:12px;padding:1px 10px;cursor:pointer}
#filters button[aria-pressed=true]{background:var(--fg);color:#fff;border-color:var(--fg)}
section.failure{border:1px solid var(--line);border-left:4px solid var(--fail);border-radius:6px;padding:4px 12px 10px;margin:12px 0}
section.failure.error,section.failure.crash{border-left-color:var(--error)}section.failure.timeout{border-left-color:var(--timeout)}section.failure.flaky{border-left-color:var(--flaky)}
table.diff{width:100%;table-layout:fixed;font:12px ui-monospace,SFMono-Regular,Menlo,monospace}
table.diff td{white-space:pre-wrap;word-break:break-all;border:0;border-right:1px solid var(--line);padding:0 6px}
table.diff td.del{background:var(--del)}table.diff td.ins{background:var(--ins)}table.diff td.gap{background:#f6f8fa}
table.diff td.del mark{background:var(--delm)}table.diff td.ins mark{background:var(--insm)}mark{color:inherit}
.row{display:flex;flex-wrap:wrap;gap:0 32px;align-items:flex-start}.row h2{margin-top:18px}
.muted{color:var(--muted)}.known{font-size:12px;color:var(--muted);font-weight:normal}
`;

/**
 * The filter bar's groups of buttons, in the script of both pages (this one and
 * the matrix): the page's script defines `bar`, `state` and `apply`, then calls
 * group(label, key, values) once per filter. A value is { value, count }, shown
 * as "value (count)", or { value, label }. "all" comes first and is pressed.
 */
export const FILTER_GROUP = `  function group(label, key, values) {
    var g = document.createElement('div');
    g.className = 'group';
    g.setAttribute('role', 'group');
    g.setAttribute('aria-label', label);
    var title = document.createElement('span');
    title.textContent = label + ':';
    g.appendChild(title);
    var buttons = [];
    [{ value: '', label: 'all' }].concat(values).forEach(function (v) {
      var b = document.createElement('button');
      b.type = 'button';
      b.setAttribute('data-filter-' + key, v.value);
      b.setAttribute('aria-pressed', v.value === '' ? 'true' : 'false');
      b.textContent = v.label || (v.value + ' (' + v.count + ')');
      b.addEventListener('click', function () {
        state[key] = v.value;
        buttons.forEach(function (o) { o.setAttribute('aria-pressed', o === b ? 'true' : 'false'); });
        apply();
      });
      buttons.push(b);
      g.appendChild(b);
    });
    bar.appendChild(g);
  }`;

// Progressive enhancement only: without it every row and every failure is shown.
export const SCRIPT = `
(function () {
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var bar = document.getElementById('filters');
  var items = Array.prototype.slice.call(document.querySelectorAll('[data-status][data-area]'));
  var rows = Array.prototype.slice.call(document.querySelectorAll('#results tbody tr'));
  var shown = document.getElementById('shown');
  var state = { status: '', area: '' };
  function apply() {
    var n = 0;
    items.forEach(function (el) {
      var ok = (!state.status || el.getAttribute('data-status') === state.status) && (!state.area || el.getAttribute('data-area') === state.area);
      el.hidden = !ok;
      if (ok && el.tagName === 'TR') n++;
    });
    shown.textContent = n + ' of ' + rows.length + ' shown';
  }
${FILTER_GROUP}
  group('status', 'status', data.statuses);
  group('area', 'area', data.areas);
  bar.hidden = false;
  apply();
})();
`;
