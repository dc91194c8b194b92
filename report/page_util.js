// What the trend page and the consistency page share (report/trend.js, report/consistency.js): the
// page's script is this file followed by the page's own (report_assets, PageScript).
'use strict';

// A DOM element with properties and children (text is added as text, never parsed as HTML).
function make(tag, props, ...children) {
  const node = Object.assign(document.createElement(tag), props || {});
  node.append(...children);
  return node;
}

// "0-3,7" -> a Set of ranks; null for empty text, undefined for text that is not such a list.
function parseRanks(text) {
  if (!text.trim()) return null;
  const out = new Set();
  for (const part of text.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) return undefined;
    const a = Number(m[1]), b = m[2] === undefined ? a : Number(m[2]);
    for (let r = Math.min(a, b); r <= Math.max(a, b) && out.size < 1e6; r++) out.add(r);
  }
  return out;
}
