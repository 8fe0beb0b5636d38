from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SessionsConfig(AppConfig):
    # Django's own session app holds the label "sessions".
    name = "sessions"
    label = "babel"
    verbose_name = _("Babel Companion")

    def ready(self) -> None:
        from django.conf import settings

        from scoring.babel_cubes import solver

        # The cube game's hints read the solved game from one file per machine.
        solver.use_tables(settings.CUBE_TABLES_DIR)
