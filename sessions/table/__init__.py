"""The live table: what keeps every device of a game night current (issue 41, point 4).

The way of a move from one device to every screen of its table:

1. A device sends it: a form from the host's page or a phone (``sessions.views.play``,
   ``sessions.views.join``), or the API (``sessions.api.views``).
2. ``sessions.services.append_event`` locks the session's row, has the game's engine
   (``scoring``) take the event, and writes the event, the state and the new version
   (``keys.version_written``).
3. Once committed: what the move changed, for the first screen of the version
   (``keys.session_moved``), then the news, ``push.announce``: "session N is at
   version V", nothing of what it shows.
4. The channel layer (Redis publish/subscribe, under the deployment's ``PUSH_PREFIX``) carries
   it to every server process; ``consumers`` hands it to each socket of the night.
5. Each page that does not show that version (``static/js/app.js``) fetches its region with
   its ticket and its ETag (``/s/<id>/live/``, ``/j/<code>/live/``).
6. ``tickets``: a ticket that holds reads the versions, and what the fetch will need of the
   new one, in one round trip (``tickets._read_ahead``, ``keys.versions_now``); ``live`` answers a 304, or a render
   another device of the same view kept (``keys.render``, ``keys.board``), without reading
   who asks.
7. Otherwise the region is rendered: by the first device of its view, the others of its process
   waiting for that render (``live.rendered_once``); a seated phone's, which shows its seat's
   secrets, for that phone alone.
8. The page morphs the answer into place (idiomorph): a form someone is filling stays as it is.

Its modules: ``live`` (the live responses: ETags, kept and shared renders, what every viewer of
a session sees), ``tickets`` (a fetch's shortcut past the check of who asks), ``regions`` (the
members' region, the host's screen), ``push`` (the news), ``consumers`` (the devices' sockets),
``keys`` (every key the live table keeps in the cache, its lifetime, and the reads and writes
of them) and ``shown`` (what a region shows, in plain values, below all that reads or renders
it). See docs/live-table.md.
"""
