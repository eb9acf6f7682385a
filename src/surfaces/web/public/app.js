// The viewer's entry point: captures the token, routes the hash to a page and shows errors as sentences.

import { captureToken } from './api.js';
import { clear, h } from './dom.js';
import { parseHash } from './router.js';
import { renderSessions } from './page-sessions.js';
import { renderSession } from './page-session.js';
import { renderUsage } from './page-usage.js';
import { renderRaw } from './page-raw.js';
import { errorBox } from './errors.js';

const PAGES = { sessions: renderSessions, session: renderSession, usage: renderUsage, raw: renderRaw };
let generation = 0;

async function show() {
  const app = document.getElementById('app');
  const { parts, params } = parseHash(window.location.hash);
  const name = parts[0] ?? 'sessions';
  const page = PAGES[name];
  const mine = ++generation;
  // A page checks `live()` after each await so a slow answer never paints over a newer page.
  const ctx = { parts, params, live: () => mine === generation };
  for (const a of document.querySelectorAll('nav a')) a.classList.toggle('active', a.dataset.nav === name || (name === 'session' && a.dataset.nav === 'sessions'));
  const root = h('div', { class: `page page-${name}` });
  clear(app).append(root);
  document.body.dataset.page = name;
  if (!page) {
    root.append(h('p', { class: 'error' }, `There is no page called “${name}”. `, h('a', { href: '#/sessions' }, 'Go to the sessions list.')));
    return;
  }
  try {
    await page(root, ctx);
  } catch (err) {
    if (ctx.live()) root.append(errorBox(err, show));
  }
}

captureToken();
window.addEventListener('hashchange', show);
show();
