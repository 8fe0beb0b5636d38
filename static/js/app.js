// Progressive enhancement only: every page works without this file.
//
// A live region (#session on the host's page, #guest on a phone) fetches itself again
// while the table plays and is morphed in place (idiomorph), so that someone else's move
// never takes anything from this device:
// - a form someone has typed into ("dirty") keeps its values, even when the table moved on
//   so far that the server no longer shows it; it is marked stale and its send is checked
//   against the news (a stale send comes back with every value as typed);
// - a <details> panel stays open or closed as the person left it;
// - the focus and the scroll position stay (the element keeps its identity).
// A fetch that brings the same version again (the browser turned a 304 into the cached
// body) is not swapped at all.
(function () {
  "use strict";
  var submitted = null; // the form whose own send is being swapped in: it takes the answer

  function region(element) {
    return element && element.closest && element.closest("[data-version]");
  }

  // A region's version is "<session version>.<night revision>" (sessions/table/live.py).
  function sessionVersion(live) {
    return live.getAttribute("data-version").split(".")[0];
  }

  // A form being filled in: typed into, and neither on its way to the server nor the one
  // whose answer is being swapped in.
  var FILLING = "form[data-dirty]:not([data-sending])";
  function keeps(node) {
    return node.nodeType === 1 && node !== submitted &&
      (node.matches(FILLING) || (!!node.querySelector && !!node.querySelector(FILLING)));
  }

  // What a form is about, besides what is typed: its hidden fields (the disc of an offer,
  // the seat of a sheet), less those that change with every rendering.
  var RENDERING = ["csrfmiddlewaretoken", "idempotency_key", "expected_version"];
  function about(form) {
    return Array.prototype.filter.call(form.querySelectorAll('input[type="hidden"]'), function (input) {
      return RENDERING.indexOf(input.name) < 0;
    }).map(function (input) { return input.name + "=" + input.value; }).sort().join("&");
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.tagName === "FORM" && region(elt)) elt.setAttribute("data-sending", "");
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt, live;
    if (!elt || elt.tagName !== "FORM") return;
    elt.removeAttribute("data-sending");
    // A move taken with no answer to swap (204): what was typed is sent, and the region
    // fetches the table as the move left it, like every other device. Meanwhile the page's
    // other forms, made on the version before the move, stand on the move's version: this
    // device's own move is no news to it (another device's, after it, still makes them stale).
    var xhr = event.detail.xhr;
    if (xhr && xhr.status === 204 && (live = region(elt))) {
      elt.removeAttribute("data-dirty");
      var before = elt.querySelector('input[name="expected_version"]'), after = xhr.getResponseHeader("Babel-Version");
      if (before && after) {
        var from = before.value;
        live.querySelectorAll('input[name="expected_version"]').forEach(function (input) {
          if (input.value === from) input.value = after;
        });
      }
      htmx.trigger(live, "table-changed");
    }
  });

  document.addEventListener("input", markDirty);
  document.addEventListener("change", markDirty);
  function markDirty(event) {
    var form = event.target.form || (event.target.closest && event.target.closest("form"));
    if (form && region(form)) form.setAttribute("data-dirty", "true");
  }

  // The swap runs synchronously between these two events, so a fetch that answers meanwhile
  // cannot mix up whose answer is being swapped.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target, elt = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (!target || !target.hasAttribute("data-version")) return;
    submitted = elt && elt.tagName === "FORM" ? elt : null;
    if (elt !== target) return;
    if (!newer(target, event.detail.serverResponse || "")) event.detail.shouldSwap = false;
  });
  // Whether a region's own fetch brings news: not the version the region shows, nor an older one
  // of the same session (a fetch that left before this device's own move, answered after it,
  // would put back what the move changed: a phone's seat, a form's answer). Versions and the
  // night's revisions only grow.
  function newer(live, html) {
    var version = /data-version="(\d+)\.(\d+)"/.exec(html), session = /data-session="(\d*)"/.exec(html);
    if (!version || !session || session[1] !== live.getAttribute("data-session")) return true;
    var shown = live.getAttribute("data-version").split(".").map(Number);
    var brought = [Number(version[1]), Number(version[2])];
    return brought[0] > shown[0] || brought[1] > shown[1];
  }
  document.addEventListener("htmx:afterSwap", function () {
    submitted = null;
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.target;
    if (target && target.hasAttribute && target.hasAttribute("data-version")) markStale(target);
  });

  // A kept form whose version is older than the region's says so, once.
  function markStale(live) {
    var version = sessionVersion(live);
    live.querySelectorAll("form[data-dirty]").forEach(function (form) {
      var seen = form.querySelector('input[name="expected_version"]');
      var stale = form.hasAttribute("data-orphan") || (seen && seen.value !== version);
      var note = form.querySelector(":scope > .stale-note");
      if (stale && !note) {
        var template = document.getElementById("stale-note");
        if (template) form.prepend(template.content.cloneNode(true));
      }
    });
  }

  // Push: the socket beside a region (htmx's ws extension, which reconnects by itself) says
  // "session N is at version V"; the region then fetches itself once. While the socket is
  // open the every-second fetch is skipped but for one every SAFETY_MS (a 304 when nothing
  // changed), which catches news a broken push layer lost while the socket stayed open; when
  // the socket closes, the every-second fetch takes over again. On
  // every (re)connection the socket's first message says what the region shows now
  // (sessions/table/consumers.py): a region that shows it fetches nothing, one that missed news
  // meanwhile fetches itself once, and so does one that hears nothing in HELLO_MS.
  var HELLO_MS = 2000;
  var SAFETY_MS = 30000;
  function pushed(socket) {
    return document.getElementById(socket.getAttribute("data-push-for"));
  }
  function catchUp(live) {
    clearTimeout(live.helloTimer);
    htmx.trigger(live, "table-changed");
  }
  document.addEventListener("htmx:wsOpen", function (event) {
    var live = pushed(event.target);
    if (!live) return;
    live.setAttribute("data-pushed", "");
    if (!live.fetchedAt) live.fetchedAt = Date.now(); // as the page's load brought it
    clearTimeout(live.helloTimer);
    live.helloTimer = setTimeout(function () { catchUp(live); }, HELLO_MS);
  });
  document.addEventListener("htmx:wsClose", function (event) {
    var live = pushed(event.target);
    if (!live) return;
    live.removeAttribute("data-pushed");
    clearTimeout(live.helloTimer);
  });
  function showsNow(live, now) {
    return String(now.session === null ? "" : now.session) === live.getAttribute("data-session") &&
      now.region === live.getAttribute("data-version");
  }
  // News is "session N is at version V". A region that shows it already does nothing; one
  // whose own form is on its way waits for that form's answer, which brings the table as it
  // is then (one fetch fewer per move for the device that made it); any other fetches itself.
  function current(live, news) {
    return String(news.session) === live.getAttribute("data-session") && news.version !== null &&
      Number(sessionVersion(live)) >= Number(news.version);
  }
  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    event.preventDefault(); // a notice, not HTML to swap
    var live = pushed(event.target), news;
    try { news = JSON.parse(event.detail.message); } catch (error) { return; }
    if (live && news.now) {
      if (showsNow(live, news.now)) clearTimeout(live.helloTimer);
      else catchUp(live);
      return;
    }
    if (!live || current(live, news)) return;
    live.tableNews = news;
    if (!live.querySelector("form[data-sending]")) htmx.trigger(live, "table-changed");
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt, trigger = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
    if (elt && elt.hasAttribute("data-pushed") && !trigger && Date.now() - (elt.fetchedAt || 0) < SAFETY_MS) {
      event.preventDefault(); // the poll, while pushed and not yet due for a safety fetch
    }
  });
  // News that came while the region was fetching itself waited in htmx's queue, where only the
  // last trigger is kept (a poll's tick can take its place and then be skipped), or waited for
  // a form's answer: when a request of the region ends, news that no fetch has gone out for
  // since, and that the answer did not bring, is fetched.
  document.addEventListener("htmx:beforeSend", function (event) {
    var elt = event.detail.elt;
    if (!elt.hasAttribute("data-version")) return;
    elt.tableNews = null;
    elt.fetchedAt = Date.now();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var live = event.detail.target;
    if (!live || !live.hasAttribute || !live.hasAttribute("data-version") || !live.tableNews) return;
    if (current(live, live.tableNews)) live.tableNews = null;
    else htmx.trigger(live, "table-changed");
  });

  // A live fetch's answer carries a ticket (sessions/table/live.py): sent back with the next fetch,
  // it spares the server the full check of who is asking. Only the region's own fetch takes
  // one; any other answer for the region (a form sent, a link followed) drops it, so that the
  // next fetch is checked in full.
  var TICKET = "Babel-Live-Ticket";
  document.addEventListener("htmx:configRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.liveTicket && event.detail.verb === "get" && elt.hasAttribute("data-version")) {
      event.detail.headers[TICKET] = elt.liveTicket;
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var elt = event.detail.elt, xhr = event.detail.xhr, live;
    if (elt && elt.hasAttribute && elt.hasAttribute("data-version")) {
      elt.liveTicket = (xhr && xhr.getResponseHeader(TICKET)) || null;
    } else if ((live = region(event.detail.target))) {
      live.liveTicket = null;
    }
  });

  // A phone's turn: when a panel that asks this phone to act appears (data-my-move says what
  // it asks), the panel is brought into view and focused, the title says so, and the phone
  // vibrates once, unless its switch is off (kept on this device). Someone typing into a form
  // keeps the focus and the scroll: only the title and the vibration tell them.
  var VIBRATE = "babel-vibrate";
  function askedHere(live) {
    var panel = live.querySelector("[data-my-move]");
    return panel ? panel.getAttribute("data-my-move") : null;
  }
  function titleFor(panel) {
    var game = document.querySelector("#guest h1"), heading = panel && panel.querySelector("h2, .msg.success");
    if (!game) return;
    document.title = (heading ? heading.textContent.trim() + " · " : "") + game.textContent.trim();
  }
  function vibrates() { return localStorage.getItem(VIBRATE) !== "off"; }
  function callAttention(live) {
    var panel = live.querySelector("[data-my-move]"), typing = document.activeElement;
    titleFor(panel);
    if (!panel) return;
    if (vibrates() && navigator.vibrate) navigator.vibrate(200);
    if (typing && typing.closest && typing.closest("form[data-dirty]")) return;
    panel.scrollIntoView({ block: "start" });
    panel.focus({ preventScroll: true });
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (target && target.id === "guest") target.askedBefore = askedHere(target);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var live = event.detail.target, asked;
    if (!live || live.id !== "guest" || !("askedBefore" in live)) return;
    asked = askedHere(live);
    if (asked !== live.askedBefore) {
      if (asked) callAttention(live);
      else titleFor(null);
    }
    delete live.askedBefore;
  });
  function vibrateSwitch() {
    var button = document.querySelector("[data-vibrate-switch]");
    if (!button) return;
    button.hidden = !navigator.vibrate;
    button.setAttribute("aria-checked", String(vibrates()));
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-vibrate-switch]");
    if (!button) return;
    localStorage.setItem(VIBRATE, vibrates() ? "off" : "on");
    vibrateSwitch();
  });
  document.addEventListener("htmx:afterSettle", vibrateSwitch);

  // Messages where the eye is. A refused (400) or stale (409) send comes back with its form
  // refilled and the reason on it: the reason is brought into view and focused, so that a
  // screen reader says it. When the form is gone from the table, the reason stays in a notice
  // at the bottom of the screen until it is read. After a move of this device, the focus goes
  // to this device's own panel, or the table's news on the host's page, never into a control
  // that the move handed on to the next player.
  document.addEventListener("htmx:afterRequest", function (event) {
    // The form sent (htmx names its nearest remaining parent as the event's element once the
    // answer has taken the form away).
    var config = event.detail.requestConfig, form = (config && config.elt) || event.detail.elt;
    var live = event.detail.target, xhr = event.detail.xhr;
    if (!form || form.tagName !== "FORM" || !xhr || !live || !live.hasAttribute || !live.hasAttribute("data-version")) return;
    if (xhr.status === 400 || xhr.status === 409) sayWhy(live, form);
    else if (xhr.status === 204) live.focusOwn = true; // once the fetch that follows is in
    else if (xhr.status < 300) focusOwn(live);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var live = event.detail.target;
    if (!live || !live.focusOwn) return;
    live.focusOwn = false;
    focusOwn(live);
  });
  function sayWhy(live, form) {
    var reason = form.isConnected && form.querySelector('[role="alert"]');
    if (reason) {
      reason.setAttribute("tabindex", "-1");
      reason.scrollIntoView({ block: "center" });
      reason.focus({ preventScroll: true });
      return;
    }
    reason = live.querySelector('[role="alert"]');
    if (reason) notice(reason.textContent.trim());
  }
  function notice(text) {
    var template = document.getElementById("notice"), shown = document.querySelector("body > .notice");
    if (!template || !text) return;
    if (shown) shown.remove();
    shown = template.content.firstElementChild.cloneNode(true);
    shown.querySelector("[data-notice-text]").textContent = text;
    document.body.appendChild(shown);
    shown.querySelector("[data-notice-close]").focus({ preventScroll: true });
  }
  document.addEventListener("click", function (event) {
    var close = event.target.closest && event.target.closest("[data-notice-close]");
    if (close) close.closest(".notice").remove();
  });
  function focusOwn(live) {
    var active = document.activeElement;
    if (active && active.closest && active.closest("form[data-dirty]")) return; // someone is typing
    if (active && active !== document.body && active.isConnected && !live.contains(active)) return;
    var own = live.querySelector("[data-my-move]") || document.getElementById("my-panel") || document.getElementById("live");
    if (own) own.focus({ preventScroll: true });
  }

  // The theme switch says "Dark theme" on or off: the server knows a choice made with it;
  // without one the page follows the device, which only the browser knows.
  function themeSwitch() {
    var button = document.querySelector("[data-theme-switch]");
    if (!button || document.documentElement.hasAttribute("data-theme")) return;
    if (window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches) {
      button.setAttribute("aria-checked", "true");
      button.value = "light";
    }
  }

  // The table display keeps its screen on (Screen Wake Lock) and says whether it can; the
  // browser lets the lock go whenever the page is hidden, so it is asked for again on return.
  function keepAwake() {
    var line = document.querySelector("[data-wake-lock]");
    if (!line) return;
    function say(on) { line.textContent = line.getAttribute(on ? "data-on" : "data-off"); }
    function ask() {
      if (!navigator.wakeLock) { say(false); return; }
      navigator.wakeLock.request("screen").then(function () { say(true); }, function () { say(false); });
    }
    ask();
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") ask();
    });
  }

  // The result card's button shares its text through the phone's own share sheet, or copies
  // it where the browser has none; without either it stays hidden (the text is on the page).
  function shareButtons() {
    document.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest("[data-share]");
      if (!button) return;
      var text = button.getAttribute("data-share"), status = button.parentNode.querySelector("[data-share-status]");
      if (navigator.share) {
        navigator.share({ text: text }).catch(function () {}); // closed by the person: nothing to say
      } else if (navigator.clipboard) {
        navigator.clipboard.writeText(text).then(function () {
          if (status) status.textContent = button.getAttribute("data-copied");
        });
      }
    });
  }
  function showShareButtons() {
    if (!navigator.share && !navigator.clipboard) return;
    document.querySelectorAll("[data-share][hidden]").forEach(function (button) { button.hidden = false; });
  }
  document.addEventListener("htmx:afterSettle", showShareButtons);

  function configure() {
    themeSwitch();
    keepAwake();
    shareButtons();
    showShareButtons();
    vibrateSwitch();
    var guest = document.getElementById("guest");
    if (guest) titleFor(guest.querySelector("[data-my-move]"));
    if (!window.Idiomorph) return;
    var callbacks = window.Idiomorph.defaults.callbacks;
    // A form being filled in stays as it is while the same form is still on the table; one
    // that is about something else now (another disc, another seat) takes the new one.
    callbacks.beforeNodeMorphed = function (oldNode, newNode) {
      if (!(oldNode.nodeType === 1 && oldNode.tagName === "FORM" && keeps(oldNode))) return true;
      return newNode.nodeType === 1 && newNode.tagName === "FORM" && about(oldNode) !== about(newNode);
    };
    callbacks.beforeNodeRemoved = function (node) {
      if (!keeps(node)) return true;
      node.querySelectorAll("form[data-dirty]").forEach(function (form) { form.setAttribute("data-orphan", "true"); });
      if (node.matches("form[data-dirty]")) node.setAttribute("data-orphan", "true");
      return false;
    };
    callbacks.beforeAttributeUpdated = function (name, element) {
      if (name === "data-pushed") return false; // this device's own state, not the server's
      return !(name === "open" && element.tagName === "DETAILS");
    };
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", configure);
  else configure();

  // For offline.js, which queues the moves made without a connection.
  window.babelForms = { region: region, about: about };
})();
