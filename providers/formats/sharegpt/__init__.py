"""``sharegpt``: ShareGPT datasets (``{"conversations": [{"from", "value"}]}`` entries), with
LLaMA-Factory's extensions: ``function_call`` / ``observation`` turns, top-level
``system`` and ``tools`` (a JSON string), ``images`` / ``audios`` with ``<image>`` /
``<audio>`` placeholders.

A file is a list of entries (or JSON Lines of them); ``parse`` gives one conversation per
entry (its ``id``, when it has one, is the key) and also takes a single entry. How an entry
is read is in ``_parse``, how one is written in ``_render``. A conversation read from this
format renders back as exactly its entry. Any other becomes an entry LLaMA-Factory
accepts, with these warnings:

==============================================  ==============================================
system/developer messages after the start,      merged into the one ``system`` field,
more than one, or developer ones                ``system-message-transformed``
turns of the same side in a row (users, a user  merged into one turn, ``role-merged`` (several
after a tool result, several tool results)      results: a JSON list of them)
assistant text beside tool calls (in the same   ``content-dropped`` (``reasoning-dropped`` for
message or the one before)                      reasoning): a call turn holds only calls
tool-call ids                                   ``id-rewritten`` to None (results follow their
                                                call in order)
tool definitions                                a JSON string, ``content-type-unsupported``
                                                (info)
images/audio in user turns                      paths in ``images``/``audios`` (base64 as a
                                                data URI), ``content-type-unsupported``
media elsewhere, documents that are not text,   ``content-dropped``
tool calls outside assistant messages
plain-text documents, refusals                  text, ``content-type-unsupported``
reasoning                                       ``<think>`` text, ``content-type-unsupported``
                                                (``signature-stripped`` when signed,
                                                ``reasoning-dropped`` when redacted)
tool result error flag                          "Error: " text, ``capability-unsupported``
citations                                       ``content-dropped``
parameters, tool_choice                         ``parameter-unsupported``
other branches of a tree                        ``content-dropped`` per message
other formats' fields                           ``field-unknown`` (info)
a message's ``name`` (not a tool's)             ``content-dropped`` (info)
message ids, timestamps, models, finish         ``content-dropped`` (info), one for all
reasons, usage and metadata                     messages
==============================================  ==============================================

A conversation that opens with an assistant turn is written as it is.
"""

from __future__ import annotations

from providers.formats import register_package
from providers.formats._archive.wiring import Archive
from providers.formats.base import Capabilities
from providers.umf import JSON

from ._constants import FORMAT_ID
from ._detect import detect
from ._parse import parse_entry
from ._render import render_entry

__all__ = ["ARCHIVE", "FORMAT", "FORMAT_ID", "detect", "parse", "render"]


def _key(entry: JSON) -> str | None:
    key = entry.get("id") if isinstance(entry, dict) else None
    return None if key is None else str(key)


ARCHIVE = Archive(
    FORMAT_ID,
    read=parse_entry,
    render_entry=render_entry,
    key=_key,
    id_keys=("id",),
    own_shape="entry",
)
parse, render = ARCHIVE.parse, ARCHIVE.render


FORMAT = register_package(
    __name__,
    label="ShareGPT",
    capabilities=Capabilities(
        roles=frozenset({"system", "user", "assistant", "tool"}),
        blocks=frozenset({"text", "image", "audio", "tool_use", "tool_result"}),
        tools=True,
        multi_conversation=True,
    ),
    **ARCHIVE.hooks(),
)
