"""Convert OpenAI Chat conversations to Anthropic, Gemini and Bedrock Converse: ours vs LiteLLM.

The same conversations (10, 100, 1,000 and 10,000 messages by default) are converted from
``openai-chat`` with :func:`providers.formats.convert` and with LiteLLM's own offline request
transformation (``map_openai_params`` then the provider config's request transform, as
``litellm.completion`` does before sending), in one run. Then a checker walks a few
conversations and lists, per target, the input facts each side's output no longer carries
and whether that side said so (our drift warnings; LiteLLM has no such channel).

    .venv/bin/python bench/convert.py [--sizes 10,100,1000,10000] [--repeats 5] [--bare]
    .venv/bin/python bench/convert.py --each-format 1000 [--repeats 5]
    .venv/bin/python bench/convert.py --calls 1000

``--bare`` also times two floors on the same conversations, against the goal's budget
(LiteLLM's time per message / 3): a bare openai-chat -> gemini conversion on plain dicts
(no UMF, no validation, no warnings, no unknown field kept: not a converter anyone should
use), what any Python converter costs; and building the validated UMF model of the
conversation from a ready-made dict in one msgspec call (nothing parsed, checked
or rendered), what any converter through the typed, validated UMF of DESIGN.md section 2
costs before it does any work.

``--each-format N`` times, instead, each of the registered formats on its own: the
N-message conversation is rendered once in the format, then that payload is parsed
and the conversation rendered back, in microseconds per message.

``--calls N`` counts, instead, the Python calls per message (cProfile: functions and
builtins) of parsing the N-message conversation from ``openai-chat`` and of rendering it
into each target: a figure a busy machine does not disturb, unlike the times.
``bench/convert_instructions.py`` counts the CPU instructions per message of the same
conversions under Valgrind, the other such figure.

Goal (issue 3): at least 3x LiteLLM's messages per second, and no silent loss where
LiteLLM has one. Pure Python: no Django, no network, no API key.
"""

from __future__ import annotations

import argparse
import copy
import inspect
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# LiteLLM would otherwise fetch its price map from GitHub when imported.
os.environ["LITELLM_LOCAL_MODEL_COST_MAP"] = "True"

from _convert_facts import facts, warned
from _convert_formats import calls_per_message, each_format

from providers import formats
from providers.formats._gc import collector_paused, payload_size
from providers.umf import Conversation

FETCHED: set[str] = set()  # image URLs LiteLLM downloaded (stubbed) instead of sending
TARGETS = ("anthropic", "gemini", "bedrock-converse")
MODELS = {
    "anthropic": "claude-sonnet-4-20250514",
    "gemini": "gemini-2.5-flash",  # 2.0 is not in the offline map: no system support
    "bedrock-converse": "anthropic.claude-3-5-sonnet-20240620-v1:0",
}
# A 1x1 PNG, sent inline as a data URI.
PNG_B64 = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk"
    "YPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
PARAMS: dict[str, Any] = {
    "temperature": 0.3,
    "max_tokens": 777,
    "top_p": 0.9,
    "stop": ["<<END>>"],
    "seed": 4242,
}
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather for a city.",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "unit": {"type": "string"}},
                "required": ["city"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "get_time",
            "description": "Local time in a timezone.",
            "parameters": {
                "type": "object",
                "properties": {"tz": {"type": "string"}},
                "required": ["tz"],
            },
        },
    },
]


# --- conversations ----------------------------------------------------------------------


def _cycle(t: int) -> list[dict[str, Any]]:
    """Six messages: a user turn, parallel tool calls, both results, the answer."""
    user_content: Any = f"User question {t}: weather in city_{t} and the time in tz_{t}?"
    if t % 4 == 1:
        user_content = [
            {"type": "text", "text": f"User question {t} about this picture."},
            {"type": "image_url", "image_url": {"url": f"https://example.com/img/photo_{t}.png"}},
        ]
    elif t % 4 == 3:
        user_content = [
            {"type": "text", "text": f"User question {t} about this inline picture."},
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG_B64}"}},
        ]
    user: dict[str, Any] = {"role": "user", "content": user_content}
    if t % 5 == 2:
        user["name"] = f"alice_{t}"
    a, b = f"call_{t}_a", f"call_{t}_b"
    return [
        user,
        {
            "role": "assistant",
            "content": f"Assistant looks it up {t}.",
            "tool_calls": [
                {
                    "id": a,
                    "type": "function",
                    "function": {
                        "name": "get_weather",
                        "arguments": json.dumps({"city": f"city_{t}", "unit": "celsius"}),
                    },
                },
                {
                    "id": b,
                    "type": "function",
                    "function": {"name": "get_time", "arguments": json.dumps({"tz": f"tz_{t}"})},
                },
            ],
        },
        {"role": "tool", "tool_call_id": a, "content": f"result_{t}_a: 21 degrees"},
        {"role": "tool", "tool_call_id": b, "content": f"result_{t}_b: 14:05"},
        {"role": "assistant", "content": f"Assistant answer {t}: 21 degrees at 14:05."},
    ]


def conversation(size: int) -> dict[str, Any]:
    """An OpenAI Chat request of exactly ``size`` messages."""
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "System prompt: you are a careful assistant."}
    ]
    t = 0
    while len(messages) + 5 <= size:
        if t % 40 == 7 and len(messages) + 6 <= size:
            messages.append({"role": "developer", "content": f"Developer note {t}: be brief."})
        messages.extend(_cycle(t))
        t += 1
    while len(messages) < size:
        role = "user" if messages[-1]["role"] != "user" else "assistant"
        messages.append({"role": role, "content": f"Filler {role} {len(messages)}."})
    return {"model": "gpt-4o", "messages": messages, "tools": TOOLS, **PARAMS}


# --- the two converters -----------------------------------------------------------------


def ours(target: str) -> Callable[[dict[str, Any]], tuple[Any, list[Any]]]:
    def run(payload: dict[str, Any]) -> tuple[Any, list[Any]]:
        result = formats.convert("openai-chat", target, payload)
        return result.payload, result.warnings

    return run


def litellm_converters() -> dict[str, Callable[[dict[str, Any]], Any]] | None:
    try:
        import litellm  # noqa: F401
    except ImportError:
        return None
    from litellm.litellm_core_utils.prompt_templates import factory
    from litellm.llms.anthropic.chat.transformation import AnthropicConfig
    from litellm.llms.bedrock.chat.converse_transformation import AmazonConverseConfig
    from litellm.llms.gemini.chat.transformation import GoogleAIStudioGeminiConfig
    from litellm.llms.vertex_ai.gemini.transformation import transform_request_body

    # Bedrock (and LiteLLM's Google AI Studio path) take images as bytes, so LiteLLM
    # downloads image URLs: answer offline with the inline PNG, counting the fetches.
    # LiteLLM's own work on the bytes is still timed; the download itself is not.
    def fetch_base64(url: str, *args: Any, **kwargs: Any) -> str:
        FETCHED.add(url)
        return f"data:image/png;base64,{PNG_B64}"

    def fetch_details(url: str, *args: Any, **kwargs: Any) -> tuple[str, str]:
        FETCHED.add(url)
        return PNG_B64, "image/png"

    factory.convert_url_to_base64 = fetch_base64
    factory.BedrockImageProcessor.get_image_details = staticmethod(fetch_details)

    # As litellm.completion does before the provider's transform, a developer message
    # becomes a system one (main.py: translate_developer_role_to_system_role).
    def developer_to_system(cfg: Any, messages: list[Any], model: str, provider: str) -> Any:
        # LiteLLM >= 1.110 wants to know the model and provider (older ones take none).
        parameters = inspect.signature(cfg.translate_developer_role_to_system_role).parameters
        if "model" not in parameters:
            return cfg.translate_developer_role_to_system_role(messages)
        return cfg.translate_developer_role_to_system_role(
            messages, model=model, custom_llm_provider=provider, api_base=None, model_info=None
        )

    def split(payload: dict[str, Any]) -> tuple[str, list[Any], dict[str, Any]]:
        rest = {k: v for k, v in payload.items() if k not in ("model", "messages")}
        return payload["model"], payload["messages"], rest

    def anthropic(payload: dict[str, Any]) -> Any:
        _, messages, params = split(payload)
        cfg, model = AnthropicConfig(), MODELS["anthropic"]
        messages = developer_to_system(cfg, messages, model, "anthropic")
        opt = cfg.map_openai_params(params, {}, model, drop_params=True)
        return cfg.transform_request(model, messages, opt, {}, {})

    def gemini(payload: dict[str, Any]) -> Any:
        _, messages, params = split(payload)
        cfg, model = GoogleAIStudioGeminiConfig(), MODELS["gemini"]
        messages = developer_to_system(cfg, messages, model, "gemini")
        opt = cfg.map_openai_params(params, {}, model, drop_params=True)
        return transform_request_body(messages, model, opt, "gemini", {}, None)

    def bedrock(payload: dict[str, Any]) -> Any:
        _, messages, params = split(payload)
        cfg, model = AmazonConverseConfig(), MODELS["bedrock-converse"]
        messages = developer_to_system(cfg, messages, model, "bedrock")
        opt = cfg.map_openai_params(params, {}, model, drop_params=True)
        return cfg._transform_request(model, messages, opt, {}, {})

    return {"anthropic": anthropic, "gemini": gemini, "bedrock-converse": bedrock}


def bare_gemini(payload: dict[str, Any]) -> dict[str, Any]:
    """The floor: openai-chat -> gemini with nothing checked, kept or reported."""
    contents: list[dict[str, Any]] = []
    system: list[dict[str, Any]] = []
    names: dict[str, str] = {}
    for message in payload["messages"]:
        role, content = message["role"], message.get("content")
        if role in ("system", "developer"):
            system.append({"text": content})
            continue
        parts: list[dict[str, Any]] = []
        if isinstance(content, str) and content:
            parts.append({"text": content})
        elif isinstance(content, list):
            for part in content:
                if part["type"] == "text":
                    parts.append({"text": part["text"]})
                elif part["type"] == "image_url":
                    url = part["image_url"]["url"]
                    if url.startswith("data:"):
                        head, data = url.split(",", 1)
                        mime = head[5:].split(";")[0]
                        parts.append({"inlineData": {"mimeType": mime, "data": data}})
                    else:
                        parts.append({"fileData": {"fileUri": url}})
        if role == "tool":
            call_id = message["tool_call_id"]
            response = {
                "id": call_id,
                "name": names.get(call_id, ""),
                "response": {"result": content},
            }
            parts, turn = [{"functionResponse": response}], "user"
        elif role == "assistant":
            for call in message.get("tool_calls") or ():
                function = call["function"]
                names[call["id"]] = function["name"]
                arguments = json.loads(function["arguments"])
                parts.append(
                    {
                        "functionCall": {
                            "id": call["id"],
                            "name": function["name"],
                            "args": arguments,
                        }
                    }
                )
            turn = "model"
        else:
            turn = "user"
        if contents and contents[-1]["role"] == turn:
            contents[-1]["parts"].extend(parts)
        else:
            contents.append({"role": turn, "parts": parts})
    tools = [tool["function"] for tool in payload.get("tools", [])]
    return {
        "contents": contents,
        "systemInstruction": {"parts": system},
        "tools": [{"functionDeclarations": tools}],
        "generationConfig": {
            "temperature": payload.get("temperature"),
            "maxOutputTokens": payload.get("max_tokens"),
        },
    }


def validated_umf(umf: dict[str, Any]) -> Conversation:
    """The floor of a converter through the validated UMF: only the model is built (with
    the collector paused from the same size as :func:`providers.formats.convert`)."""
    with collector_paused(payload_size(umf)):
        return Conversation.model_validate(umf)


def timed(
    fns: list[Callable[[dict[str, Any]], Any]], payload: dict[str, Any], repeats: int
) -> list[float]:
    """Median seconds of each of ``fns`` over ``repeats`` runs, interleaved so that a busy
    machine slows both sides alike; each run gets a fresh copy (both sides may mutate what
    they are given; the copy is not timed). CPU time of this process: both sides are pure
    computation here, and on a shared machine the time spent waiting for a core would
    otherwise count as theirs."""
    runs: list[list[float]] = [[] for _ in fns]
    for fn in fns:
        fn(copy.deepcopy(payload))  # warm up: imports, caches
    for _ in range(repeats):
        for fn, times in zip(fns, runs, strict=True):
            data = copy.deepcopy(payload)
            start = time.process_time()
            fn(data)
            times.append(time.process_time() - start)
    return [statistics.median(times) for times in runs]


def differences(lite: dict[str, Callable[[dict[str, Any]], Any]] | None, size: int) -> None:
    payload = conversation(size)
    wanted = facts(payload, PNG_B64, PARAMS)
    print(f"\nDifferences: what each output carries of a {size}-message conversation")
    print("(kept = found in the output; WARNED = lost, with a drift warning; SILENT = lost)")
    bugs: list[str] = []
    for target in TARGETS:
        our_out, our_warnings = ours(target)(copy.deepcopy(payload))
        lite_out: Any = None
        lite_error = ""
        if lite is not None:
            try:
                lite_out = lite[target](copy.deepcopy(payload))
            except Exception as exc:
                lite_error = f"{type(exc).__name__}: {exc}"[:100]
        print(f"\n  {target}  (our warnings: {len(our_warnings)})")
        print(f"    {'fact':<28} {'ours':<7} {'LiteLLM':<8} example")
        for fact in wanted:
            ok = fact.check(our_out)
            mine = "kept" if ok else ("WARNED" if warned(fact, our_warnings) else "SILENT")
            if lite_out is None:
                theirs = "n/a"
            elif fact.check(lite_out):
                theirs = "kept"
            elif fact.kind == "image by URL" and fact.text in FETCHED:
                theirs = "fetched"  # downloaded and sent as bytes: the URL itself is gone
            else:
                theirs = "SILENT"
            mark = "  <-- LiteLLM silent loss" if theirs == "SILENT" and mine != "SILENT" else ""
            if mine == "SILENT":
                mark = "  <-- OUR SILENT LOSS (bug)"
                bugs.append(f"{target}: {fact.kind}")
            print(f"    {fact.kind:<28} {mine:<7} {theirs:<8} {fact.text[:34]!r}{mark}")
        if lite_error:
            print(f"    LiteLLM failed: {lite_error}")
        kinds = sorted({w.category for w in our_warnings})
        print(f"    our warning categories: {', '.join(kinds) or '-'}")
    print("\nOur silent losses: " + ("; ".join(bugs) if bugs else "none"))


def floors(sizes: list[int], repeats: int, budgets: dict[tuple[str, int], float]) -> None:
    print("\nFloors, us per message (budget = LiteLLM's time / 3, what the goal allows):")
    targets = [target for target in TARGETS if (target, sizes[0]) in budgets]
    head = f"{'messages':>8} {'bare gemini':>12} {'validated UMF':>14}"
    print(head + "".join(f" {'budget ' + target:>24}" for target in targets))
    for size in sizes:
        payload = conversation(size)
        umf = formats.convert("openai-chat", "umf", payload).payload
        [bare] = timed([bare_gemini], payload, repeats)
        [model] = timed([validated_umf], umf, repeats)
        row = f"{size:>8} {bare / size * 1e6:>12.1f} {model / size * 1e6:>14.1f}"
        print(row + "".join(f" {budgets[t, size] * 1e6:>24.1f}" for t in targets))


# --- main -------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,100,1000,10000")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--facts-size", type=int, default=60, help="conversation checked")
    parser.add_argument("--bare", action="store_true", help="also time the bare floor")
    parser.add_argument(
        "--each-format", type=int, metavar="N", help="only time every format at N messages"
    )
    parser.add_argument("--calls", type=int, metavar="N", help="only count calls at N messages")
    args = parser.parse_args()
    if args.calls:
        calls_per_message(conversation(args.calls), TARGETS)
        return
    if args.each_format:
        each_format(conversation(args.each_format), args.repeats)
        return
    sizes = [int(s) for s in args.sizes.split(",")]

    lite = litellm_converters()
    if lite is None:
        print("LiteLLM is not installed (pip install -e '.[bench]'): timing ours only.\n")
    else:
        import importlib.metadata

        print(f"LiteLLM {importlib.metadata.version('litellm')}, offline transformation.\n")

    head = f"{'target':<17} {'messages':>8} {'ours ms':>10} {'LiteLLM ms':>11}"
    print(f"{head} {'ours msg/s':>11} {'LiteLLM msg/s':>14} {'ratio':>7}")
    budgets: dict[tuple[str, int], float] = {}  # seconds per message the goal allows
    for target in TARGETS:
        for size in sizes:
            payload = conversation(size)
            fns = [ours(target)] + ([lite[target]] if lite is not None else [])
            mine, *rest = timed(fns, payload, args.repeats)
            row = f"{target:<17} {size:>8} {mine * 1e3:>10.2f}"
            if not rest:
                print(f"{row} {'-':>11} {size / mine:>11.0f} {'-':>14} {'-':>7}")
                continue
            theirs = rest[0]
            budgets[target, size] = theirs / size / 3
            print(
                f"{row} {theirs * 1e3:>11.2f} {size / mine:>11.0f} {size / theirs:>14.0f}"
                f" {theirs / mine:>6.1f}x"
            )
    if args.bare:
        floors(sizes, args.repeats, budgets)
    differences(lite, args.facts_size)


if __name__ == "__main__":
    main()
