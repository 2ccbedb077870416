"""``otel-genai``: the OpenTelemetry GenAI semantic conventions' messages.

``parse`` takes span attributes holding ``gen_ai.system_instructions`` /
``gen_ai.input.messages`` / ``gen_ai.output.messages`` (as JSON values or, as on spans,
JSON strings), a span object whose ``attributes`` hold them, a list of either (one
conversation each, keyed by ``gen_ai.conversation.id`` when there is one), or a bare list
of input messages (``{role, parts}``). How attributes and parts are read is in ``_parse``
and ``_parse_parts``. A conversation read from this format comes back exactly as it was read.

Any other conversation becomes span attributes, with these warnings:

==============================================  ==============================================
thinking with a signature or encrypted data     ``reasoning`` part, ``signature-stripped``
redacted thinking                               ``reasoning-dropped``
tool result error flag                          the non-standard part property ``is_error``,
                                                ``capability-unsupported`` (info)
documents                                       ``blob``/``uri``/``file`` with modality
                                                ``document`` (``content-type-unsupported``,
                                                info); plain text as a text part (warning)
refusals                                        text, ``content-type-unsupported``
citations                                       ``content-dropped``
developer messages                              role system, ``system-message-transformed``
tool_choice, user, parallel_tool_calls, stream  ``parameter-unsupported``
custom parameters
other branches of a tree                        ``content-dropped`` per message
an answer with usage but no finish reason       an output message all the same, its required
                                                ``finish_reason`` synthesized (``tool_call``
                                                when it makes calls, else ``stop``),
                                                ``parameter-defaulted``
other formats' fields                           ``field-unknown`` (info)
message ids, timestamps, models, finish         ``content-dropped`` (info), one for all
reasons, usage and metadata (but the output's   messages
response id, model, finish reason and usage)
==============================================  ==============================================

Message ids and timestamps have no standard place; only the answer's response id, model,
finish reason and usage have attributes.
"""

from __future__ import annotations

from providers.formats import register_package
from providers.formats._archive.wiring import Archive
from providers.formats.base import Capabilities
from providers.umf import JSON

from ._constants import FORMAT_ID
from ._detect import detect, is_message_list
from ._parse import key, read
from ._render import render_entry

__all__ = ["ARCHIVE", "FORMAT", "FORMAT_ID", "detect", "parse", "render"]


def _one_conversation(payload: JSON) -> bool:
    # A span, an attributes object, or a bare message list (anything else is refused
    # as one, by its reader).
    return not isinstance(payload, list) or is_message_list(payload)


ARCHIVE = Archive(
    FORMAT_ID,
    read=read,
    render_entry=render_entry,
    key=key,
    id_keys=("gen_ai.conversation.id",),
    single=_one_conversation,
    nothing="no spans",
    lone_value_is_list=False,
)
parse, render = ARCHIVE.parse, ARCHIVE.render

FORMAT = register_package(
    __name__,
    label="OpenTelemetry GenAI messages",
    capabilities=Capabilities(
        roles=frozenset({"system", "user", "assistant", "tool"}),
        blocks=frozenset(
            {"text", "image", "document", "audio", "tool_use", "tool_result", "thinking"}
        ),
        tools=True,
        parameters=frozenset(
            {"model", "temperature", "max_tokens", "top_p", "top_k", "stop", "seed"}
            | {"frequency_penalty", "presence_penalty"}
        ),
        usage=True,
        multi_conversation=True,
    ),
    **ARCHIVE.hooks(),
)
