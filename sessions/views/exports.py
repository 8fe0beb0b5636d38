"""Downloads (a group as JSON, its results as CSV) and the import pages.

The JSON holds every event of every session, secret offers included, so only the group's
owner may download it; every member may download the results.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.errors import RuleError
from sessions import selectors
from sessions.http import MemberRequest
from sessions.importexport import bgstats
from sessions.importexport.export import group_json_chunks, results_csv
from sessions.importexport.forms import JsonUploadForm
from sessions.importexport.importer import import_group
from sessions.models import Group, Membership
from sessions.rule_messages import describe


def filename(group: Group, suffix: str) -> str:
    return f"{slugify(group.name) or 'group'}-{timezone.localdate().isoformat()}.{suffix}"


def download(body: str, content_type: str, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_GET
def group_json(request: MemberRequest, group_id: int) -> HttpResponseBase:
    membership = selectors.membership(request.user, group_id)
    if membership.role != Membership.OWNER:
        return HttpResponse(_("Only the group's owner can export the whole group."), status=403)
    response = StreamingHttpResponse(group_json_chunks(membership.group), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{filename(membership.group, "json")}"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_GET
def group_results_csv(request: MemberRequest, group_id: int) -> HttpResponse:
    group = selectors.membership(request.user, group_id).group
    return download(results_csv(group), "text/csv; charset=utf-8", filename(group, "csv"))


@login_required
def group_import(request: MemberRequest) -> HttpResponse:
    """A new group from a JSON export; the account importing it becomes its owner."""
    form = JsonUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            group = import_group(owner=request.user, document=form.cleaned_data["file"])
        except RuleError as refused:
            form.add_error("file", f"{refused.field}: {describe(refused)}")
        else:
            messages.success(request, _("The group is imported."))
            return redirect("group", group_id=group.pk)
    return render(request, "groups/import.html", {"form": form}, status=400 if form.errors else 200)


@login_required
def group_import_bgstats(request: MemberRequest, group_id: int) -> HttpResponse:
    """Plays from a BG Stats export, into this group (owner only); a second run adds only new plays."""
    membership = selectors.membership(request.user, group_id)
    group = membership.group
    if membership.role != Membership.OWNER:
        return HttpResponse(_("Only the group's owner can import plays."), status=403)
    form = JsonUploadForm(request.POST or None, request.FILES or None)
    report = None
    if request.method == "POST" and form.is_valid():
        try:
            report = bgstats.import_plays(group=group, document=form.cleaned_data["file"], user=request.user)
        except RuleError as refused:
            form.add_error("file", f"{refused.field}: {describe(refused)}")
    context = {"group": group, "form": form, "report": report}
    return render(request, "groups/import_bgstats.html", context, status=400 if form.errors else 200)
