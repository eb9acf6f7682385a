// Shows a failed call as the tool's own sentence, with a token form when the server wants one.

import { setToken } from './api.js';
import { h } from './dom.js';

export function errorBox(err, retry) {
  const box = h('div', { class: 'error', role: 'alert' }, h('p', { text: err && err.message ? err.message : String(err) }));
  if (err && err.code === 'UNAUTHORIZED') {
    const input = h('input', { type: 'password', name: 'token', placeholder: 'access token', autocomplete: 'off' });
    box.append(
      h(
        'form',
        {
          class: 'token-form',
          onsubmit: (e) => {
            e.preventDefault();
            setToken(input.value.trim());
            retry();
          },
        },
        h('label', {}, 'Token: ', input),
        h('button', { type: 'submit' }, 'Use token'),
      ),
    );
  }
  return box;
}
