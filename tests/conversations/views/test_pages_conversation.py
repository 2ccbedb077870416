"""The conversation page: the thread as it happened, branches, tool calls, warnings."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from conversations import models, selectors
from tests.conftest import load_fixture
from tests.conversations.helpers import (
    TREE,
    html,
    logged_in,
    message_ids,
    store,
    tool_conversation,
)

pytestmark = pytest.mark.django_db


def test_messages_render_in_order_with_markdown_and_code(alice: Any) -> None:
    conversation = store(
        alice,
        [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Show me *python*"},
            {"role": "assistant", "content": "Here:\n\n```python\nprint('hi')\n```"},
        ],
    )
    page = html(logged_in(alice).get(f"/conversations/{conversation.pk}/"))
    assert page.index("Be brief.") < page.index("<em>python</em>") < page.index('class="hl"')
    assert 'class="hl-nb"' in page  # pygments highlighted `print`
    assert "role-system" in page and "role-user" in page and "role-assistant" in page


def test_tool_calls_pair_with_results_and_thinking_is_collapsed(alice: Any) -> None:
    conversation = store(alice, tool_conversation(1, "t"))
    page = html(logged_in(alice).get(f"/conversations/{conversation.pk}/"))
    assert 'id="call-call_t_0"' in page
    assert "answered" in page
    assert 'href="#call-call_t_0"' in page  # the tool message points back at its call
    assert '<details class="block thinking">' in page  # closed by default
    assert "signed" in page
    assert "10 in · 5 out" in page


def test_failed_tool_results_are_marked(alice: Any) -> None:
    messages = tool_conversation(1, "e")
    messages[2]["content"][0]["is_error"] = True
    conversation = store(alice, messages)
    page = html(logged_in(alice).get(f"/conversations/{conversation.pk}/"))
    assert "tool-call error" in page
    assert 'badge error">error' in page


def test_redacted_thinking_is_marked(alice: Any) -> None:
    thinking = {"type": "thinking", "redacted": True, "data": "opaque"}
    conversation = store(alice, [{"role": "assistant", "content": [thinking]}])
    page = html(logged_in(alice).get(f"/conversations/{conversation.pk}/"))
    assert "redacted" in page


def test_tools_parameters_usage_and_provenance(alice: Any) -> None:
    conversation = store(alice, load_fixture("anthropic/thinking_tool_loop.json"), "anthropic")
    page = html(logged_in(alice).get(f"/conversations/{conversation.pk}/"))
    assert "Tools offered (1)" in page and "run_sql" in page
    assert "&quot;query&quot;" in page  # the schema, escaped
    assert "max_tokens" in page  # parameters
    assert "read as anthropic" in page  # provenance badge
    assert "Usage on this path" in page


def test_default_path_and_sibling_switcher(alice: Any) -> None:
    conversation = store(alice, TREE)
    ids = message_ids(conversation)
    client = logged_in(alice)
    page = html(client.get(f"/conversations/{conversation.pk}/"))
    assert "fourth answer" in page and "second answer" not in page
    assert ">3/3<" in page
    assert f"?leaf={ids['a2']}" in page  # the previous branch
    branch = html(client.get(f"/conversations/{conversation.pk}/?leaf={ids['a2']}"))
    assert "second answer" in branch and "third answer" in branch
    assert "fourth answer" not in branch and ">2/3<" in branch
    unknown = html(client.get(f"/conversations/{conversation.pk}/?leaf=not-a-uuid"))
    assert "fourth answer" in unknown


def test_thread_selector_paths(alice: Any) -> None:
    conversation = store(alice, TREE)
    ids = message_ids(conversation)
    thread = selectors.conversation_thread(conversation=conversation, leaf=ids["q2"])
    assert [m["id"] for m in thread.messages] == [ids["q1"], ids["a2"], ids["q2"], ids["a3"]]
    assert thread.messages[1]["siblings"] == [ids["a1"], ids["a2"], ids["a4"]]


def test_warnings_show_on_the_message_they_concern(alice: Any) -> None:
    conversation = store(alice, load_fixture("openai-chat/legacy_functions.json"), "openai-chat")
    warning = models.DriftWarning.objects.filter(conversation=conversation).first()
    assert warning is not None and (warning.field or "").startswith("messages[")
    page = html(logged_in(alice).get(f"/conversations/{conversation.pk}/"))
    article = page.split('class="msg', 3)[2]  # messages[1] is the second article
    assert warning.category in article


@pytest.mark.parametrize(
    ("field", "source_format", "expected"),
    [
        ("messages[3].content[1]", "openai-chat", 3),
        ("messages[0].content", "anthropic", 1),
        ("[2].content", "forge", 2),
        # In a file of many, [N] is the entry; its messages are counted inside it.
        ("[0].chat_messages[3].content[1]", "claude-export", 3),
        ("[4].conversations[2].value", "sharegpt", 2),
        ("[0].mapping.abc.message", "chatgpt-export", None),
        ("candidates[0].content.parts[0]", "gemini", -1),
        ("tools[0]", "openai-chat", None),
        (None, "umf", None),
    ],
)
def test_warning_fields_map_to_messages(field: Any, source_format: str, expected: Any) -> None:
    assert selectors.warning_message_index(field, source_format, 1) == expected


def test_a_chatgpt_warning_shows_on_the_node_it_names(alice: Any) -> None:
    payload = load_fixture("chatgpt-export/export_2026_hidden_context.json")
    conversation = store(alice, payload, "chatgpt-export")
    page = html(logged_in(alice).get(f"/conversations/{conversation.pk}/"))
    hidden, thread = page.split("</details>", 1)
    assert "id-synthesized" not in hidden
    articles = thread.split('class="msg')
    [python] = [a for a in articles if 'class="tool-name">python<' in a]
    assert "id-synthesized" in python


HOSTILE = "<script>alert(1)</script>"
# A javascript: URL in a real attribute (escaped text is inert and may mention it).
LIVE_URL = re.compile(r"<[a-z]+[^>]*\s(?:href|src)\s*=\s*['\"]?\s*javascript", re.I)


def test_hostile_content_renders_inert(alice: Any) -> None:
    payload = {
        "metadata": {"title": f"title {HOSTILE}"},
        "tools": [{"name": f"tool{HOSTILE}", "description": HOSTILE, "parameters": {"x": HOSTILE}}],
        "messages": [
            {"role": "user", "content": f"plain {HOSTILE} and [click](javascript:alert(1))"},
            {
                "role": "assistant",
                "name": HOSTILE,
                "content": [
                    {"type": "text", "text": f"**md** {HOSTILE} <img src=x onerror=alert(1)>"},
                    {
                        "type": "text",
                        "text": "[a](JaVaScRiPt:alert(1)) <a href='javascript:x'>b</a>",
                    },
                    {"type": "tool_use", "id": "c1", "name": HOSTILE, "input": {"q": HOSTILE}},
                    {"type": "image", "source": {"type": "url", "url": "javascript:alert(1)"}},
                    {"type": "thinking", "text": HOSTILE},
                ],
            },
            {
                "role": "tool",
                "tool_call_id": "c1",
                "content": [{"type": "tool_result", "tool_use_id": "c1", "content": HOSTILE}],
            },
        ],
    }
    conversation = store(alice, payload)
    client = logged_in(alice)
    for path in [
        f"/conversations/{conversation.pk}/",
        "/",
        "/?q=alert",
        f"/conversations/{conversation.pk}/export/warnings/?format=anthropic",
    ]:
        page = html(client.get(path))
        assert "<script>alert" not in page, path
        assert not LIVE_URL.search(page), path
        assert not re.search(r"<img\s+src=x", page), path
        assert not re.search(r"<[a-z]+[^>]*\son[a-z]+\s*=", page, re.I), path
    page = html(client.get(f"/conversations/{conversation.pk}/"))
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<strong>md</strong>" in page


def test_a_cited_answer_reads_as_one_passage_with_numbered_sources(alice: Any) -> None:
    path = (
        Path(__file__).resolve().parents[3]
        / "conversations/demo/anthropic.multimodal-documents.json"
    )
    payload = json.loads(path.read_text())
    conversation = store(alice, payload, format_id="anthropic")
    page = html(logged_in(alice).get(f"/conversations/{conversation.pk}/"))
    answer = selectors.conversation_thread(conversation=conversation).messages[1]
    anchor = f"cite-{answer['id']}-0"
    sup = '<sup class="cite"><a href="#{}-{}">{}</a></sup>'
    assert (
        "<p>Probably yes. Workers of this species measure 7 to 12 mm"
        + sup.format(anchor, 1, 1)
        + ", and the colony was found under bark"
        + sup.format(anchor, 2, 2)
        + ", which matches the second photo.</p>"
    ) in page
    assert page.count('<ol class="citations">') == 1
    assert f'<li id="{anchor}-1" value="1">Species notes: “Workers measure 7 to 12 mm.”' in page
    assert f'<li id="{anchor}-2" value="2">Field log: “Observation 1: colony' in page


def test_thread_blocks_read_absent_fields_as_none(alice: Any) -> None:
    conversation = store(alice, tool_conversation(1, "n"))
    thread = selectors.conversation_thread(conversation=conversation)
    call = thread.messages[1]["blocks"][2]
    assert call["name"] == "lookup"
    assert call["raw_arguments"] is None  # the templates' optional fields: no KeyError
    assert "raw_arguments" not in call
