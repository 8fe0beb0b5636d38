// Progressive enhancement only: every page works without this file.
// A poll that brings the same version again (the browser turned a 304 into the cached
// body) is not swapped, so nothing on screen flickers while the table is idle; nor is a
// region where someone is filling in a form (their send is checked against the news).
document.addEventListener("input", function (event) {
  var form = event.target.closest && event.target.closest("form[data-keep]");
  if (form) form.dataset.dirty = "true";
});
document.addEventListener("htmx:beforeSwap", function (event) {
  var target = event.detail.target;
  if (!target || target.id !== "live") return;
  if (target.querySelector("form[data-keep][data-dirty]")) {
    event.detail.shouldSwap = false;
    return;
  }
  var match = /data-version="(\d+)"/.exec(event.detail.serverResponse || "");
  if (match && match[1] === target.dataset.version) event.detail.shouldSwap = false;
});
