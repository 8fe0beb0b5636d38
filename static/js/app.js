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
  var submitted = null; // the form whose own send this swap answers: it takes the answer

  function region(element) {
    return element && element.closest && element.closest("[data-version]");
  }

  function keeps(node) {
    return node.nodeType === 1 && node !== submitted &&
      (node.matches("form[data-dirty]") || (!!node.querySelector && !!node.querySelector("form[data-dirty]")));
  }

  document.addEventListener("input", markDirty);
  document.addEventListener("change", markDirty);
  function markDirty(event) {
    var form = event.target.form || (event.target.closest && event.target.closest("form"));
    if (form && region(form)) form.setAttribute("data-dirty", "true");
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (elt && elt.tagName === "FORM" && event.detail.target && event.detail.target.hasAttribute("data-version")) {
      submitted = elt;
    }
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || !target.hasAttribute("data-version") || event.detail.elt !== target) return;
    var match = /data-version="([^"]*)"/.exec(event.detail.serverResponse || "");
    if (match && match[1] === target.getAttribute("data-version")) event.detail.shouldSwap = false;
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    submitted = null;
    var target = event.detail.target;
    if (target && target.hasAttribute && target.hasAttribute("data-version")) markStale(target);
  });

  // A kept form whose version is older than the region's says so, once.
  function markStale(live) {
    var version = live.getAttribute("data-version").split(".")[0];
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

  function configure() {
    if (!window.Idiomorph) return;
    var callbacks = window.Idiomorph.defaults.callbacks;
    callbacks.beforeNodeMorphed = function (oldNode) {
      return !(oldNode.nodeType === 1 && oldNode.tagName === "FORM" && keeps(oldNode));
    };
    callbacks.beforeNodeRemoved = function (node) {
      if (!keeps(node)) return true;
      node.querySelectorAll("form[data-dirty]").forEach(function (form) { form.setAttribute("data-orphan", "true"); });
      if (node.matches("form[data-dirty]")) node.setAttribute("data-orphan", "true");
      return false;
    };
    callbacks.beforeAttributeUpdated = function (name, element) {
      return !(name === "open" && element.tagName === "DETAILS");
    };
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", configure);
  else configure();
})();
