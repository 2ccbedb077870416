"""Browser pages: thin views over the same selectors and services as the API."""

from conversations.views.pages import (
    attachment,
    conversation_count,
    conversation_detail,
    conversation_list,
    filter_suggestions,
    not_found,
)
from conversations.views.replay import (
    replay_detail,
    replay_start,
    replay_status,
    replay_turn_request,
)
from conversations.views.transfer import (
    export_download,
    export_warnings,
    import_job_detail,
    import_job_status,
    import_page,
)

__all__ = [
    "attachment",
    "conversation_count",
    "conversation_detail",
    "conversation_list",
    "export_download",
    "export_warnings",
    "filter_suggestions",
    "import_job_detail",
    "import_job_status",
    "import_page",
    "not_found",
    "replay_detail",
    "replay_start",
    "replay_status",
    "replay_turn_request",
]
