"""A conversation's messages a page at a time (``GET conversations/{id}/messages``), for a
conversation too long for its detail to hold them all inline."""

from __future__ import annotations

import base64
import binascii

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from conversations import selectors
from conversations.api.serializers.conversations import MessagePageOutput, MessagesQuery
from conversations.api.views import UnknownCursor
from conversations.ownership import owned_conversation

# A cursor is the position a page starts after ("a") or ends before ("b"), opaque to
# clients: positions grow along a branch, so a page never shifts when replays add others.
_DIRECTIONS = {"a": "after", "b": "before"}


def encode_cursor(direction: str, position: int) -> str:
    return base64.urlsafe_b64encode(f"{direction}{position}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> dict[str, int]:
    """``{"after": n}`` or ``{"before": n}`` (422 ``invalid_cursor`` for any other string)."""
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("ascii")
        direction, position = _DIRECTIONS[text[:1]], int(text[1:])
    except (binascii.Error, UnicodeDecodeError, KeyError, ValueError):
        raise UnknownCursor() from None
    if position < 0 or not text[1:].isdigit():
        raise UnknownCursor()
    return {direction: position}


class UnknownLeaf(APIException):
    """A well-formed ``leaf`` that names no message of the conversation: the request is
    valid, what it names is not there (a malformed one is a 400)."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_code = "unknown_leaf"
    default_detail = "no message of this conversation has this id"
    field = "leaf"


class MessageListView(APIView):
    more_error_statuses = ("422",)  # an unknown cursor or leaf

    @extend_schema(
        parameters=[MessagesQuery],
        responses=MessagePageOutput,
        summary="A conversation's messages, a page at a time",
        description="The imported thread in order (what `conversation.messages` of the "
        "detail holds, which past UMF_DETAIL_MAX_INLINE_MESSAGES holds only the first "
        "ones), or with `leaf` the branch through that message. Follow `next` until it "
        "is null.",
    )
    def get(self, request: Request, pk: str) -> Response:
        query = MessagesQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        params = query.validated_data
        conversation = owned_conversation(request, pk)
        where = decode_cursor(params["cursor"]) if "cursor" in params else {}
        try:
            page = selectors.message_page(
                conversation=conversation, limit=params["limit"], leaf=params.get("leaf"), **where
            )
        except selectors.UnknownLeaf:
            raise UnknownLeaf() from None
        results = [
            {
                "id": key,
                "position": position,
                "message": message.model_dump(mode="json", exclude_defaults=True),
            }
            for key, position, message in page.messages
        ]
        return Response(
            {
                "next": _link(request, "a", results[-1]["position"])
                if page.more_after and results
                else None,
                "previous": _link(request, "b", results[0]["position"])
                if page.more_before and results
                else None,
                "results": results,
            }
        )


def _link(request: Request, direction: str, position: int) -> str:
    url = request.build_absolute_uri()
    return replace_query_param(url, "cursor", encode_cursor(direction, position))
