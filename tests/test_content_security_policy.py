"""Every page says where its scripts, styles and images may come from: this site only, with
no inline script or style; none of the app's pages needs more."""

import re

from django.test import Client


def test_a_page_allows_scripts_and_styles_from_this_site_only(client: Client, db: None) -> None:
    policy = client.get("/login/").headers["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy


def test_the_api_documentation_has_no_inline_script(client: Client, db: None) -> None:
    page = client.get("/api/docs/").content.decode()
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
    assert scripts
    assert all("src=" in attributes and not body.strip() for attributes, body in scripts)


def test_no_template_has_an_inline_script_style_or_event_handler() -> None:
    from django.conf import settings

    for template in (settings.BASE_DIR / "templates").rglob("*.html"):
        text = template.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), template
        assert not re.search(r"""\sstyle=["']|<style\b|\son[a-z]+=["']|hx-on""", text), template
