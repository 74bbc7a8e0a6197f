// Kestrel RPC web console. Everything shown is put into the page as text (textContent, text nodes),
// never parsed as markup: service, method, application and attachment names come from the network.
'use strict';

const pages = { services: showServices, registry: showRegistry, connections: showConnections,
  calls: showCalls, invoke: showInvoke };
const REFRESH_MS = 3000;
let overview = null;
let timer = null;

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.substring(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

function table(id, headers, rows) {
  return el('table', { id },
    el('thead', {}, el('tr', {}, headers.map(h => el('th', {}, h)))),
    el('tbody', {}, rows.length ? rows : [el('tr', {}, el('td', { colspan: headers.length, class: 'muted' }, 'none'))]));
}

function num(v, digits) {
  return el('td', { class: 'num' }, v === null || v === undefined ? '' : (digits === undefined ? String(v) : Number(v).toFixed(digits)));
}

function badge(text, kind) {
  return el('span', { class: 'badge ' + kind }, text);
}

function when(ms) {
  return ms ? new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : '';
}

function notice(text, kind) {
  const box = document.getElementById('notice');
  box.replaceChildren(text ? el('p', { class: kind, id: 'notice-text' }, text) : '');
}

async function getJson(path) {
  const r = await fetch(path, { headers: { Accept: 'application/json' } });
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || ('HTTP ' + r.status));
  return body;
}

async function postJson(path, body) {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
  const token = document.getElementById('token').value.trim();
  if (token) headers.Authorization = 'Bearer ' + token;
  const r = await fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
  const answer = await r.json();
  if (!r.ok) throw new Error('HTTP ' + r.status + ': ' + (answer.error || ''));
  return answer;
}

function confirmDialog(text) {
  const dialog = document.getElementById('confirm');
  document.getElementById('confirm-text').textContent = text;
  return new Promise(resolve => {
    const yes = document.getElementById('confirm-yes');
    const no = document.getElementById('confirm-no');
    const done = answer => { yes.onclick = null; no.onclick = null; dialog.close(); resolve(answer); };
    yes.onclick = () => done(true);
    no.onclick = () => done(false);
    dialog.showModal();
  });
}

function summary(items) {
  return el('div', { class: 'summary', id: 'summary' }, items.map(([k, v]) => el('div', {}, el('b', {}, k), String(v))));
}

async function showServices(main) {
  const o = overview;
  const s = await getJson('api/services');
  const mutations = o.console.mutations;
  const exported = s.exported.map(v => el('tr', { 'data-service': v.service },
    el('td', {}, v.service), el('td', {}, v.address),
    el('td', {}, v.online ? badge('online', 'ok') : badge('offline', 'warn')),
    num(v.weight), el('td', {}, v.serializations.join(', ')), el('td', {}, v.methods.join(', ')),
    el('td', {}, el('button', { type: 'button', class: 'toggle', title: mutations ? '' :
        'read-only: set rpc.console.allow-mutations=true and rpc.console.token',
      onclick: () => toggle(v) }, v.online ? 'Take offline' : 'Bring online'))));
  const referenced = s.referenced.map(v => el('tr', { 'data-service': v.service },
    el('td', {}, v.service), el('td', {}, v.source),
    el('td', {}, v.providers.map(p => el('div', {}, p.address + ' ',
      badge(p.state, p.state === 'READY' ? 'ok' : 'warn'), ' weight ' + p.effectiveWeight + '/' + p.weight)))));
  main.replaceChildren(
    summary([['registry', o.registry.address ? o.registry.address + ' (' + o.registry.state + ')' : 'none (direct)'],
      ['server', o.server.accepting ? 'port ' + o.server.port : 'not serving'],
      ['consumer connections', o.server.connections], ['in-flight calls', o.server.inFlightCalls],
      ['provider connections', o.client.connections], ['pending calls', o.client.pendingCalls],
      ['invoke', o.console.invoke ? 'allowed with token' : 'off'],
      ['offline/online', mutations ? 'allowed with token' : 'off']]),
    el('h2', {}, 'Exported here'),
    table('exported', ['service', 'address', 'registry', 'weight', 'serializations', 'methods', ''], exported),
    el('h2', {}, 'Referenced here'),
    table('referenced', ['service', 'providers from', 'providers (connection state, weight now/published)'], referenced));
}

async function toggle(v) {
  const goOffline = v.online;
  const ok = await confirmDialog(goOffline
    ? 'Take ' + v.service + ' at ' + v.address + ' offline? It is removed from the registry; consumers stop choosing it.'
    : 'Bring ' + v.service + ' at ' + v.address + ' back online? It is registered again.');
  if (!ok) return;
  try {
    const r = await postJson(goOffline ? 'api/offline' : 'api/online', { service: v.service });
    notice(r.service + ' is now ' + (r.online ? 'online' : 'offline'), 'info');
  } catch (e) {
    notice(e.message, 'error');
  }
  refresh();
}

async function showRegistry(main) {
  const r = await getJson('api/registry');
  const parts = [el('h2', {}, 'Providers and consumers in ' + (r.registry || 'no registry (direct mode)'))];
  r.services.forEach((s, i) => {
    parts.push(el('h3', {}, s.service));
    parts.push(el('h4', {}, 'Providers'));
    if (s.providersError) parts.push(el('p', { class: 'muted' }, 'providers: ' + s.providersError));
    else parts.push(table('providers-' + i, ['address', 'application', 'weight', 'serializations', 'started', 'pid', 'version'],
      s.providers.map(p => el('tr', {}, el('td', {}, p.address), el('td', {}, p.application || ''), num(p.weight),
        el('td', {}, p.serializations.join(', ')), el('td', {}, when(p.startTime)), el('td', {}, p.pid || ''),
        el('td', {}, p.version || '')))));
    parts.push(el('h4', {}, 'Consumers'));
    if (s.consumersError) parts.push(el('p', { class: 'muted' }, 'consumers: ' + s.consumersError));
    else parts.push(table('consumers-' + i, ['host', 'application', 'started', 'pid'],
      s.consumers.map(c => el('tr', {}, el('td', {}, c.host), el('td', {}, c.application || ''),
        el('td', {}, when(c.startTime)), el('td', {}, c.pid || '')))));
  });
  if (!r.services.length) parts.push(el('p', { class: 'muted' }, 'This runtime exports and refers nothing.'));
  main.replaceChildren(...parts);
}

async function showConnections(main) {
  const c = await getJson('api/connections');
  main.replaceChildren(
    el('h2', {}, 'Connections to providers'),
    table('connections', ['provider', 'state', 'pending calls', 'open streams'], c.client.map(x => el('tr', {},
      el('td', {}, x.address), el('td', {}, badge(x.state, x.state === 'READY' ? 'ok' : 'warn')), num(x.pendingCalls),
      num(x.openStreams)))),
    el('h2', {}, 'This runtime\'s server'),
    summary([['accepting', c.server.accepting], ['consumer connections', c.server.connections],
      ['in-flight calls', c.server.inFlightCalls], ['open streams', c.server.openStreams],
      ['business threads busy', c.server.businessThreadsActive],
      ['queued', c.server.businessQueue], ['pending calls (as consumer)', c.pendingCalls]]));
}

async function showCalls(main) {
  const c = await getJson('api/calls');
  main.replaceChildren(
    el('h2', {}, 'Calls in the last ' + c.windowSeconds + ' s'),
    table('calls', ['side', 'service', 'method', 'calls', 'errors', 'calls/s', 'error rate', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms',
      'open streams', 'messages in', 'messages out'],
      c.methods.map(m => el('tr', { 'data-method': m.method }, el('td', {}, m.side), el('td', {}, m.service),
        el('td', {}, m.method), num(m.calls), num(m.errors), num(m.ratePerSecond, 2),
        el('td', { class: 'num' }, (m.errorRate * 100).toFixed(1) + ' %'), num(m.p50Millis, 3),
        num(m.p90Millis, 3), num(m.p99Millis, 3), num(m.maxMillis, 3),
        num(m.openStreams), num(m.messagesIn), num(m.messagesOut)))), // blank for unary methods
    c.untrackedCalls ? el('p', { class: 'muted' }, c.untrackedCalls + ' calls of methods beyond the tracked limit') : '');
}

async function showInvoke(main) {
  const s = await getJson('api/services');
  const keys = [...new Set(s.referenced.map(v => v.service).concat(s.exported.map(v => v.service)))].sort();
  const serviceSelect = el('select', { id: 'invoke-service' }, keys.map(k => el('option', { value: k }, k)));
  const methodSelect = el('select', { id: 'invoke-method' });
  const params = el('div', { id: 'invoke-params' });
  const result = el('pre', { id: 'invoke-result', class: 'muted' }, 'No call yet.');
  let methods = [];
  const showParams = () => {
    const m = methods[methodSelect.selectedIndex];
    params.replaceChildren(...(m ? m.parameters.map((p, i) => el('div', { class: 'param' },
      el('label', { for: 'arg-' + i }, (p.name || 'arg' + i) + ' : ' + p.type),
      el('textarea', { id: 'arg-' + i, spellcheck: 'false' }, JSON.stringify(p.skeleton, null, 2)))) : []));
  };
  const loadMethods = async () => {
    methods = [];
    methodSelect.replaceChildren();
    try {
      const d = await getJson('api/methods?service=' + encodeURIComponent(serviceSelect.value));
      methods = d.methods;
      methods.forEach((m, i) => methodSelect.append(el('option', { value: String(i) }, m.signature)));
    } catch (e) {
      result.className = 'error';
      result.textContent = e.message;
    }
    showParams();
  };
  serviceSelect.addEventListener('change', loadMethods);
  methodSelect.addEventListener('change', showParams);
  const run = async () => {
    const m = methods[methodSelect.selectedIndex];
    if (!m) return;
    let args;
    try {
      args = m.parameters.map((p, i) => JSON.parse(document.getElementById('arg-' + i).value));
    } catch (e) {
      result.className = 'error';
      result.textContent = 'Not JSON: ' + e.message;
      return;
    }
    result.className = 'muted';
    result.textContent = 'Calling...';
    try {
      const r = await postJson('api/invoke', { service: serviceSelect.value, method: m.name,
        parameterTypes: m.parameters.map(p => p.type), arguments: args });
      result.className = r.outcome === 'ok' ? '' : 'error';
      result.textContent = r.outcome === 'ok'
        ? 'OK in ' + r.elapsedMillis + ' ms\n' + JSON.stringify(r.result, null, 2)
        : r.outcome + ' after ' + r.elapsedMillis + ' ms: ' + r.exception + ': ' + r.message;
    } catch (e) {
      result.className = 'error';
      result.textContent = e.message;
    }
  };
  main.replaceChildren(el('h2', {}, 'Invoke a method'),
    el('p', { class: 'muted' }, overview && !overview.console.invoke
      ? 'Invocation is off: set rpc.console.allow-invoke=true and rpc.console.token.'
      : 'Arguments are JSON; the provider converts them to the declared types.'),
    el('div', {}, el('label', {}, 'Service ', serviceSelect), ' ', el('label', {}, 'Method ', methodSelect)),
    params, el('button', { type: 'button', id: 'invoke-run', onclick: run }, 'Invoke'), el('h3', {}, 'Result'), result);
  if (keys.length) await loadMethods();
}

function current() {
  const name = location.hash.replace('#', '');
  return pages[name] ? name : 'services';
}

async function refresh() {
  const name = current();
  document.querySelectorAll('nav a').forEach(a => a.classList.toggle('active', a.id === 'nav-' + name));
  const main = document.getElementById('main');
  try {
    overview = await getJson('api/overview');
    document.getElementById('app').textContent = overview.application ? '- ' + overview.application : '';
    await pages[name](main);
    main.setAttribute('data-page', name);
    main.setAttribute('data-loaded', String(Date.now()));
  } catch (e) {
    notice('Cannot load ' + name + ': ' + e.message, 'error');
  }
}

function schedule() {
  clearInterval(timer);
  // the invoke page is not refreshed: it would wipe what the user typed
  if (current() !== 'invoke') timer = setInterval(refresh, REFRESH_MS);
}

window.addEventListener('hashchange', () => { notice(''); refresh(); schedule(); });
window.addEventListener('DOMContentLoaded', () => {
  const token = document.getElementById('token');
  token.value = sessionStorage.getItem('kestrel-console-token') || '';
  token.addEventListener('change', () => sessionStorage.setItem('kestrel-console-token', token.value.trim()));
  refresh();
  schedule();
});
