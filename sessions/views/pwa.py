"""The installable app: its web app manifest, its service worker and the page it shows offline.

The service worker (templates/pwa/sw.js, with Workbox) keeps the pages a device opened and
the static files of this release, so that a dropped connection never blanks a table; the
moves made meanwhile wait on the device (static/js/offline.js). It is served from the root
so that its scope is the whole site, and named by the release (the static files' manifest
hash) so that a new release replaces it and its caches.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control

# The app's shell: what every page loads, kept by the service worker at install. Workbox's
# own modules are loaded by the worker's script itself.
SHELL = [
    "css/app.css",
    "js/app.js",
    "js/offline.js",
    "django_htmx/htmx-2.min.js",
    "django_htmx/ext/hx-ws-2.min.js",
    "vendor/idiomorph-0.8.0/idiomorph-ext.min.js",
    "icons/icon.svg",
]
WORKBOX = [
    f"vendor/workbox-v7.4.1/workbox-{module}.prod.js"
    for module in ("core", "routing", "strategies", "expiration", "precaching")
]
THEME_COLOUR = "#1e3a8a"
BACKGROUND_COLOUR = "#f5f1e8"


def release() -> str:
    """This release's name: the hash of the static files' manifest, which changes whenever a
    static file does. Without the manifest (a developer's unhashed files), the shell's own
    contents name it, so that an edited script is not served from a stale cache."""
    manifest_hash = getattr(staticfiles_storage, "manifest_hash", "")
    if manifest_hash:
        return str(manifest_hash)
    digest = hashlib.sha256()
    for path in SHELL:
        found = finders.find(path)
        if isinstance(found, str):
            digest.update(Path(found).read_bytes())
    return digest.hexdigest()[:12]


def manifest(request: HttpRequest, code: str | None = None) -> JsonResponse:
    """The web app manifest. A guest who joined by code installs their seat's page: without an
    account, the home page would only ask them to log in."""
    start = reverse("guest", args=[code]) if code else reverse("home")
    document = {
        "id": "/",
        "name": _("Babel Companion"),
        "short_name": _("Babel"),
        "description": _("Set-up, play and scoring for the four games called Babel, at the table."),
        "start_url": start,
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/icon-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return JsonResponse(document, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})


@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker's script. Browsers check it for a new release at every navigation
    (no-cache: always asked again, answered from the cache while unchanged)."""
    context = {
        "release": release(),
        "workbox": [static(path) for path in WORKBOX],
        "shell": [static(path) for path in SHELL],
        "offline_url": reverse("offline"),
        # The prefix of every static file: static("") would look "" up in the manifest of
        # hashed names, which has no such entry (a 500 with DEBUG off).
        "static_url": settings.STATIC_URL,
    }
    return render(request, "pwa/sw.js", context, content_type="text/javascript")


def offline(request: HttpRequest) -> HttpResponse:
    """What a device shows, offline, for a page it never opened (kept by the service worker)."""
    return render(request, "pwa/offline.html")
