"""``cohere``: Cohere v2 chat (``POST /v2/chat``) requests, logged exchanges and responses.

``parse`` reads one conversation from a request body, a bare ``messages`` list, a logged
exchange ``{"request": ..., "response": ...}`` or a bare response, and records which as the
conversation hint ``$shape``. Fields UMF has no name for stay verbatim in
``extra["cohere"]`` of the value they belong to (the request's ``documents`` among them);
``$`` keys there are layout hints. A ``tool_plan`` is an assistant text block marked
``$field: tool_plan``; thinking content is a thinking block of provider ``cohere``.

``render`` writes a conversation read by this format back exactly as it was read. Any
other conversation becomes a request Cohere accepts, with one drift warning for each thing
it could not carry (plus those of :mod:`providers.formats._chat_completions`: system messages,
tool-result pairing, ids, branches):

==================================================  ==========================================
a forced single tool                                ``REQUIRED`` and only that tool offered,
                                                    ``parameter-normalized``
tool_choice auto                                    left out (Cohere's default), no warning
tool_choice without tools, ``user``,                ``parameter-unsupported``
``parallel_tool_calls``, ``parameters.custom``
documents (text, a URL, base64 text)                document data (``{title, text|url}``) in
                                                    the request's ``documents``, or a tool
                                                    result's ``document`` part,
                                                    ``content-type-unsupported``
PDF or other bytes, provider file ids               ``content-dropped``
images outside user messages, file-id images        ``content-dropped``
audio                                               ``content-dropped``
refusals                                            text, ``content-type-unsupported``
tool result ``is_error``                            "Error: " text, ``capability-unsupported``
thinking of other providers                         thinking text; ``signature-stripped`` when
                                                    it was signed; redacted or outside an
                                                    assistant message ``reasoning-dropped``
citations of other formats                          ``content-dropped``
an assistant's text beside tool calls               its ``tool_plan`` (no warning)
an empty message                                    left out, ``content-dropped`` (info)
no model                                            :data:`DEFAULT_MODEL`,
                                                    ``parameter-defaulted``
a tool without parameters                           an empty object schema,
                                                    ``parameter-defaulted`` (info)
temperature < 0, p, k, penalties out of range       ``parameter-clamped``
more than 5 stop sequences                          ``stop-sequences-truncated``
image detail other than auto/low/high               ``content-dropped`` (info)
other formats' ``extra`` fields                     ``field-unknown`` (info)
message ids, timestamps, models, finish reasons,    ``content-dropped`` (info), one for all
usage and metadata                                  messages
==================================================  ==========================================
"""

from __future__ import annotations

from providers.formats import register_package
from providers.formats._chat_completions.parameters import SAMPLING, THREAD_ROLES
from providers.formats.base import Capabilities

from ._constants import DEFAULT_MODEL, FORMAT_ID
from ._detect import detect
from ._parse import parse
from ._render import render

__all__ = ["DEFAULT_MODEL", "FORMAT", "FORMAT_ID", "detect", "parse", "render"]


FORMAT = register_package(
    __name__,
    label="Cohere v2 Chat",
    capabilities=Capabilities(
        roles=THREAD_ROLES,
        blocks=frozenset({"text", "image", "document", "tool_use", "tool_result", "thinking"}),
        tools=True,
        tool_choice=True,
        parameters=SAMPLING,
        usage=True,
    ),
    provider="cohere",
)
