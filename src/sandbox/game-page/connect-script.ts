/**
 * `/_sandbox/connect.js`: the one script the sandbox adds at the top of every HTML page of a game it
 * serves (and that a game served elsewhere includes itself), so that a game written against the
 * platform's SDK runs against the sandbox unchanged (docs/PLATFORM.md, "Requests as the SDK builds them"
 * and "The game page around the game"):
 *
 * - requests for the platform's hosts (production, stage, dev) go to the sandbox instead: `fetch`
 *   and `XMLHttpRequest` are wrapped before the SDK's own script runs, since the SDK takes its
 *   reference to `fetch` when it loads;
 * - `document.domain = "armorgames.com"` (the first line of the SDK README's snippet) is made
 *   harmless: anywhere but the platform a browser throws on it and the game never starts;
 * - in a game loaded from another origin (the play page's `?direct=1`, a dev server that is not
 *   proxied), `parent` cannot be read across origins, so `parent` is replaced (it is a
 *   [Replaceable] attribute) by a stand-in whose `apiAuth` and `agi.v2` talk to the play page by
 *   postMessage, to the play page's one origin (the one its hello came from).
 *
 * Plain browser JavaScript kept as a string, so `tsc` ships it (as the dashboard's script).
 */
export const CONNECT_JS = String.raw`'use strict';
(function () {
  if (window.__udcliSandboxConnected) return;
  window.__udcliSandboxConnected = true;

  var script = document.currentScript;
  var sandbox = script && script.src ? new URL(script.src, location.href).origin : location.origin;
  var PLATFORM_HOSTS = ['services.armorgames.com', 'services-stage.armorgames.com', 'dev.services.armorgames.com'];
  /* The play page around the game: the sandbox's origin, or, when that is a loopback name, that
     port on any of them. A studio's page names the sandbox one way (localhost:8787), while a
     browser sees the play page at sandbox.localhost, the site of the games the sandbox serves. */
  var LOOPBACK = ['localhost', '127.0.0.1', '[::1]', 'sandbox.localhost'];
  var parents = [sandbox];
  try {
    var own = new URL(sandbox);
    if (LOOPBACK.indexOf(own.hostname) !== -1) {
      parents = LOOPBACK.map(function (name) { return own.protocol + '//' + name + (own.port ? ':' + own.port : ''); });
    }
  } catch (error) {
    parents = [sandbox];
  }

  /* The sandbox's URL for a request to one of the platform's hosts; anything else unchanged. */
  function routed(url) {
    var text = typeof url === 'string' ? url : url instanceof URL ? url.href : null;
    if (text === null) return null;
    var parsed;
    try {
      parsed = new URL(text, location.href);
    } catch (error) {
      return null;
    }
    if (PLATFORM_HOSTS.indexOf(parsed.hostname.toLowerCase()) === -1) return null;
    return sandbox + parsed.pathname + parsed.search + parsed.hash;
  }

  var realFetch = window.fetch;
  if (typeof realFetch === 'function') {
    window.fetch = function fetch(input, init) {
      if (typeof Request === 'function' && input instanceof Request) {
        var to = routed(input.url);
        if (to !== null) input = new Request(to, input);
      } else {
        var target = routed(input);
        if (target !== null) input = target;
      }
      return realFetch.call(window, input, init);
    };
  }
  var realOpen = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function open(method, url) {
    var args = Array.prototype.slice.call(arguments);
    var target = routed(url);
    if (target !== null) args[1] = target;
    return realOpen.apply(this, args);
  };

  /* The platform's page and game are one site there; here the game is served by the sandbox. */
  try {
    Object.defineProperty(document, 'domain', {
      configurable: true,
      get: function () { return location.hostname; },
      set: function () {},
    });
  } catch (error) {
    /* An older browser keeps its own document.domain: the game's assignment may throw there. */
  }

  var realParent = window.parent;
  if (realParent === window) return;
  var reachable = false;
  try {
    reachable = realParent.document !== undefined;
  } catch (error) {
    reachable = false;
  }
  if (reachable) return;

  /* A cross-origin frame: a stand-in parent that relays agi.v2 to the play page. */
  var callbacks = {};
  var stand = {};
  /* The play page's one origin, once known: every message goes there alone. Posting to each
     loopback name it might have made the browser log a warning for every name it did not have. */
  var parentOrigin = null;
  var post = function (message) {
    if (parentOrigin === null) return;
    message.udcliPlatform = 1;
    try {
      realParent.postMessage(message, parentOrigin);
    } catch (error) {
      realParent.postMessage(JSON.parse(JSON.stringify(message)), parentOrigin);
    }
  };
  var call = function (name, args) { post({ kind: 'call', call: name, args: args }); };
  window.addEventListener('message', function (event) {
    if (event.source !== realParent || parents.indexOf(event.origin) === -1) return;
    var data = event.data;
    if (!data || data.udcliPlatform !== 1) return;
    if (data.kind === 'hello' && !stand.agi) {
      parentOrigin = event.origin;
      stand.apiAuth = data.apiAuth;
      stand.agi = {
        v2: {
          setVendor: function (vendor) { call('setVendor', [String(vendor)]); },
          setVendorElement: function () { call('setVendorElement', []); },
          sendMessage: function (message) { call('sendMessage', [message]); },
          _registerCallback: function (name, callback) {
            callbacks[name] = callback;
            call('_registerCallback', [String(name)]);
          },
        },
      };
    } else if (data.kind === 'callback' && typeof callbacks[data.name] === 'function') {
      callbacks[data.name].apply(null, data.args);
    }
  });
  try {
    window.parent = stand;
  } catch (error) {
    /* parent is [Replaceable]; a browser that refuses keeps the real one. */
  }
  /* No hello from here: this frame cannot tell which loopback name the page has, and a message to
     a name it does not have is a console warning. The page says hello when this frame has loaded. */
})();
`;
