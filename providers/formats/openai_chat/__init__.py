"""``openai-chat``: OpenAI Chat Completions requests, logged exchanges and responses.

``parse`` reads one conversation from a request body, a bare ``messages`` list, a logged
exchange ``{"request": ..., "response": ...}`` or a bare ``chat.completion``, and records
which as the conversation hint ``$shape``. Fields UMF has no name for stay verbatim in
``extra["openai-chat"]`` of the value they belong to; ``$`` keys there are layout hints.

``render`` writes a conversation read by this format back as exactly the payload it was
read from ("faithful": nothing is re-ordered or repaired, even where OpenAI would refuse
the original). Any other conversation becomes a request OpenAI accepts, with one drift
warning for each thing it could not carry. ``render_request`` always does the latter,
whatever the shape: it is what a client sends.

What does not travel as it was, and the warning it gives (``field`` is the UMF path):

==================================================  ==========================================
thinking blocks, ``reasoning``, reasoning details   ``reasoning-dropped`` (never a signature)
tool results inside user (or other) messages        split out as ``tool`` messages right after
                                                    the call; ``message-reordered`` (info) only
                                                    when something had to be jumped over
tool result ``is_error``                            ``capability-unsupported``, "Error: " text
tool result blocks                                  text joined with newlines; media as below
media in system/developer/assistant/tool content    a user message after the group,
                                                    ``message-reordered``
images or audio OpenAI cannot take (file ids, URL   ``content-dropped``
audio, formats other than wav/mp3)
documents as URL or plain text                      a text part, ``content-type-unsupported``
a refusal outside an assistant message              a text part, ``content-type-unsupported``
file data without a filename                        ``document.<ext>``, ``parameter-defaulted``
document title beside a filename                    ``content-dropped`` (info)
citations from other formats                        ``content-dropped``
tool-call ids over 40 chars, odd characters, or     ``call_<sha256 prefix>``, ``id-rewritten``
used twice                                          (info), results follow the call's new id
a call with no result                               a placeholder error result,
                                                    ``id-synthesized``
a result answering no earlier call                  a user message, ``content-type-unsupported``
a tool message with no call id at all               a user message, ``content-type-unsupported``
no model                                            :data:`DEFAULT_MODEL`, ``parameter-defaulted``
``top_k``, ``parameters.custom``; tool_choice or    ``parameter-unsupported``
parallel_tool_calls without tools
temperature/top_p/penalties out of range            ``parameter-clamped``
more than 4 stop sequences                          ``stop-sequences-truncated``
a forced tool choice that names no tool             ``required``, ``parameter-normalized``
other branches of a tree                            ``content-dropped`` per message
other formats' ``extra`` fields                     ``field-unknown`` (info)
message ids, timestamps, models, finish reasons,    ``content-dropped`` (info), one for all
usage and metadata                                  messages
==================================================  ==========================================
"""

from __future__ import annotations

from providers.formats import register_package
from providers.formats.base import Capabilities

from ._constants import DEFAULT_MODEL, FORMAT_ID
from ._detect import detect
from ._parse import parse
from ._render import render, render_request

__all__ = ["DEFAULT_MODEL", "FORMAT", "FORMAT_ID", "detect", "parse", "render", "render_request"]

FORMAT = register_package(
    __name__,
    label="OpenAI Chat Completions",
    capabilities=Capabilities(
        roles=frozenset({"system", "developer", "user", "assistant", "tool"}),
        blocks=frozenset(
            {"text", "refusal", "image", "document", "audio", "tool_use", "tool_result"}
        ),
        tools=True,
        tool_choice=True,
        parameters=frozenset(
            {"model", "temperature", "max_tokens", "top_p", "stop", "seed", "frequency_penalty"}
            | {"presence_penalty", "user", "parallel_tool_calls", "stream"}
        ),
        usage=True,
    ),
    provider="openai",
)
