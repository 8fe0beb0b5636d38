// A dropped connection never stops the table (progressive enhancement: without this file,
// or without JavaScript, the pages work online as before).
//
// - The service worker (/sw.js) keeps the pages this device opened and answers for them
//   offline; it is registered here.
// - Offline, the page says so, with the time of the table it shows (#offline-panel).
// - A move made offline (a form of a live region, sent through htmx) waits in IndexedDB,
//   with its idempotency key and the version it was made on, and is sent when the
//   connection is back, in the order made. A move this device made is no news to it: the
//   next waiting move made on the same version is sent on the version the first one made.
// - A move the server does not take (the table moved on, or a rule) stays on this device
//   with its values and the server's reason, to put back in its form or to drop; the live
//   region shows the server's answer, as for a refusal online. Nothing is sent twice: the
//   server runs an idempotency key once, and a key already sent is never reused.
(function () {
  "use strict";
  var forms = window.babelForms;
  var panel = null;
  var state = { offline: false, asOf: null, sending: false, moves: [] };

  // --- the device's store ------------------------------------------------------------
  var MOVES = "moves", SENT = "sent";
  var opening = null;
  function database() {
    if (!opening) {
      opening = new Promise(function (resolve, reject) {
        var request = indexedDB.open("babel-table", 1);
        request.onupgradeneeded = function () {
          request.result.createObjectStore(MOVES, { keyPath: "id", autoIncrement: true });
          request.result.createObjectStore(SENT, { keyPath: "key" });
        };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { reject(request.error); };
      });
    }
    return opening;
  }
  // One transaction on one store: work(store) returns the request whose result is wanted.
  function stored(name, mode, work) {
    return database().then(function (db) {
      return new Promise(function (resolve, reject) {
        var transaction = db.transaction(name, mode), request = work(transaction.objectStore(name));
        transaction.oncomplete = function () { resolve(request ? request.result : undefined); };
        transaction.onerror = function () { reject(transaction.error); };
      });
    });
  }
  function load() {
    return stored(MOVES, "readonly", function (store) { return store.getAll(); }).then(function (moves) {
      state.moves = moves;
      show();
    });
  }
  function save(move) {
    return stored(MOVES, "readwrite", function (store) { return store.put(move); }).then(load);
  }
  function forget(move) {
    return stored(MOVES, "readwrite", function (store) { return store.delete(move.id); });
  }
  function wasSent(key) {
    return stored(SENT, "readonly", function (store) { return store.get(key); }).then(Boolean);
  }
  function sent(key) {
    return stored(SENT, "readwrite", function (store) { return store.put({ key: key, at: Date.now() }); });
  }
  function waiting() {
    return state.moves.filter(function (move) { return move.state === "waiting"; });
  }

  // --- queueing a move ---------------------------------------------------------------
  var SENT_WITH = "idempotency_key";
  function field(fields, name) {
    for (var i = 0; i < fields.length; i++) if (fields[i][0] === name) return fields[i][1];
    return null;
  }
  function freshKey() {
    return window.crypto && crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random();
  }

  // The words a person recognises the move by: the button pressed and what was typed.
  function described(form) {
    var button = form.lastSubmitter, values = [];
    Array.prototype.forEach.call(form.elements, function (input) {
      if (input.type === "hidden" || input.type === "submit" || input.tagName === "BUTTON" || input.disabled) return;
      var name = (input.labels && input.labels[0] ? input.labels[0].textContent : input.getAttribute("aria-label") || input.name || "")
        .trim().replace(/\s*:$/, ""); // Django's label suffix
      if (input.type === "checkbox" || input.type === "radio") {
        if (input.checked) values.push(name);
      } else if (input.tagName === "SELECT") {
        if (input.value !== "") values.push(name + ": " + input.options[input.selectedIndex].text.trim());
      } else if (input.value !== "") {
        values.push(name + ": " + input.value);
      }
    });
    // A button's name as a screen reader says it: a drawn one (a cube's picture) has its aria-label.
    var label = button ? (button.getAttribute("aria-label") || button.textContent || button.value || "").trim() : "";
    return { label: label || panel.getAttribute("data-a-move"), values: values };
  }

  function queue(form, config) {
    var fields = [];
    config.formData.forEach(function (value, name) { if (typeof value === "string") fields.push([name, value]); });
    var live = forms.region(form), words = described(form), key = field(fields, SENT_WITH);
    var twin = key && waiting().filter(function (move) { return move.key === key; })[0];
    var move = twin || {
      state: "waiting", made: Date.now(), url: config.path, region: live.id, page: location.pathname,
      version: field(fields, "expected_version"), key: key, form: form.id || "", about: forms.about(form)
    };
    move.fields = fields;
    move.label = words.label;
    move.values = words.values;
    form.removeAttribute("data-dirty");
    form.removeAttribute("data-sending");
    // A second send of the same form is the same move (a double tap); a key this device sent
    // already comes from a page kept from before that send, and would be taken for it.
    var checked = twin || !key ? Promise.resolve(false) : wasSent(key);
    return checked.then(function (reused) {
      if (reused) {
        move.key = freshKey();
        move.fields = fields.map(function (pair) { return pair[0] === SENT_WITH ? [SENT_WITH, move.key] : pair; });
      }
      return save(move);
    });
  }

  // A form of a live region that writes: it names the version it was made on or the move.
  function isMove(elt) {
    return elt && elt.tagName === "FORM" && forms.region(elt) && (elt.method || "").toLowerCase() === "post";
  }
  document.addEventListener("submit", function (event) {
    if (event.target.tagName === "FORM") event.target.lastSubmitter = event.submitter || null;
  }, true);
  // Offline, or behind moves still waiting, a move waits too (the order is kept).
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (!isMove(elt) || !(state.offline || waiting().length)) return;
    event.preventDefault();
    queue(elt, event.detail.requestConfig);
  });
  // A move whose send failed for want of a network waits; if it did reach the server, its
  // key makes the second send the same move.
  document.addEventListener("htmx:sendError", function (event) {
    var elt = event.detail.elt;
    if (!isMove(elt)) return;
    goneOffline(null);
    queue(elt, event.detail.requestConfig);
  });

  // --- sending what waits --------------------------------------------------------------
  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (error) { return ""; }
  }
  function send() {
    if (state.sending || !waiting().length) return;
    state.sending = true;
    show();
    var movedTo = {}; // the version a move of this device was made on -> the one it made
    function next(moves) {
      if (!moves.length) return Promise.resolve();
      var move = moves[0], fields = move.fields.map(function (pair) {
        return pair[0] === "expected_version" && movedTo[pair[1]] ? [pair[0], movedTo[pair[1]]] : pair;
      });
      return fetch(move.url, {
        method: "POST", credentials: "same-origin", body: new URLSearchParams(fields),
        headers: { "HX-Request": "true", "HX-Target": move.region, "HX-Current-URL": location.href, "X-CSRFToken": csrfToken() }
      }).then(function (response) {
        state.offline = false; // the server answered
        if (response.status >= 500 || response.status === 429) throw new Error("later"); // kept, with those after it
        return response.text().then(function (html) {
          return (move.key ? sent(move.key) : Promise.resolve()).then(function () {
            if (response.ok) {
              if (move.version && response.headers.get("Babel-Version")) movedTo[move.version] = response.headers.get("Babel-Version");
              answered(move, html);
              return forget(move);
            }
            move.state = "refused";
            move.reason = reasonIn(html) || panel.getAttribute("data-refused").replace("{status}", response.status);
            answered(move, html);
            return stored(MOVES, "readwrite", function (store) { return store.put(move); });
          });
        });
      }).then(function () { return next(moves.slice(1)); });
    }
    next(waiting()).then(function () {
      state.sending = false;
      return load();
    }, function () {
      state.sending = false;
      goneOffline(null);
      return load();
    }).then(function () {
      var live = document.querySelector("[data-version][hx-get]");
      if (live) htmx.trigger(live, "table-changed");
    });
  }

  // What the server said of a refused move: its messages, as they would show on the page.
  function reasonIn(html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    return Array.prototype.map.call(page.querySelectorAll('[role="alert"]'), function (alert) {
      return alert.textContent.trim();
    }).filter(Boolean).join(" ");
  }
  // The server's answer is the region as the move left it (or as the refusal shows it, with
  // the move's form filled in); a refilled form is kept through the next fetches.
  function answered(move, html) {
    var live = document.getElementById(move.region);
    if (!html || !live || location.pathname !== move.page || html.indexOf('id="' + move.region + '"') < 0) return;
    htmx.swap(live, html, { swapStyle: "morph" }, { contextElement: live });
    live = document.getElementById(move.region);
    if (live) live.querySelectorAll("form").forEach(function (form) {
      if (form.querySelector('[role="alert"]')) form.setAttribute("data-dirty", "true");
    });
  }

  // --- a refused move: back in its form, or dropped --------------------------------------
  var KEYS = ["csrfmiddlewaretoken", "idempotency_key", "expected_version"];
  function formOf(move) {
    if (location.pathname !== move.page) return null;
    var found = move.form && document.getElementById(move.form);
    if (found && found.tagName === "FORM") return found;
    return Array.prototype.filter.call(document.querySelectorAll("[data-version] form"), function (form) {
      return forms.about(form) === move.about;
    })[0] || null;
  }
  function refill(move) {
    var form = formOf(move);
    if (!form) return;
    move.fields.forEach(function (pair) {
      if (KEYS.indexOf(pair[0]) >= 0) return; // the form's own: the version and key it shows now
      Array.prototype.forEach.call(form.elements, function (input) {
        if (input.name !== pair[0] || input.type === "hidden" || input.type === "submit" || input.tagName === "BUTTON") return;
        if (input.type === "checkbox" || input.type === "radio") input.checked = input.value === pair[1];
        else input.value = pair[1];
      });
    });
    form.setAttribute("data-dirty", "true");
    forget(move).then(load);
    var first = form.querySelector("input:not([type=hidden]), select, textarea, button");
    if (first) first.focus();
  }

  // --- online or not -------------------------------------------------------------------
  // The time a server's Date header gives, if it gives one.
  function dated(header) {
    var date = header ? new Date(header) : null;
    return date && !isNaN(date.getTime()) ? date : null;
  }
  function goneOffline(asOf) {
    state.offline = true;
    if (asOf && (!state.asOf || asOf > state.asOf)) state.asOf = asOf;
    show();
  }
  function backOnline() {
    state.offline = false;
    state.asOf = new Date();
    show();
    send();
  }
  function region(elt) {
    return elt && elt.hasAttribute && elt.hasAttribute("data-version") && elt.hasAttribute("hx-get");
  }
  // A live region's fetch tells: no answer, or the answer the worker kept (Babel-Offline,
  // with the time the server gave it), is offline; an answer of the server is online.
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt, xhr = event.detail.xhr;
    if (!region(elt) || !xhr || (event.detail.requestConfig && event.detail.requestConfig.verb !== "get")) return;
    var kept = xhr.getResponseHeader("Babel-Offline");
    if (xhr.status === 0) goneOffline(null);
    else if (kept !== null) goneOffline(dated(kept));
    else if (state.offline || waiting().length) backOnline();
  });
  document.addEventListener("htmx:wsOpen", function () { if (state.offline || waiting().length) backOnline(); });
  window.addEventListener("offline", function () { goneOffline(null); });
  window.addEventListener("online", function () {
    var live = document.querySelector("[data-version][hx-get]");
    if (live) htmx.trigger(live, "table-changed"); // its answer says whether the server is there
    else backOnline();
  });

  // --- what the panel shows --------------------------------------------------------------
  function clock(date) {
    var lang = document.documentElement.lang || undefined;
    var today = new Date().toDateString() === date.toDateString();
    var options = today ? { hour: "2-digit", minute: "2-digit" } : { dateStyle: "short", timeStyle: "short" };
    return new Intl.DateTimeFormat(lang, options).format(date);
  }
  function show() {
    if (!panel) return;
    var status = panel.querySelector("[data-offline-status]"), moves = waiting();
    var refused = state.moves.filter(function (move) { return move.state === "refused"; });
    var hasTable = !!document.querySelector("[data-version]");
    if (state.offline) {
      status.textContent = panel.getAttribute(hasTable ? "data-offline-table" : "data-offline-page")
        .replace("{time}", clock(state.asOf || new Date()));
    } else {
      status.textContent = state.sending ? panel.getAttribute("data-sending") : "";
    }
    var list = panel.querySelector("[data-waiting] ol");
    list.replaceChildren.apply(list, moves.map(function (move) {
      var item = document.createElement("li");
      item.textContent = madeAt(move) + (move.values.length ? " (" + move.values.join(", ") + ")" : "");
      return item;
    }));
    panel.querySelector("[data-waiting]").hidden = !moves.length;
    list = panel.querySelector("[data-refused-moves] ol");
    list.replaceChildren.apply(list, refused.map(refusedItem));
    panel.querySelector("[data-refused-moves]").hidden = !refused.length;
    panel.toggleAttribute("data-refusals", refused.length > 0);
    panel.hidden = !(state.offline || state.sending || moves.length || refused.length);
    holdTheTurn(moves);
  }
  // A move waiting on this device marks its own form, and the controls of its turn (the panel
  // the form stands in) wait with it, disabled until it is sent or refused: a turn's second move
  // cannot be made over a first that the table has not seen yet.
  function holdTheTurn(moves) {
    document.querySelectorAll("[data-held]").forEach(function (control) {
      control.disabled = false;
      control.removeAttribute("data-held");
    });
    document.querySelectorAll("[data-waiting-note]").forEach(function (note) { note.remove(); });
    moves.forEach(function (move) {
      var form = formOf(move);
      if (!form) return;
      var turn = form.closest("[data-my-move], .panel") || form;
      turn.querySelectorAll("form button, form input, form select, form textarea").forEach(function (control) {
        if (control.disabled || control.type === "hidden") return;
        control.disabled = true;
        control.setAttribute("data-held", "");
      });
      var note = document.createElement("p");
      note.className = "waiting-note";
      note.setAttribute("role", "status");
      note.setAttribute("data-waiting-note", "");
      note.textContent = panel.getAttribute("data-waiting-to-send");
      form.prepend(note);
    });
  }
  function madeAt(move) {
    return panel.getAttribute("data-made-at").replace("{move}", move.label).replace("{time}", clock(new Date(move.made)));
  }
  function refusedItem(move) {
    var item = panel.querySelector("template[data-refused-move]").content.firstElementChild.cloneNode(true);
    item.querySelector("[data-what]").textContent = madeAt(move);
    item.querySelector("[data-values]").textContent = move.values.join(", ");
    item.querySelector("[data-reason]").textContent = move.reason;
    var refillButton = item.querySelector("[data-refill]");
    refillButton.hidden = !formOf(move);
    refillButton.addEventListener("click", function () { refill(move); });
    item.querySelector("[data-drop]").addEventListener("click", function () { forget(move).then(load); });
    return item;
  }

  // While moves wait, sending them is tried again every few seconds: with the push socket
  // open, no fetch of the region may come to say that the server answers again (a send can
  // fail while the socket stays up).
  var RETRY_EVERY_MS = 5000;
  setInterval(function () { if (waiting().length) send(); }, RETRY_EVERY_MS);

  function start() {
    panel = document.getElementById("offline-panel");
    var kept = document.documentElement.getAttribute("data-served-offline");
    if (kept !== null) goneOffline(dated(kept)); // a page the worker kept
    else state.asOf = new Date();
    if (navigator.onLine === false) goneOffline(null);
    if (window.indexedDB) load().then(function () { if (!state.offline) send(); });
    // The worker is registered once the page has loaded: its install (Workbox's modules, the
    // shell it keeps) then does not compete with the page's own scripts and files.
    var worker = document.body.getAttribute("data-service-worker");
    if (!worker || !("serviceWorker" in navigator)) return;
    function register() { navigator.serviceWorker.register(worker).catch(function () {}); }
    if (document.readyState === "complete") register();
    else window.addEventListener("load", register);
  }
  document.addEventListener("htmx:afterSettle", show);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
