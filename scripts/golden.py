"""What the format layer makes of every fixture, written so that two runs compare with ``cmp``.

A change to the format layer that should not change its output (a move, a merge of twins, a
faster shape) is checked by running this before and after it:

    PYTHONPATH=. .venv/bin/python scripts/golden.py /tmp/before.jsonl
    ... the change ...
    PYTHONPATH=. .venv/bin/python scripts/golden.py /tmp/after.jsonl
    cmp /tmp/before.jsonl /tmp/after.jsonl

Every ``tests/fixtures/<format>/*.json`` is parsed in its directory's format, and every file
under ``tests/fixtures/<format>/files/`` is read as a file of that format (the formats that
read files). For each conversation read, one line gives the SHA-256 of its UMF JSON and the
parse's warnings; then one line per registered format gives the SHA-256 of the render and
its warnings, in order. A refusal is a line too, with its message and field. The suite
checks behaviour; this checks that nothing at all moved, warnings' order included.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from providers import formats
from providers.formats import FormatError
from providers.umf import Conversation, DriftWarning

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures"


def _sha(text: str | bytes) -> str:
    data = text.encode() if isinstance(text, str) else text
    return hashlib.sha256(data).hexdigest()[:16]


def _warnings(warnings: list[DriftWarning]) -> list[Any]:
    return [json.loads(warning.model_dump_json()) for warning in warnings]


def _refusal(error: FormatError) -> dict[str, Any]:
    return {"refused": error.message, "field": error.field}


def _conversation_lines(
    name: str, conversation: Conversation, parsed_warnings: list[DriftWarning]
) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = [
        {
            "fixture": name,
            "umf": _sha(conversation.model_dump_json(exclude_defaults=True)),
            "warnings": _warnings(parsed_warnings),
        }
    ]
    for target in formats.all_formats():
        try:
            rendered = target.render_all([conversation])
        except FormatError as error:
            lines.append({"fixture": name, "target": target.id, **_refusal(error)})
            continue
        payload = json.dumps(rendered.payload, ensure_ascii=False, default=str)
        lines.append(
            {
                "fixture": name,
                "target": target.id,
                "payload": _sha(payload),
                "warnings": _warnings(rendered.warnings),
            }
        )
    return lines


def _fixture_lines(format_id: str, path: Path) -> list[dict[str, Any]]:
    name = str(path.relative_to(FIXTURES))
    fmt = formats.get(format_id)
    try:
        if path.parent.name == "files":
            if fmt.iter_parse is None:
                return []
            with path.open("rb") as file:
                items = list(fmt.iter_parse(file))
        else:
            payload = json.loads(path.read_text()) if fmt.kind == "json" else path.read_text()
            items = list(formats.parse(format_id, payload).items)
    except FormatError as error:
        return [{"fixture": name, **_refusal(error)}]
    lines: list[dict[str, Any]] = []
    for index, item in enumerate(items):
        if isinstance(item, FormatError):
            lines.append({"fixture": f"{name}#{index}", **_refusal(item)})
        else:
            lines.extend(_conversation_lines(f"{name}#{index}", item.conversation, item.warnings))
    return lines


def main(out: Path) -> int:
    count = 0
    with out.open("w") as file:
        for directory in sorted(path for path in FIXTURES.iterdir() if path.is_dir()):
            paths = sorted(directory.glob("*.json")) + sorted((directory / "files").glob("*"))
            for path in paths:
                count += 1
                for line in _fixture_lines(directory.name, path):
                    file.write(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"{count} fixtures -> {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: scripts/golden.py OUT.jsonl")
    sys.exit(main(Path(sys.argv[1])))
