from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SessionsConfig(AppConfig):
    # Django's own session app holds the label "sessions".
    name = "sessions"
    label = "babel"
    verbose_name = _("Babel Companion")
