{% autoescape off %}// Babel Companion's service worker, release {{ release }} (sessions/views/pwa.py). Workbox
// (vendored, pinned) does the caching; this file says what is kept and for how long.
//
// - The shell (styles, scripts, icons) and the offline page are kept at install, by release.
// - Pages are asked of the network first and kept; offline, the page kept last is shown,
//   marked (data-served-offline on <html>) so that it says it is not live.
// - A live region's fetch is asked of the network first too; offline, the region kept last
//   answers with a Babel-Offline header, so that the page knows it is offline.
// - Nothing that says "no-store" is kept, and no write (POST) goes through here: the moves
//   made offline wait on the device (static/js/offline.js).
// - A new release (another static manifest) installs a new worker, which deletes the old
//   release's caches when it takes over.
importScripts({% for url in workbox %}"{{ url }}"{% if not forloop.last %}, {% endif %}{% endfor %});

(function () {
  "use strict";
  var RELEASE = "{{ release }}", OFFLINE_PAGE = "{{ offline_url }}", STATIC = "{{ static_url }}";
  var workbox = self.workbox, strategies = workbox.strategies, routing = workbox.routing;
  var LIVE_REGION = /^\/(s\/\d+|j\/[^/]+(\/table)?)\/live\/$/;
  function cacheName(kind) { return "babel-" + kind + "-" + RELEASE; }

  workbox.core.setCacheNameDetails({ prefix: "babel", suffix: RELEASE });
  self.skipWaiting();
  workbox.core.clientsClaim();
  workbox.precaching.precacheAndRoute([{% for url in shell %}
    { url: "{{ url }}", revision: null },{% endfor %}
    { url: OFFLINE_PAGE, revision: RELEASE }
  ]);
  // When it takes over, and after each page it serves: a fetch the worker before it had under
  // way as it was replaced may still have written to its own release's caches.
  function deleteOtherReleases() {
    return caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return name.indexOf("babel-") === 0 && name.slice(-RELEASE.length) !== RELEASE;
      }).map(function (name) { return caches.delete(name); }));
    });
  }
  self.addEventListener("activate", function (event) { event.waitUntil(deleteOtherReleases()); });

  var storable = {
    cacheWillUpdate: function (args) {
      var response = args.response;
      var private_ = /no-store/.test(response.headers.get("Cache-Control") || "");
      return response.status === 200 && !private_ ? response : null;
    }
  };
  function copy(response, body) {
    var headers = new Headers(response.headers);
    headers.set("Babel-Offline", response.headers.get("Date") || "");
    return new Response(body, { status: response.status, statusText: response.statusText, headers: headers });
  }
  var liveKeptOffline = {
    cachedResponseWillBeUsed: function (args) {
      return args.cachedResponse ? copy(args.cachedResponse, args.cachedResponse.body) : null;
    }
  };
  var pageKeptOffline = {
    cachedResponseWillBeUsed: function (args) {
      var kept = args.cachedResponse;
      if (!kept) return null;
      return kept.text().then(function (html) {
        var date = (kept.headers.get("Date") || "").replace(/[^\w :,+-]/g, "");
        return copy(kept, html.replace("<html ", '<html data-served-offline="' + date + '" '));
      });
    }
  };

  routing.registerRoute(function (options) {
    return options.url.origin === self.location.origin && LIVE_REGION.test(options.url.pathname);
  }, new strategies.NetworkFirst({
    cacheName: cacheName("live"),
    plugins: [storable, new workbox.expiration.ExpirationPlugin({ maxEntries: 40 }), liveKeptOffline]
  }));
  routing.registerRoute(function (options) {
    return options.url.origin === self.location.origin && options.url.pathname.indexOf(STATIC) === 0;
  }, new strategies.CacheFirst({
    cacheName: cacheName("static"),
    plugins: [storable, new workbox.expiration.ExpirationPlugin({ maxEntries: 150 })]
  }));
  routing.registerRoute(new routing.NavigationRoute(new strategies.NetworkFirst({
    cacheName: cacheName("pages"),
    networkTimeoutSeconds: 4,
    plugins: [storable, new workbox.expiration.ExpirationPlugin({ maxEntries: 60 }), pageKeptOffline,
      { handlerDidComplete: deleteOtherReleases }]
  }), { denylist: [/^\/(api|admin)\//] }));
  routing.setCatchHandler(function (options) {
    if (options.request.mode !== "navigate") return Promise.resolve(Response.error());
    return workbox.precaching.matchPrecache(OFFLINE_PAGE).then(function (page) { return page || Response.error(); });
  });
})();
{% endautoescape %}
