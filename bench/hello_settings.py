"""The app's settings, its URLs with the benchmarks' "hello" view in front (``bench.hello_urls``)."""

from babel_companion.settings import *  # noqa: F403

ROOT_URLCONF = "bench.hello_urls"
