"""The app's URLs with a "hello" view in front: the benchmarks' baseline, a request through
Django's whole stack that does nothing, served by the same process as what it is compared with
(in-process: ``settings.ROOT_URLCONF``; a server: ``DJANGO_SETTINGS_MODULE=bench.hello_settings``)."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from babel_companion.urls import urlpatterns as app_urlpatterns

HELLO_PATH = "/bench-hello/"


def hello(request: HttpRequest) -> HttpResponse:
    return HttpResponse("hello")


urlpatterns = [path(HELLO_PATH.strip("/") + "/", hello), *app_urlpatterns]
