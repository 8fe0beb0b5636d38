"""The upload form of the import pages: one JSON file, read and parsed here."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.errors import RuleError
from sessions.importexport.jsondepth import loads
from sessions.rule_messages import describe

MAX_UPLOAD_BYTES = 50 * 1024 * 1024


class JsonUploadForm(forms.Form):
    file = forms.FileField(label=_("JSON file"))

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(_("The file is larger than 50 MB."))
        try:
            return loads(upload.read().decode("utf-8-sig"))
        except RuleError as too_deep:  # nested deeper than any export: named by its path
            raise forms.ValidationError(describe(too_deep)) from too_deep
        except (UnicodeDecodeError, ValueError) as unreadable:
            raise forms.ValidationError(_("This is not a JSON file.")) from unreadable
