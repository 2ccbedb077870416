"""Gemini payloads -> one UMF conversation.

Shapes (recorded as the conversation hint ``$shape``): ``request`` (a generateContent body),
``messages`` (a bare ``contents`` list), ``exchange`` (``{"request", "response"}``, the
response's first candidate becoming the last assistant message) and ``response`` (a bare
GenerateContentResponse).

Where things go: ``systemInstruction`` -> a leading system message (hint ``$system``);
``model`` contents -> assistant messages, ``user`` contents -> user messages (function
responses stay ``tool_result`` blocks there, as in Anthropic); function declarations -> UMF
tools, with the layout of the ``tools`` array (other tools such as ``googleSearch`` kept
verbatim) in the hint ``$tools``; ``functionCallingConfig`` -> tool_choice;
``generationConfig`` sampling fields -> parameters, its other fields (``thinkingConfig``,
``responseMimeType``...) verbatim in ``extra["gemini"]["generationConfig"]``; any other
top-level field (``safetySettings``, ``cachedContent``...) verbatim in ``extra["gemini"]``.
"""

from __future__ import annotations

from typing import Any

from providers.formats._content_blocks.parse import stop_sequences
from providers.formats._content_blocks.shape import parse_in_shape
from providers.formats._kit.extra import extra_of
from providers.formats._kit.fields import Fields, umf_checked
from providers.formats.base import Drift, ParseResult
from providers.formats.gemini._constants import FORMAT_ID, TOOL_MODES
from providers.formats.gemini._parse_parts import ParseState, parse_contents, parse_parts
from providers.formats.gemini._parse_response import parse_response
from providers.formats.gemini._parse_schema import to_json_schema
from providers.umf import JSON, Conversation, Message, Parameters, Tool, ToolChoice


def parse(payload: JSON) -> list[ParseResult]:
    """Read one Gemini payload (request, contents list, exchange or response) as one
    conversation. Raises :class:`FormatError` naming the field for anything that is not."""
    state = ParseState(Drift(FORMAT_ID))
    with umf_checked():
        conversation = parse_payload(payload, state)
    return [ParseResult(conversation, state.drift.warnings)]


def parse_payload(payload: JSON, state: ParseState) -> Conversation:
    """The conversation a payload of any accepted shape describes."""
    return parse_in_shape(
        payload,
        FORMAT_ID,
        message_list=lambda raw: parse_contents(raw, "", state),
        request=lambda raw, path: parse_request(raw, path, state),
        response=lambda raw, path: parse_response(raw, path, state),
        is_request=lambda raw: "contents" in raw,
        is_response=lambda raw: "candidates" in raw or "promptFeedback" in raw,
        expected=(
            "not a Gemini generateContent payload: expected a request with 'contents', a "
            "contents list, a {'request', 'response'} exchange or a response with 'candidates'"
        ),
        answered=_answered,
    )


def _answered(conversation: Conversation, answer: Message) -> None:
    conversation.metadata.provider_response_id = answer.id


def _parse_system(raw: JSON, path: str, state: ParseState) -> Message:
    """``systemInstruction``: a Content whose role (if any) the API ignores; kept as a hint."""
    fields = Fields(raw, path)
    role = fields.string("role")
    hints: dict[str, Any] = {"$system": True, "$role": role}
    if "parts" not in fields.rest:
        hints["$parts"] = "absent"
    raw_parts = fields.take("parts")
    blocks = [] if raw_parts is None else parse_parts(raw_parts, fields.at("parts"), "s", state)
    extra = {**fields.rest, **{k: v for k, v in hints.items() if v is not None}}
    return Message(role="system", content=blocks, extra=extra_of(FORMAT_ID, extra))


def parse_request(raw: JSON, path: str, state: ParseState) -> Conversation:
    """A generateContent body; fields UMF has no name for go to the conversation's extra."""
    fields = Fields(raw, path)
    messages = parse_contents(fields.take("contents", required=True), fields.at("contents"), state)
    system = fields.take("systemInstruction")
    if system is not None:
        messages.insert(0, _parse_system(system, fields.at("systemInstruction"), state))
    extra: dict[str, Any] = {}
    tools, layout = _parse_tools(fields)
    if layout is not None:
        extra["$tools"] = layout
    tool_choice = _parse_tool_config(fields, extra)
    parameters = _parse_parameters(fields, extra)
    return Conversation(
        messages=messages,
        tools=tools,
        tool_choice=tool_choice,
        parameters=parameters,
        extra=extra_of(FORMAT_ID, {**fields.rest, **extra}),
    )


def _parse_tools(fields: Fields) -> tuple[list[Tool], list[dict[str, Any]] | None]:
    """UMF tools (one per function declaration) and the layout of the ``tools`` array: each
    entry as sent, with its ``functionDeclarations`` replaced by how many it held."""
    entries = fields.array("tools")
    if entries is None:
        return [], None
    tools: list[Tool] = []
    layout: list[dict[str, Any]] = []
    for index, raw in enumerate(entries):
        entry = Fields(raw, f"{fields.at('tools')}[{index}]")
        declarations = entry.array("functionDeclarations")
        shape = dict(entry.rest)
        if declarations is not None:
            shape["functionDeclarations"] = len(declarations)
            path = entry.at("functionDeclarations")
            tools += [_parse_declaration(d, f"{path}[{i}]") for i, d in enumerate(declarations)]
        layout.append(shape)
    return tools, layout


def _parse_declaration(raw: JSON, path: str) -> Tool:
    """A FunctionDeclaration. ``parameters`` (OpenAPI) is read as JSON Schema, the original
    kept in ``$parameters`` when that changed it; ``parametersJsonSchema`` is read as is."""
    fields = Fields(raw, path)
    name = fields.string("name", required=True) or ""
    description = fields.string("description")
    hints: dict[str, Any] = {}
    schema = fields.mapping("parameters")
    if schema is not None:
        converted = to_json_schema(schema)
        if converted != schema:
            hints["$parameters"] = schema
        schema = converted
    elif isinstance(fields.rest.get("parametersJsonSchema"), dict):
        schema = fields.mapping("parametersJsonSchema")
        hints["$schema"] = "json"
    return Tool(
        name=name,
        description=description,
        parameters=schema,
        extra=extra_of(FORMAT_ID, {**fields.rest, **hints}),
    )


def _parse_tool_config(fields: Fields, extra: dict[str, Any]) -> ToolChoice | None:
    """``toolConfig.functionCallingConfig`` as tool_choice; the rest of ``toolConfig`` (and a
    config whose mode UMF cannot name) verbatim in ``extra["toolConfig"]``."""
    config = fields.mapping("toolConfig")
    if config is None:
        return None
    tool_config = Fields(config, fields.at("toolConfig"))
    calling = tool_config.rest.get("functionCallingConfig")
    mode = calling.get("mode") if isinstance(calling, dict) else None
    if not isinstance(mode, str) or mode not in TOOL_MODES:
        extra["toolConfig"] = tool_config.rest
        return None
    tool_config.take("functionCallingConfig")
    extra["toolConfig"] = tool_config.rest
    choice = Fields(calling, tool_config.at("functionCallingConfig"))
    choice.take("mode")
    hints = {"$mode": mode} if mode == "VALIDATED" else {}
    names = choice.rest.get("allowedFunctionNames")
    if mode == "ANY" and isinstance(names, list) and len(names) == 1 and isinstance(names[0], str):
        choice.take("allowedFunctionNames")
        return ToolChoice(type="tool", name=names[0], extra=extra_of(FORMAT_ID, choice.rest))
    kind: Any = TOOL_MODES[mode]
    return ToolChoice(type=kind, extra=extra_of(FORMAT_ID, {**choice.rest, **hints}))


def _parse_parameters(fields: Fields, extra: dict[str, Any]) -> Parameters:
    """``model`` (when a logged body names it) and the sampling fields of
    ``generationConfig``; its other fields stay in ``extra["generationConfig"]``."""
    model = fields.string("model")
    if "generationConfig" not in fields.rest:
        return Parameters(model=model)
    raw = fields.take("generationConfig")
    if raw is None:
        extra["generationConfig"] = None
        return Parameters(model=model)
    config = Fields(raw, fields.at("generationConfig"))
    stop = stop_sequences(config, "stopSequences")
    parameters = Parameters(
        model=model,
        temperature=config.number("temperature"),
        top_p=config.number("topP"),
        top_k=config.integer("topK"),
        max_tokens=config.integer("maxOutputTokens"),
        stop=stop,
        seed=config.integer("seed"),
        presence_penalty=config.number("presencePenalty"),
        frequency_penalty=config.number("frequencyPenalty"),
    )
    extra["generationConfig"] = config.rest
    return parameters
