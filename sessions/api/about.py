"""What the API says of itself: the release it is (CHANGELOG.md says what each changed)."""

from __future__ import annotations

from django.conf import settings
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response


class AboutOut(serializers.Serializer):
    name = serializers.CharField(help_text="Babel Companion.")
    version = serializers.CharField(help_text="The release, as the changelog names it (e.g. 0.2.0).")


@extend_schema(
    operation_id="about_retrieve",
    summary="The release this server runs",
    responses={200: AboutOut},
    tags=["about"],
)
@api_view(["GET"])
@authentication_classes([])
@permission_classes([AllowAny])
def about(request: Request) -> Response:
    return Response(AboutOut({"name": "Babel Companion", "version": settings.VERSION}).data)
