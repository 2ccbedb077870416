"""Browser pages: thin views over the same selectors and services as the API."""

from conversations.views.exports import (
    export_job_detail,
    export_job_download,
    export_job_status,
    export_jobs_page,
)
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
from conversations.views.trash import trash_add, trash_page, trash_purge, trash_restore

__all__ = [
    "attachment",
    "conversation_count",
    "conversation_detail",
    "conversation_list",
    "export_download",
    "export_job_detail",
    "export_job_download",
    "export_job_status",
    "export_jobs_page",
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
    "trash_add",
    "trash_page",
    "trash_purge",
    "trash_restore",
]
