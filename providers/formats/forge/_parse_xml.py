"""The XML inside Forge's ``<tool>`` blocks: a small reader (``_render`` writes it).

Forge's XML is simple: elements without attributes, text with the five predefined
entities (and numeric references), and CDATA sections for content with special
characters. The reader turns an element into a JSON value: an element with child elements
is an object (a tag repeated becomes a list), any other element is its text, where CDATA
content is taken verbatim and the whitespace around it is layout. Anything else (an
attribute, a comment, an unclosed tag) is not Forge XML: :class:`XmlError`.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from typing import Any

_NAME = re.compile(r"[A-Za-z_][\w.\-]*")
_ENTITY = re.compile(r"&(?:lt|gt|amp|quot|apos|#\d+|#x[0-9A-Fa-f]+);")


class XmlError(ValueError):
    """The text is not the XML Forge writes."""


@dataclass
class Element:
    """One element: its tag, its children in order and its text pieces."""

    tag: str
    children: list[Element] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    cdata: list[str] = field(default_factory=list)

    def value(self) -> Any:
        """The JSON value the element stands for (see the module docstring)."""
        if self.children:
            if any(text.strip() for text in self.texts):
                raise XmlError(f"<{self.tag}> mixes text and elements")
            return _object(self.children)
        if self.cdata:
            if any(text.strip() for text in self.texts):
                raise XmlError(f"<{self.tag}> mixes text and CDATA")
            return "".join(self.cdata)
        return "".join(self.texts)


def _object(children: list[Element]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for child in children:
        value = child.value()
        if child.tag not in result:
            result[child.tag] = value
        elif isinstance(result[child.tag], _Repeated):
            result[child.tag].append(value)
        else:
            result[child.tag] = _Repeated([result[child.tag], value])
    return {
        key: list(value) if isinstance(value, _Repeated) else value for key, value in result.items()
    }


class _Repeated(list[Any]):
    """The values of a repeated tag, told apart from a value that is itself a list."""


def parse_children(text: str) -> list[Element]:
    """The elements of an XML fragment (whitespace between them is layout)."""
    root = Element("")
    end = _parse_content(text, 0, root)
    if end != len(text):
        raise XmlError("unexpected closing tag")
    if any(piece.strip() for piece in root.texts) or root.cdata:
        raise XmlError("text outside elements")
    return root.children


def _parse_content(text: str, position: int, parent: Element) -> int:
    """Read children and text into ``parent`` up to its closing tag; the closing tag's
    position (or the end of the text)."""
    while position < len(text):
        if text.startswith("<![CDATA[", position):
            end = text.find("]]>", position)
            if end < 0:
                raise XmlError("unclosed CDATA section")
            parent.cdata.append(text[position + 9 : end])
            position = end + 3
        elif text.startswith("</", position):
            return position
        elif text.startswith("<", position):
            position = _parse_element(text, position, parent)
        else:
            end = text.find("<", position)
            end = len(text) if end < 0 else end
            parent.texts.append(_unescape(text[position:end]))
            position = end
    return position


def _parse_element(text: str, position: int, parent: Element) -> int:
    match = _NAME.match(text, position + 1)
    if match is None:
        raise XmlError("not an element")
    tag, after = match.group(), match.end()
    if text.startswith("/>", after):
        parent.children.append(Element(tag))
        return after + 2
    if not text.startswith(">", after):
        raise XmlError(f"<{tag}> has attributes or is malformed")
    element = Element(tag)
    close = _parse_content(text, after + 1, element)
    if not text.startswith(f"</{tag}>", close):
        raise XmlError(f"<{tag}> is not closed")
    parent.children.append(element)
    return close + len(tag) + 3


def _unescape(text: str) -> str:
    if "&" in text and _ENTITY.sub("", text).count("&"):
        raise XmlError("a bare & in text")
    return html.unescape(text) if "&" in text else text


def is_tag(name: str) -> bool:
    """Whether ``name`` can be an element name."""
    return _NAME.fullmatch(name) is not None
