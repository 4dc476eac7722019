// The AgentSync dashboard page (src/vscode/dashboard/dashboardView.ts posts it the model). It only draws: which buttons
// a card has, and what a press does, are decided in the extension. Every text is set as text, never as HTML, since
// handoff summaries come from any agent. Runs under a nonce-only Content-Security-Policy.
(function () {
  'use strict';
  const vscode = acquireVsCodeApi();
  const root = /** @type {HTMLElement} */ (document.getElementById('dashboard'));
  /** The label and hint of each button, by move name: sent with the model (the extension's action catalog). */
  let buttons = {};
  const labelOf = (a) => (buttons[a] && buttons[a].label) || a;
  const hintOf = (a) => (buttons[a] && buttons[a].hint) || '';

  /** An element with attributes and children (strings become text nodes). */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null && v !== false) node.setAttribute(k, String(v));
    for (const c of children)
      if (c !== null && c !== undefined && c !== false) node.append(typeof c === 'string' ? document.createTextNode(c) : c);
    return node;
  }

  function when(iso) {
    const t = Date.parse(iso);
    return Number.isFinite(t) ? new Date(t).toLocaleString() : iso || '?';
  }

  function card(folder, c) {
    const buttons = c.actions.map((a) =>
      el(
        'button',
        {
          type: 'button',
          class: a === c.actions[0] ? 'primary' : 'secondary',
          'data-action': a,
          'data-folder': folder.root,
          'data-handoff': c.handoffId,
          'data-focus-key': `${c.key}\n${a}`,
          'aria-label': `${labelOf(a)} ${c.handoffId}: ${c.summary}`,
          title: hintOf(a) ? `${labelOf(a)}: ${hintOf(a)}` : labelOf(a),
        },
        labelOf(a),
      ),
    );
    return el(
      'li',
      { class: `card status-${c.status}${c.stale ? ' stale' : ''}`, 'data-handoff': c.handoffId },
      el(
        'div',
        { class: 'card-head' },
        el('span', { class: 'id' }, c.handoffId),
        el('span', { class: 'badge' }, c.status.replace(/_/g, ' ')),
        c.priority ? el('span', { class: 'badge priority' }, c.priority) : null,
      ),
      el('p', { class: 'summary' }, c.summary),
      el('p', { class: 'meta' }, `${c.from} → ${c.to || '(unassigned)'} · ${c.ownerMode}${c.claimedBy ? ` · held by ${c.claimedBy}` : ''}`),
      c.stale ? el('p', { class: 'warning' }, `Stale: ${c.stale}`) : null,
      c.chained.length ? el('p', { class: 'meta' }, `Passed on: ${c.chained.join(', ')}`) : null,
      buttons.length ? el('div', { class: 'actions' }, ...buttons) : null,
      c.refusal ? el('p', { class: 'refusal', role: 'alert' }, c.refusal) : null,
    );
  }

  function group(folder, g) {
    const id = `g-${folder.index}-${g.group}`;
    const body = g.cards.length
      ? el('ul', { class: 'cards', 'aria-labelledby': id }, ...g.cards.map((c) => card(folder, c)))
      : el('p', { class: 'empty' }, 'Nothing here.');
    const head = el('h2', { id }, g.label, ' ', el('span', { class: 'count' }, String(g.count)));
    // The catch-all group is folded away, like the tree leaves it collapsed.
    if (g.group === 'other') return el('details', { class: 'group', 'data-group': g.group }, el('summary', {}, head), body);
    return el('section', { class: 'group', 'data-group': g.group }, head, body);
  }

  function sessions(folder) {
    const items = [
      ...folder.sessions.map((s) =>
        el(
          'li',
          {},
          `${s.agent}${s.mine ? ' (you)' : ''}: ${s.goal}`,
          el('span', { class: 'meta' }, ` · since ${when(s.startedAt)}${s.handoffId ? ` · on ${s.handoffId}` : ''}`),
        ),
      ),
      ...folder.leases.map((l) =>
        el(
          'li',
          { class: l.expired ? 'warning' : '' },
          `${l.handoffId} leased to ${l.holder}${l.mine ? ' (you)' : ''}`,
          el('span', { class: 'meta' }, l.expired ? ` · expired ${when(l.until)}` : ` · until ${when(l.until)}`),
        ),
      ),
    ];
    return el(
      'section',
      { class: 'group', 'data-group': 'sessions' },
      el('h2', {}, 'Active sessions and leases'),
      items.length ? el('ul', { class: 'plain' }, ...items) : el('p', { class: 'empty' }, 'No active session, no lease.'),
    );
  }

  function health(folder) {
    const h = folder.health;
    const body = h
      ? el(
          'ul',
          { class: 'plain' },
          ...h.checks.map((c) =>
            el(
              'li',
              { title: c.output || c.status },
              `${c.label}: `,
              el('span', { class: `health health-${c.status.replace(/\s+/g, '-').toLowerCase()}` }, c.status),
            ),
          ),
          h.at ? el('li', { class: 'meta' }, `at ${when(h.at)}${h.agent ? ` (End Session by ${h.agent})` : ''}`) : null,
        )
      : el('p', { class: 'empty' }, 'No health checks yet: End Session runs them.');
    return el('section', { class: 'group', 'data-group': 'health' }, el('h2', {}, 'Last health'), body);
  }

  function folderView(folder, multi) {
    const parts = [];
    if (multi) parts.push(el('h1', {}, folder.name));
    if (!folder.initialized)
      parts.push(el('p', { class: 'empty' }, 'Not an AgentSync workspace yet: run "AgentSync: Initialize Workspace".'));
    if (folder.problem) parts.push(el('p', { class: 'refusal', role: 'alert' }, folder.problem));
    if (folder.initialized) parts.push(...folder.groups.map((g) => group(folder, g)), sessions(folder), health(folder));
    return el('div', { class: 'folder' }, ...parts);
  }

  /** The button pressed last: disabling it drops its focus, which the next drawing gives back (or to its card). */
  let pressed = null;

  function render(model) {
    buttons = model.buttons || {};
    const focused = (document.activeElement && document.activeElement.getAttribute('data-focus-key')) || pressed;
    pressed = null;
    const parts = [el('p', { class: 'meta who' }, `Acting as ${model.me}`)];
    if (model.identityProblem) parts.push(el('p', { class: 'refusal', role: 'alert' }, model.identityProblem));
    if (!model.trusted) parts.push(el('p', { class: 'warning' }, 'Restricted Mode: the drop zone and health checks are off.'));
    if (!model.folders.length) parts.push(el('p', { class: 'empty' }, 'Open a folder to hand work between agents with AgentSync.'));
    model.folders.forEach((f, index) => parts.push(folderView({ ...f, index }, model.folders.length > 1)));
    // Keep what the user had open and focused across the redraw.
    const open = new Set([...root.querySelectorAll('details[open]')].map((d) => d.getAttribute('data-group')));
    root.replaceChildren(...parts);
    for (const d of root.querySelectorAll('details')) if (open.has(d.getAttribute('data-group'))) d.setAttribute('open', '');
    if (focused) {
      const keys = [...root.querySelectorAll('[data-focus-key]')];
      const card = focused.slice(0, focused.lastIndexOf('\n') + 1);
      const again =
        keys.find((n) => n.getAttribute('data-focus-key') === focused) ||
        keys.find((n) => n.getAttribute('data-focus-key').startsWith(card));
      if (again instanceof HTMLElement) again.focus();
    }
  }

  window.addEventListener('message', (event) => {
    const m = event.data;
    if (!m || m.type !== 'model') return;
    render(m.model);
    vscode.postMessage({ type: 'rendered', seq: m.seq });
  });

  root.addEventListener('click', (event) => {
    const b = event.target instanceof Element ? event.target.closest('button[data-action]') : null;
    if (!(b instanceof HTMLButtonElement) || b.disabled) return;
    pressed = b.getAttribute('data-focus-key');
    b.disabled = true; // until the next model arrives: one press, one request
    b.setAttribute('aria-busy', 'true');
    vscode.postMessage({ type: 'act', action: b.dataset.action, folder: b.dataset.folder, handoffId: b.dataset.handoff });
  });

  vscode.postMessage({ type: 'ready' });
})();
