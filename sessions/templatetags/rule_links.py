"""Rule ids in messages as links to the rule's text (``{{ message|rule_links }}``)."""

from __future__ import annotations

from django import template

from sessions.rules_reference import link_rule_ids

register = template.Library()

register.filter("rule_links", link_rule_ids, is_safe=True)
