"""Media as the OpenAI APIs (``openai-chat``, ``openai-responses``) take it: base64 data
as a ``data:`` URI (or, for a file's ``file_data``, bare base64), OpenAI's own file ids,
and the filename a file wants beside its data.
"""

from __future__ import annotations

import mimetypes

from providers.formats._kit.context import RenderContext
from providers.formats._kit.drift import report_defaulted, report_field_dropped
from providers.formats._kit.paths import at
from providers.formats._kit.wire import data_uri, parse_data_uri
from providers.umf import DocumentBlock, MediaSource


def base64_source(uri: str) -> tuple[MediaSource, str | None] | None:
    """A base64 source for a ``data:`` URI, with the URI itself when the source would
    not spell it the same way again (extra parameters, no media type); None for any other
    URL."""
    parsed = parse_data_uri(uri)
    if parsed is None:
        return None
    media_type, data = parsed
    source = MediaSource(type="base64", media_type=media_type, data=data)
    return source, None if data_uri(media_type, data) == uri else uri


def file_data_source(file_data: str, filename: str | None) -> tuple[MediaSource, str | None]:
    """The source of a file's ``file_data`` and the ``$uri`` hint that spells it back."""
    # file_data is a data URI in OpenAI's examples, but bare base64 is accepted too.
    found = base64_source(file_data)
    if found is not None:
        return found
    media_type = mimetypes.guess_type(filename)[0] if filename else None
    return MediaSource(type="base64", media_type=media_type, data=file_data), file_data


def openai_file_id(file_id: str | None) -> bool:
    """Whether a file id is one of OpenAI's (``file-...``); other providers' ids
    (Anthropic's ``file_...``) mean nothing to OpenAI."""
    return file_id is not None and file_id.startswith("file-")


def filename_for(block: DocumentBlock, path: str, ctx: RenderContext, has_data: bool) -> str | None:
    """The filename of a converted file: OpenAI wants one with file data, and a title is
    the next best thing to one (``content-dropped``, info, for a title beside a filename;
    ``parameter-defaulted``, info, for one made up from the media type)."""
    filename = block.filename or block.title
    if block.title is not None and block.title != filename:
        why = f"{ctx.label} files have a filename but no title"
        report_field_dropped(path, "title", block.title, ctx.drift, why)
    if filename is None and has_data:
        extension = mimetypes.guess_extension(block.source.media_type or "") or ".bin"
        filename = f"document{extension}"
        report_defaulted(
            at(path, "filename"),
            filename,
            ctx.drift,
            f"{ctx.label} wants a filename with file data",
        )
    return filename
