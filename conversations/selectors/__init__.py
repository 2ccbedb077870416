"""Reads. Each function decides its related-row fetching once, here, and runs a bounded
number of queries whatever the size of the conversation (tests pin the counts).

``stored``: a conversation read back as UMF; ``listing``: the list, its search and sorts;
``thread``: the conversation page's path through the tree; ``replays``: runs and their
comparison with the original."""

from conversations.selectors.listing import (
    HIT_START,
    HIT_STOP,
    LIST_SORTS,
    SearchHit,
    conversation_list,
    conversation_models,
    conversation_sorted,
    filter_suggestions,
    search_hits,
)
from conversations.selectors.replays import (
    ComparedTurn,
    replay_comparison,
    replay_run_get,
    replay_runs_of,
)
from conversations.selectors.stored import (
    StoredConversation,
    attachment_for,
    conversation_get,
    conversation_umf,
    warnings_for,
)
from conversations.selectors.thread import Thread, conversation_thread, warning_message_index

__all__ = [
    "HIT_START",
    "HIT_STOP",
    "LIST_SORTS",
    "ComparedTurn",
    "SearchHit",
    "StoredConversation",
    "Thread",
    "attachment_for",
    "conversation_get",
    "conversation_list",
    "conversation_models",
    "conversation_sorted",
    "conversation_thread",
    "conversation_umf",
    "filter_suggestions",
    "replay_comparison",
    "replay_run_get",
    "replay_runs_of",
    "search_hits",
    "warning_message_index",
    "warnings_for",
]
