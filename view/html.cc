#include "view/html.h"

#include "api/codec/utf8.h"

namespace schedref::view {
namespace {

// The style: verdicts carry a symbol and a word besides their colour.
constexpr char kStyle[] = R"css(
:root{--ok:#d9f2df;--bad:#f9d6d5;--skip:#ececec;--chosen:#fff3bf;--ink:#1b1b1b;--mute:#666}
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--ink);margin:1.2em 2em}
h1{font-size:1.4em;margin:.2em 0}h2{font-size:1.15em;margin:1.4em 0 .4em;border-bottom:1px solid #ccc}
h3{font-size:1em;margin:1em 0 .3em}
code,pre,.mono{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:12px}
pre{white-space:pre-wrap;word-break:break-all;background:#f6f6f6;padding:.4em;margin:.2em 0}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.1em 1em;margin:.4em 0}
dl.facts dt{font-weight:600}dl.facts dd{margin:0}
.tbl{overflow-x:auto;margin:.4em 0 1em}
table{border-collapse:collapse}
caption{text-align:left;font-weight:600;padding:.2em 0}
th,td{border:1px solid #bbb;padding:.15em .4em;vertical-align:top;text-align:left}
thead th{background:#eef1f6;position:sticky;top:0;font-weight:600;font-size:12px}
th[scope=row]{font-weight:600;white-space:nowrap}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
td small{color:var(--mute);display:block;white-space:nowrap}
.ok{background:var(--ok)}.bad{background:var(--bad)}.skip{background:var(--skip);color:var(--mute)}
.nr{color:var(--mute)}.ne{color:var(--mute);font-style:italic}
tr.chosen th,tr.chosen td{background:var(--chosen)}
tr.chosen td.bad{background:var(--bad)}
.pass{color:#0a6b26;font-weight:600}.fail{color:#a11;font-weight:600}.skipped{color:var(--mute);font-weight:600}
.ctl{margin:.3em 0;display:flex;gap:.6em;align-items:center}
.ctl input{padding:.2em .4em;min-width:16em}
th button{font:inherit;border:0;background:none;padding:0;cursor:pointer;text-decoration:underline dotted}
.bar{display:inline-block;width:9em;height:.75em;background:#e4e4e4;border:1px solid #aaa;vertical-align:middle;margin-right:.4em}
.bar span{display:block;height:100%;background:#4f8fce}.bar.over span{background:#c0392b}
.tl{position:relative;height:1.3em;min-width:28em;background:#fafafa;border:1px solid #ccc}
.tl span{position:absolute;top:0;bottom:0;min-width:2px}
.tl .queued{background:#d7dde8}.tl .backoff{background:repeating-linear-gradient(45deg,#f0a95c 0 4px,#fbe0c0 4px 8px)}
.tl .unsched{background:#f1b8b5}.tl .binding{background:#9cc9f0}.tl .bound{background:#8fd19e}
.tl .att{background:#222;width:2px;min-width:2px}.tl .att.failed{background:#c0392b;width:3px}
table.matrix{font-size:12px}table.matrix td,table.matrix th{padding:.1em .3em}
table.matrix td.v{white-space:nowrap}table.matrix td.bad{min-width:8em;max-width:16em}
.tl .nominated{background:#f5d76e}.tl .terminating{background:repeating-linear-gradient(45deg,#8fd19e 0 4px,#e9e9e9 4px 8px)}
.axis{display:flex;justify-content:space-between;font-weight:400;color:var(--mute)}
.legend span{display:inline-block;margin-right:1.2em}
.legend i{display:inline-block;width:1.6em;height:.8em;border:1px solid #999;vertical-align:middle;margin-right:.3em}
ol.events{margin:0;padding-left:1.4em}
table.side{width:100%;table-layout:fixed}table.side td{width:50%}
.mute{color:var(--mute)}
)css";

// The script: pages, searches and sorts the tables in div.tbl. The tables
// are complete without it.
constexpr char kScript[] = R"js(
(function () {
  'use strict';
  var PAGE = 100;
  function button(text) {
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    return b;
  }
  Array.prototype.forEach.call(document.querySelectorAll('div.tbl'), function (box) {
    var table = box.querySelector('table');
    var body = table && table.tBodies[0];
    if (!body) return;
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (r, i) { r.dataset.order = i; });
    var shown = rows, page = 0;
    var bar = document.createElement('div');
    bar.className = 'ctl';
    var input = null;
    var label = box.getAttribute('data-search');
    if (label) {
      input = document.createElement('input');
      input.type = 'search';
      input.placeholder = 'search by ' + label;
      input.setAttribute('aria-label', 'search by ' + label);
      bar.appendChild(input);
    }
    var prev = button('\u2039 previous'), next = button('next \u203a');
    var info = document.createElement('span');
    info.setAttribute('aria-live', 'polite');
    if (rows.length > PAGE) {
      bar.appendChild(prev);
      bar.appendChild(next);
    }
    bar.appendChild(info);
    if (input || rows.length > PAGE) box.insertBefore(bar, table);
    function render() {
      var pages = Math.max(1, Math.ceil(shown.length / PAGE));
      if (page >= pages) page = pages - 1;
      rows.forEach(function (r) { r.hidden = true; });
      shown.slice(page * PAGE, (page + 1) * PAGE).forEach(function (r) { r.hidden = false; });
      info.textContent = shown.length + ' of ' + rows.length + ' rows' +
          (pages > 1 ? ', page ' + (page + 1) + ' of ' + pages : '');
      prev.disabled = page === 0;
      next.disabled = page >= pages - 1;
    }
    function filter() {
      var q = input ? input.value.toLowerCase() : '';
      shown = rows.filter(function (r) {
        return (r.getAttribute('data-name') || '').toLowerCase().indexOf(q) >= 0;
      });
      page = 0;
      render();
    }
    prev.addEventListener('click', function () { page--; render(); });
    next.addEventListener('click', function () { page++; render(); });
    if (input) input.addEventListener('input', filter);
    var head = table.tHead && table.tHead.rows[table.tHead.rows.length - 1];
    Array.prototype.forEach.call(head ? head.cells : [], function (th, col) {
      var kind = th.getAttribute('data-sort');
      if (!kind) return;
      var b = button('');
      while (th.firstChild) b.appendChild(th.firstChild);
      th.appendChild(b);
      var dir = 0;
      b.addEventListener('click', function () {
        dir = dir === -1 ? 1 : -1;
        Array.prototype.forEach.call(head.cells, function (c) { c.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
        function key(r) {
          var c = r.cells[col];
          if (!c) return kind === 'num' ? -Infinity : '';
          if (kind === 'num') {
            var v = parseFloat(c.getAttribute('data-v'));
            return isNaN(v) ? -Infinity : v;
          }
          return c.textContent;
        }
        rows.sort(function (x, y) {
          var a = key(x), z = key(y);
          var d = a < z ? -1 : a > z ? 1 : 0;
          return d !== 0 ? d * dir : x.dataset.order - y.dataset.order;
        });
        rows.forEach(function (r) { body.appendChild(r); });
        filter();
      });
    });
    render();
  });
})();
)js";

}  // namespace

std::string Escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      api::Utf8Sequence seq = api::DecodeUtf8(s, i);
      if (seq.length == 0) {
        out += "\xEF\xBF\xBD";
        i = seq.bad > i ? seq.bad : i + 1;
        continue;
      }
      out.append(s.substr(i, seq.length));
      i += seq.length;
      continue;
    }
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      case '\t': case '\n': case '\r': out += static_cast<char>(c); break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += "\xEF\xBF\xBD";
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  return out;
}

std::string Page(std::string_view title, std::string_view body) {
  std::string out;
  out.reserve(body.size() + sizeof kStyle + sizeof kScript + 512);
  out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  // Nothing may be fetched: no network, no other file.
  out += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
         "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += "<title>" + Escape(title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
  out += body;
  out += "<script>";
  out += kScript;
  out += "</script>\n</body>\n</html>\n";
  return out;
}

std::string TableOpen(const TableOptions& o) {
  std::string out = "<div class=\"tbl\"";
  if (!o.search_label.empty()) out += " data-search=\"" + Escape(o.search_label) + "\"";
  out += "><table id=\"" + Escape(o.id) + "\"";
  if (!o.css_class.empty()) out += " class=\"" + Escape(o.css_class) + "\"";
  out += ">";
  if (!o.caption.empty()) out += "<caption>" + Escape(o.caption) + "</caption>";
  return out;
}

std::string Breakable(std::string_view name) {
  std::string out;
  size_t start = 0;
  for (size_t i = 1; i < name.size(); ++i) {
    if (name[i] >= 'A' && name[i] <= 'Z' && name[i - 1] >= 'a' && name[i - 1] <= 'z') {
      out += Escape(name.substr(start, i - start)) + "<wbr>";
      start = i;
    }
  }
  return out + Escape(name.substr(start));
}

std::string Count(int64_t n, std::string_view noun) {
  return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

}  // namespace schedref::view
