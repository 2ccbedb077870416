"""Reads. Each function decides its related-row fetching once, here, and runs a bounded
number of queries whatever the size of the conversation (tests pin the counts).

``stored``: a conversation read back as UMF; ``exports``: conversations rendered in a
format; ``listing``: the list, its search and sorts; ``thread``: the conversation page's
path through the tree, a window at a time; ``messages``: a conversation's messages a page
at a time; ``replays``: runs and their comparison with the original;
``import_jobs``: jobs and their results; ``identities``: the stored conversations an import
reads again; ``trash``: the trash, and the conversations an action of many is about;
``users``: people by name."""

from conversations.selectors.export_jobs import (
    export_file_chunks,
    export_job_get,
    export_job_list,
)
from conversations.selectors.exports import (
    conversation_export,
    conversation_export_or_stream,
    conversation_is_long,
    conversations_to_export,
    conversations_umf,
)
from conversations.selectors.identities import (
    StoredIdentities,
    conversation_identities,
    conversations_unchanged,
)
from conversations.selectors.import_jobs import (
    import_job_by_key,
    import_job_get,
    import_job_items,
    import_job_list,
)
from conversations.selectors.listing import (
    HIT_START,
    HIT_STOP,
    LIST_SORTS,
    SearchHit,
    conversation_count,
    conversation_list,
    conversation_models,
    conversation_sorted,
    filter_suggestions,
    search_hits,
)
from conversations.selectors.messages import MessagePage, UnknownLeaf, message_page
from conversations.selectors.replays import (
    ComparedTurn,
    replay_comparison,
    replay_run_by_key,
    replay_run_detail,
    replay_run_get,
    replay_run_list,
    replay_run_warnings,
    replay_runs_of,
    replay_turn_at,
    replay_turn_request,
)
from conversations.selectors.stored import (
    StoredConversation,
    attachment_for,
    conversation_get,
    conversation_messages,
    conversation_umf,
    warnings_for,
)
from conversations.selectors.thread import Thread, Window, conversation_thread
from conversations.selectors.trash import (
    conversation_selection,
    trash_count,
    trash_expired,
    trash_list,
    trash_selection,
)
from conversations.selectors.users import user_by_username
from conversations.selectors.warning_places import warning_message_index

__all__ = [
    "HIT_START",
    "HIT_STOP",
    "LIST_SORTS",
    "ComparedTurn",
    "MessagePage",
    "SearchHit",
    "StoredConversation",
    "StoredIdentities",
    "Thread",
    "UnknownLeaf",
    "Window",
    "attachment_for",
    "conversation_count",
    "conversation_export",
    "conversation_export_or_stream",
    "conversation_get",
    "conversation_identities",
    "conversation_is_long",
    "conversation_list",
    "conversation_messages",
    "conversation_models",
    "conversation_selection",
    "conversation_sorted",
    "conversation_thread",
    "conversation_umf",
    "conversations_to_export",
    "conversations_umf",
    "conversations_unchanged",
    "export_file_chunks",
    "export_job_get",
    "export_job_list",
    "filter_suggestions",
    "import_job_by_key",
    "import_job_get",
    "import_job_items",
    "import_job_list",
    "message_page",
    "replay_comparison",
    "replay_run_by_key",
    "replay_run_detail",
    "replay_run_get",
    "replay_run_list",
    "replay_run_warnings",
    "replay_runs_of",
    "replay_turn_at",
    "replay_turn_request",
    "search_hits",
    "trash_count",
    "trash_expired",
    "trash_list",
    "trash_selection",
    "user_by_username",
    "warning_message_index",
    "warnings_for",
]
