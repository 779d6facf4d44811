/**
 * `/_sandbox/platform.js`: what the platform's game page gives the game in its iframe
 * (docs/PLATFORM.md, "The game page around the game"): `window.apiAuth` (the player chosen on the page,
 * a fresh token, the game) and `window.agi.v2` (`setVendor`, `setVendorElement`, `sendMessage`,
 * `_registerCallback`). Through `sendMessage` the game opens the store (`showStorefront`: one
 * product, or every active product of the game; "Buy" grants it through the sandbox's own API, a
 * real change in the request log, then calls the purchase handler exactly as the platform does),
 * closes it (`hideStorefront`) and reports quest progress (`questUpdate`: a notice for the player).
 * An unlockable the player holds is bought once and held forever (docs/PLATFORM.md, "Products"): its
 * Buy is disabled and says "Owned". The store is a fixed dialog whose product list scrolls, so
 * its Close stays in view however many products there are. The game's frame is resizable by its
 * corner (docs/PLATFORM.md says nothing of a game sizing it); this browser keeps the size per game.
 * Every call the game makes through `agi.v2` is told to `/_sandbox/agi`, so it shows in the request
 * log and the dashboard's live log. A game in a cross-origin frame reaches the same objects through
 * the stand-in `parent` of `/_sandbox/connect.js` (postMessage).
 *
 * Runs in the page's <head>, before the game's iframe exists. Values from the sandbox reach the
 * page as text, never as HTML. Kept as a string so `tsc` ships it. Its calls are rows of the endpoint
 * table (src/domain/endpoints.ts): their verbs and path templates are written into the script.
 */
import { ENDPOINTS, type EndpointRow } from '../../domain/endpoints.js';
import { API_PREFIX } from '../../domain/types.js';

const call = (row: EndpointRow) => ({ method: row.method, path: row.path });

/** The calls the page makes, as the script reads them. */
const CALLS = {
  listProducts: call(ENDPOINTS.listProducts),
  grantProduct: call(ENDPOINTS.grantProduct),
  listAchievementDefinitions: call(ENDPOINTS.listAchievementDefinitions),
};

export const PLATFORM_JS = String.raw`'use strict';
(function () {
  var data = JSON.parse(document.getElementById('platform-data').textContent);
  var API = ${JSON.stringify(`${API_PREFIX}/`)};
  var CALLS = ${JSON.stringify(CALLS)};
  var auth = data.apiAuth;
  var callbacks = {};
  var $ = function (id) { return document.getElementById(id); };

  function el(tag, attrs) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined) continue;
      node.append(typeof child === 'string' ? child : child);
    }
    return node;
  }

  /* Tells the sandbox's request log what the game asked of the page (best effort). */
  function note(action, detail) {
    var text = '';
    try {
      text = detail === undefined ? '' : JSON.stringify(detail);
    } catch (error) {
      text = '(not serialisable)';
    }
    var body = new URLSearchParams({ action: String(action).slice(0, 64), detail: (text || '').slice(0, 300) });
    fetch('/_sandbox/agi', { method: 'POST', body: body }).catch(function () {});
  }

  /* One of CALLS, its path's element filled in. */
  async function api(call, element, params) {
    var path = call.path.replace(/\{[^}]+\}$/, encodeURIComponent(element)) + '.json';
    var response = await fetch(API + path + '?' + new URLSearchParams(params), { method: call.method, headers: { Accept: 'application/json' } });
    var envelope = null;
    try {
      envelope = await response.json();
    } catch (error) {
      envelope = null;
    }
    if (!response.ok || !envelope || envelope.payload === null || envelope.payload === undefined) {
      throw new Error((envelope && envelope.message) || 'HTTP ' + response.status);
    }
    return envelope.payload;
  }

  function noKey() {
    if (data.apiKey) return false;
    return true;
  }

  function fire(name, event, payload) {
    var callback = callbacks[name];
    if (typeof callback !== 'function') return;
    try {
      callback(event, name, payload);
    } catch (error) {
      console.error('the game\'s ' + name + ' handler threw', error);
    }
  }

  /* The purchase handler's payload, as the platform shapes it (docs/PLATFORM.md). */
  function purchasePayload(product) {
    if (product.type !== 'consumable') return { sku: product.sku, is_consumable: false };
    var colon = product.sku.lastIndexOf(':');
    var base = colon > 0 ? product.sku.slice(0, colon) : product.sku;
    var pack = colon > 0 ? product.sku.slice(colon + 1) : String((product.data && product.data.consumable_qty) || 1);
    return { sku: product.sku, is_consumable: true, sku_base: base, purchase_quantity: pack };
  }

  var store = null;

  // purchase.data: the units of a consumable, true for a held unlockable (the platform's data-objects page).
  function isHeld(entry) {
    var purchase = entry.purchase;
    return Boolean(purchase && purchase.success && purchase.data !== false);
  }

  function heldText(entry) {
    if (!isHeld(entry)) return 'not owned';
    return entry.product.type === 'consumable' ? 'you hold ' + entry.purchase.data + ' units' : 'owned';
  }

  function closeStore() {
    if (store) store.node.remove();
    store = null;
  }

  function cancelStore() {
    var current = store;
    closeStore();
    if (!current) return;
    fire('cancelPurchase', { type: 'cancelPurchase', data: null }, current.single ? purchasePayload(current.single.product) : null);
  }

  async function buy(entry, button) {
    var message = store && store.node.querySelector('.store-message');
    button.disabled = true;
    try {
      var granted = await api(CALLS.grantProduct, auth.user_id, {
        api_key: data.apiKey, game_id: auth.game_id, sku: entry.product.sku, qty: '1',
      });
      closeStore();
      fire('completePurchase', { type: 'completePurchase', data: granted.purchase }, purchasePayload(entry.product));
    } catch (error) {
      button.disabled = false;
      if (message) message.textContent = 'The purchase failed: ' + error.message + '. Nothing was bought.';
    }
  }

  function productRow(entry) {
    var product = entry.product;
    var pack = product.type === 'consumable' && product.data && product.data.consumable_qty ? 'pack of ' + product.data.consumable_qty : '';
    var owned = product.type !== 'consumable' && isHeld(entry);
    var button = owned
      ? el('button', { type: 'button', class: 'buy', disabled: '', title: 'You own this already: an unlockable is bought once.' }, 'Owned')
      : el('button', { type: 'button', class: 'buy' }, 'Buy');
    if (!owned) button.addEventListener('click', function () { buy(entry, button); });
    return el('li', { class: 'product', 'data-sku': product.sku },
      el('div', { class: 'info' }, el('span', { class: 'name' }, product.name), el('span', { class: 'sku' }, product.sku)),
      el('div', { class: 'meta' },
        el('span', { class: 'price' }, '$' + product.price),
        el('span', { class: 'pack' }, pack),
        el('span', { class: 'held' }, heldText(entry))),
      button);
  }

  async function openStore(sku) {
    closeStore();
    var list = el('ul', { class: 'products' });
    var message = el('p', { class: 'store-message', role: 'alert' }, 'Loading…');
    var close = el('button', { type: 'button', id: 'store-close' }, 'Close');
    var node = el('div', { id: 'store', role: 'dialog', 'aria-modal': 'true', 'aria-label': 'Store' },
      el('div', { class: 'store-box' }, el('h2', {}, sku ? 'Store' : 'Store: ' + data.gameName), message, list,
        el('div', { class: 'store-actions' }, close)));
    close.addEventListener('click', cancelStore);
    var mine = { node: node, single: null };
    store = mine;
    $('stage').append(node);
    if (noKey()) {
      message.textContent = 'This game has no api key in the sandbox, so the store cannot list its products.';
      return;
    }
    try {
      var params = { api_key: data.apiKey, game_id: auth.game_id };
      if (sku) params.sku = sku;
      var payload = await api(CALLS.listProducts, auth.user_id, params);
      var entries = Array.isArray(payload) ? payload : [payload];
      if (store !== mine) return;
      if (sku && entries.length === 1) mine.single = entries[0];
      message.textContent = entries.length === 0 ? 'This game has no products on sale.' : '';
      entries.forEach(function (entry) { list.append(productRow(entry)); });
    } catch (error) {
      if (store === mine) message.textContent = 'The store cannot show ' + (sku ? '"' + sku + '"' : 'the products') + ': ' + error.message + '.';
    }
  }

  var questNames = null;
  async function questName(developerId) {
    if (questNames === null && !noKey()) {
      try {
        var defs = await api(CALLS.listAchievementDefinitions, auth.game_id, { api_key: data.apiKey });
        questNames = {};
        defs.forEach(function (d) { questNames[d.developer_id] = d.name; });
      } catch (error) {
        questNames = null;
      }
    }
    return (questNames && questNames[developerId]) || developerId;
  }

  function completedDate(update) {
    var date = update.completed_date;
    return typeof date === 'string' && date !== '' && date.indexOf('0000-00-00') !== 0 ? date : null;
  }

  var noticeTimer = null;
  async function questNotice(envelope) {
    var update = envelope && envelope.payload;
    if (!update || typeof update !== 'object') return;
    var name = await questName(update.developer_id);
    var notice = $('quest-notice');
    notice.textContent = '';
    notice.append(el('span', {},
      el('strong', { class: 'quest-name' }, String(name)),
      el('span', { class: 'quest-progress' }, ' ' + update.percent_complete + '% (' + update.current_value + ')'),
      el('span', { class: 'quest-state' }, update.state === 'Completed' ? ' Quest completed!' : ' ' + update.state),
      // completed_date is "0000-00-00 00:00:00" until completed (the platform's pages): never a date then.
      completedDate(update) ? el('span', { class: 'quest-date' }, ' on ' + completedDate(update) + ' UTC') : null,
      update.score_awarded ? el('span', { class: 'quest-score' }, ' +' + update.score_awarded + ' points') : null));
    notice.hidden = false;
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(function () { notice.hidden = true; }, 8000);
  }

  window.apiAuth = { user_id: auth.user_id, auth_token: auth.auth_token, game_id: auth.game_id };
  window.agi = {
    v2: {
      setVendor: function (vendor) { note('setVendor', vendor); },
      setVendorElement: function () { note('setVendorElement'); },
      sendMessage: function (message) {
        var action = message && message.action;
        note(typeof action === 'string' ? action : 'sendMessage', message && message.payload);
        if (action === 'showStorefront') openStore(message.payload && message.payload.sku);
        else if (action === 'hideStorefront') closeStore();
        else if (action === 'questUpdate') questNotice(message.payload);
      },
      _registerCallback: function (name, callback) {
        note('_registerCallback', name);
        callbacks[name] = callback;
      },
    },
  };

  /* The page speaks first, on every load of the game's frame, to the game's own origin (the frame's
     src): the frame cannot tell which loopback name this page has, and a message to an origin the
     frame does not have is a console warning. Load events do not bubble: captured. */
  document.addEventListener('load', function (event) {
    var frame = $('game');
    if (!frame || event.target !== frame || !frame.contentWindow) return;
    var origin;
    try { origin = new URL(frame.src, location.href).origin; } catch (error) { return; }
    if (origin === 'null') return;
    frame.contentWindow.postMessage({ udcliPlatform: 1, kind: 'hello', apiAuth: window.apiAuth }, origin);
  }, true);

  /* A game in a cross-origin frame: its connect.js stand-in relays here. */
  window.addEventListener('message', function (event) {
    var frame = $('game');
    if (!frame || event.source !== frame.contentWindow) return;
    var message = event.data;
    if (!message || message.udcliPlatform !== 1) return;
    var reply = function (answer) {
      answer.udcliPlatform = 1;
      frame.contentWindow.postMessage(answer, event.origin);
    };
    if (message.kind === 'call' && Array.isArray(message.args)) {
      var v2 = window.agi.v2;
      if (message.call === '_registerCallback') {
        var name = String(message.args[0]);
        v2._registerCallback(name, function (evt, eventName, payload) { reply({ kind: 'callback', name: name, args: [evt, eventName, payload] }); });
      } else if (message.call === 'setVendor' || message.call === 'setVendorElement' || message.call === 'sendMessage') {
        v2[message.call].apply(null, message.args);
      }
    }
  });
  document.addEventListener('keydown', function (event) {
    if (event.key === 'Escape' && store) cancelStore();
  });

  /* The frame's size: the CSS resize handle sets the box's inline size; kept per game in this browser. */
  var SIZE_KEY = 'udcli-frame-size:' + auth.game_id;
  function storage() {
    try { return window.localStorage; } catch (error) { return null; }
  }
  function sizeFrame() {
    var box = $('frame-box');
    if (!box) return;
    var kept = storage();
    var saved = null;
    try { saved = kept && JSON.parse(kept.getItem(SIZE_KEY) || 'null'); } catch (error) { saved = null; }
    if (saved && typeof saved.width === 'number' && typeof saved.height === 'number') {
      box.style.width = Math.max(240, Math.round(saved.width)) + 'px';
      box.style.height = Math.max(240, Math.round(saved.height)) + 'px';
    }
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(function () {
        // Only a size the player set (the handle writes it inline), not the page following the window.
        if (!box.style.width && !box.style.height) return;
        try { if (kept) kept.setItem(SIZE_KEY, JSON.stringify({ width: box.offsetWidth, height: box.offsetHeight })); } catch (error) { /* full or refused */ }
      }).observe(box);
    }
    var reset = $('frame-reset');
    if (reset) reset.addEventListener('click', function () {
      box.style.width = '';
      box.style.height = '';
      try { if (kept) kept.removeItem(SIZE_KEY); } catch (error) { /* refused */ }
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', sizeFrame);
  else sizeFrame();
})();
`;
