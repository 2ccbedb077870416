"""The conversation page's thread, each message's HTML kept in the "render" cache.

Rendering a message (templates, markdown, highlighting) costs far more than fetching it,
and a stored message never changes: its HTML is kept under a key made of the message's id,
a hash of everything the page shows of it (blocks, branches, warnings, usage...) and a hash
of the templates and filters that draw it, so a change to any of them is a new key and no
stale HTML is ever served. All keys of a page are read in one ``get_many``.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import orjson
from django import template
from django.conf import settings
from django.core.cache import caches
from django.utils.safestring import SafeString, mark_safe

from conversations import models
from conversations.templatetags import umf_citations, umf_render

register = template.Library()

MESSAGE_TEMPLATE = "conversations/_message.html"


def _code_version() -> str:
    """A hash of the message templates and the filters they use."""
    templates = Path(settings.BASE_DIR) / "templates" / "conversations"
    sources = [templates / "_message.html", *sorted((templates / "blocks").glob("*.html"))]
    sources += [Path(umf_render.__file__), Path(umf_citations.__file__)]
    digest = hashlib.blake2b(digest_size=8)
    for source in sources:
        digest.update(source.read_bytes())
    return digest.hexdigest()


_VERSION = _code_version()
# Bumped by ``clear_render_caches``: older keys are simply never asked for again.
_generation = 0


def clear_render_caches() -> None:
    """Forget every rendered message and markdown text (benchmarks, tests): later pages
    render from scratch. Other keys of a shared cache are left alone."""
    global _generation
    _generation += 1
    umf_render.render_markdown.cache_clear()


def _shown(value: Any) -> Any:
    """What the page shows of the model rows a message carries (warnings, provenance)."""
    if isinstance(value, models.DriftWarning):
        return [value.stage, value.category, value.severity, value.text, value.field]
    if isinstance(value, models.Provenance):
        return [value.frontend, value.backend]
    raise TypeError(f"cannot hash {type(value).__name__}")


def message_key(conversation_id: Any, message: dict[str, Any]) -> str:
    """The cache key of a message as the page shows it (see the module's docstring)."""
    shown = orjson.dumps(message, default=_shown, option=orjson.OPT_NON_STR_KEYS)
    digest = hashlib.blake2b(shown, digest_size=16).hexdigest()
    return f"message:{_VERSION}:{_generation}:{conversation_id}:{message['id']}:{digest}"


@register.simple_tag(takes_context=True)
def thread_messages(
    context: template.Context, messages: list[dict[str, Any]] | None = None
) -> SafeString:
    """The HTML of ``messages`` (default: every message of ``thread``), from the cache
    where it can."""
    if messages is None:
        messages = context["thread"].messages
    conversation_id = context["conversation"].pk
    cache = caches["render"]
    keys = [message_key(conversation_id, message) for message in messages]
    found = cache.get_many(keys)
    missing: dict[str, str] = {}
    assert context.template is not None  # a tag renders inside a template
    message_template = context.template.engine.get_template(MESSAGE_TEMPLATE)
    parts = []
    for key, message in zip(keys, messages, strict=True):
        html = found.get(key)
        if html is None:
            with context.push(message=message):
                html = missing[key] = message_template.render(context)
        parts.append(html)
    if missing:
        cache.set_many(missing)
    return mark_safe("".join(parts))
