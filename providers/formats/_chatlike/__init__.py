"""What the OpenAI-like chat formats (``cohere``, ``mistral``) share.

* :class:`Namespace`: a format's ``extra`` bookkeeping (its verbatim fields and ``$`` hints).
* Reading JSON objects: :func:`split` and typed checks that fail with the field's path.
* Sampling parameters (:class:`ParameterSpec`): read with their JSON spelling kept (``1``
  vs ``1.0``, a lone stop string), written back clamped to the target's ranges.
* :func:`linearize`: any UMF conversation as the flat thread of system, user, assistant and
  tool turns these APIs take, every tool call answered right after it. Each change is one
  drift warning:

  ================================================  ========================================
  a message on another branch of a tree             ``content-dropped``
  a developer message                               ``system-message-transformed``
  a system message after the conversation started   merged into the leading system message,
                                                    ``system-message-transformed``
  tool results inside other messages                split out as tool turns
  a result not right after its call                 moved there, ``message-reordered`` (info)
  a call nothing answers                            a placeholder error result,
                                                    ``id-synthesized``
  a result that answers no earlier call             user text, ``content-type-unsupported``
  other content of a tool message                   a user turn, ``message-reordered``
  a tool call outside an assistant message          ``content-dropped``
  a message's author ``name`` (not a tool's)        ``content-dropped`` (info)
  call ids the target refuses, or used twice        rewritten, ``id-rewritten`` (info)
  ``reasoning`` beside thinking blocks, details     ``reasoning-dropped``
  ================================================  ========================================
"""

from providers.formats._kit.context import RenderContext as Context
from providers.formats._kit.drift import describe, report_foreign_extra, report_unplaced
from providers.formats._kit.extra import Namespace
from providers.formats._kit.fields import split
from providers.formats._kit.ids import CallIds
from providers.formats._kit.paths import at, is_int, is_number, item, require

from ._content import (
    content_hint,
    content_shape,
    read_content,
    write_content,
    write_result_content,
)
from ._parameters import ParameterSpec, default_model, read_parameters, write_parameters
from ._shared_blocks import (
    ParseState,
    decoded_text,
    drop,
    drop_reasoning,
    leave_out_empty,
    media_uri,
    read_tool,
    sendable,
    source_from_url,
    take_answer,
    thread,
    write_tool,
)
from ._turns import (
    MISSING_RESULT_TEXT,
    Located,
    Turn,
    linearize,
    locate,
    mark_error,
    turns_as_read,
)

__all__ = [
    "MISSING_RESULT_TEXT",
    "CallIds",
    "Context",
    "Located",
    "Namespace",
    "ParameterSpec",
    "ParseState",
    "Turn",
    "at",
    "content_hint",
    "content_shape",
    "decoded_text",
    "default_model",
    "describe",
    "drop",
    "drop_reasoning",
    "is_int",
    "is_number",
    "item",
    "leave_out_empty",
    "linearize",
    "locate",
    "mark_error",
    "media_uri",
    "read_content",
    "read_parameters",
    "read_tool",
    "report_foreign_extra",
    "report_unplaced",
    "require",
    "sendable",
    "source_from_url",
    "split",
    "take_answer",
    "thread",
    "turns_as_read",
    "write_content",
    "write_parameters",
    "write_result_content",
    "write_tool",
]
