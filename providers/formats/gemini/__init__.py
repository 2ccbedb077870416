"""``gemini``: Google Gemini ``generateContent`` as REST JSON (camelCase).

**Parse** accepts a request body, a bare ``contents`` list, a logged exchange
``{"request", "response"}`` and a bare GenerateContentResponse, and records which as the
conversation hint ``$shape``. ``systemInstruction`` becomes a leading system message,
``model`` contents assistant messages, ``user`` contents user messages (function responses
stay ``tool_result`` blocks there). ``thought: true`` parts are thinking blocks (provider
``gemini``, signature: their ``thoughtSignature``); a ``thoughtSignature`` on a text or call
part stays with that part in ``extra["gemini"]``. Calls and responses without ids get
deterministic made-up ones, responses paired with calls by name and order
(``id-synthesized``). ``executableCode`` / ``codeExecutionResult`` and other parts UMF has
no block for are kept verbatim and read as text. Finish reasons and usage are normalised
(``candidatesTokenCount`` excludes ``thoughtsTokenCount``; UMF completion includes it).

**Render** writes the shape that was read; a conversation read from this format comes back
exactly as it was (same JSON). One from any other format becomes a request the API accepts,
with a drift warning for each lossy step:

* system/developer messages that are not leading (or are developer): ``systemInstruction``,
  ``system-message-transformed``;
* tool-call ids of other providers: left out, ``id-rewritten`` (transformed None);
* function names Gemini refuses (a leading digit, a space, more than 64 characters):
  fitted the same way in declarations, calls, responses and the tool choice,
  ``id-rewritten`` (info);
* the first function call of a step without a signature: Google's placeholder,
  ``parameter-defaulted`` (info);
* tool results whose text is not a JSON object, and errors: ``{"output": ...}`` /
  ``{"error": ...}``, ``content-type-unsupported``;
* media URLs (not Gemini files): ``fileData``, not downloaded, ``content-type-unsupported``;
* other providers' file ids, inline data that is not base64, citations, message names:
  ``content-dropped``; refusals: text, ``content-type-unsupported``;
* image detail, document title/filename, other formats' fields: ``field-unknown`` (info);
* foreign or redacted reasoning: ``reasoning-dropped``;
* consecutive same-role messages (tool results join the user turn): ``role-merged``;
* a first turn from the model, results out of order, calls without a result: a bridge
  turn, results moved, error responses, ``message-reordered``; results that answer no call
  and misplaced calls: text, ``content-type-unsupported``;
* schemas beyond the OpenAPI subset: ``parametersJsonSchema``, ``parameter-normalized``;
* more than 5 stop sequences: ``stop-sequences-truncated``; temperature/top_p out of range:
  ``parameter-clamped``; model (it is in the URL), user, parallel_tool_calls, stream:
  ``parameter-unsupported``.
"""

from __future__ import annotations

from providers.formats import register_package
from providers.formats._content_blocks import block_capabilities
from providers.formats.gemini._constants import FORMAT_ID, SIGNATURE_PLACEHOLDER
from providers.formats.gemini._detect import detect
from providers.formats.gemini._parse import parse
from providers.formats.gemini._render import render

__all__ = ["FORMAT", "FORMAT_ID", "SIGNATURE_PLACEHOLDER", "detect", "parse", "render"]


FORMAT = register_package(
    __name__,
    label="Google Gemini generateContent",
    capabilities=block_capabilities(
        frozenset(
            {"temperature", "max_tokens", "top_p", "top_k", "stop", "seed"}
            | {"frequency_penalty", "presence_penalty"}
        ),
        audio=True,
    ),
    provider="gemini",
)
