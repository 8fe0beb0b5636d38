"""The Celery app. Broker and result settings come from Django settings (``CELERY_*``)."""

import os
from typing import Any

from celery import Celery, bootsteps

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "babel_companion.settings")

app = Celery("babel_companion")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class Heartbeat(bootsteps.StartStopStep):
    """The worker says it is there every WORKER_HEARTBEAT_SECONDS, from its own timer (beat need
    not run): /health/ready reads when it last did (``sessions.health``)."""

    requires = ("celery.worker.components:Timer",)

    def start(self, worker: Any) -> None:
        from django.conf import settings

        from sessions.health import worker_reported

        worker_reported()
        self.timer = worker.timer.call_repeatedly(settings.WORKER_HEARTBEAT_SECONDS, worker_reported)

    def stop(self, worker: Any) -> None:
        self.timer.cancel()


app.steps["worker"].add(Heartbeat)
