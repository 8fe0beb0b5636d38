"""The Celery app. Broker and result settings come from Django settings (``CELERY_*``)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "babel_companion.settings")

app = Celery("babel_companion")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
