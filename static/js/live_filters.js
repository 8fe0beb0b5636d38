// Filters that apply as they change (the leaderboard's): htmx sends the form on each change
// and swaps the results' region in (hx-get, hx-trigger="change, submit"); this file does the
// two things htmx leaves to the page here:
// - it hides the form's button, there for a browser without JavaScript, once htmx runs;
// - it puts each filtered address in the history, so that it can be shared, reloaded and
//   gone back from: htmx keeps no history on this site (base.html's htmx-config), so its
//   hx-push-url only says which address it would have pushed (htmx:pushedIntoHistory).
(function () {
  "use strict";
  var FORM = "form[data-live-filters]";
  if (!window.htmx || !document.querySelector(FORM)) return;

  document.querySelectorAll(FORM + " [data-apply]").forEach(function (button) { button.hidden = true; });

  document.body.addEventListener("htmx:pushedIntoHistory", function (event) {
    if (htmx.config.historyEnabled) return; // htmx pushed it itself
    history.pushState({ liveFilters: true }, "", event.detail.path);
  });

  // Back or forward to another filtered address: the page of that address, whole (its form
  // shows the filters it was made with).
  window.addEventListener("popstate", function () { location.reload(); });
})();
