// Builds DOM nodes from data without ever parsing it as HTML: text goes through textContent,
// and links may only point at the viewer's own hash routes.

/**
 * h('a', { href: '#/usage', class: 'nav' }, 'Usage') — children are nodes or strings (as text).
 * Props: class, text, href (internal '#/…' only), title, on<Event> handlers, and a few safe attributes.
 */
export function h(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = String(value);
    else if (key === 'href') node.setAttribute('href', internalHref(value));
    else if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2).toLowerCase(), value);
    else if (SAFE_ATTRIBUTES.has(key) || key.startsWith('data-') || key.startsWith('aria-')) node.setAttribute(key, String(value));
    else if (key === 'value' || key === 'checked' || key === 'selected' || key === 'disabled') node[key] = value;
    else throw new Error(`h(): attribute ${key} is not allowed`);
  }
  append(node, children);
  return node;
}

const SAFE_ATTRIBUTES = new Set(['open', 'id', 'title', 'type', 'name', 'placeholder', 'role', 'for', 'colspan', 'min', 'max', 'step', 'autocomplete', 'tabindex', 'scope', 'list']);

// Session text must never become a URL: anything that is not one of our own routes is refused.
export function internalHref(value) {
  const s = String(value);
  if (!s.startsWith('#/')) throw new Error('Only internal links (#/…) may be built');
  return s;
}

export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

const SVG = 'http://www.w3.org/2000/svg';

/** An SVG element with numeric/string attributes (never from session text except via textContent). */
export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'text') node.textContent = String(value);
    else if (key === 'class') node.setAttribute('class', value);
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

/** A table from column specs: { label, cell(row) → node|string, class? }. */
export function table(columns, rows, props = {}) {
  return h(
    'table',
    props,
    h('thead', {}, h('tr', {}, columns.map((c) => h('th', { class: c.class, scope: 'col' }, c.label)))),
    h('tbody', {}, rows.map((r) => h('tr', {}, columns.map((c) => h('td', { class: c.class }, c.cell(r)))))),
  );
}
