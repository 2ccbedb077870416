"""The formats kit under its former name, for the format packages not yet moved onto
``providers.formats._kit`` (issue 18). Nothing is defined here: new code imports from the
kit's submodules."""

from providers.formats._kit.drift import (
    MESSAGE_METADATA,
    offered_choice,
    report_foreign_fields,
    report_message_metadata,
    report_message_name,
)
from providers.formats._kit.extra import (
    extra_of,
    foreign_fields,
    hint,
    hinted_extra,
    own_extra,
    with_hints,
)
from providers.formats._kit.fields import (
    has_reserved_name,
    refuse_kept_name,
    refuse_reserved_names,
    require_list,
    require_mapping,
    require_str,
    reserved_field,
    split,
    unknown_fields,
)
from providers.formats._kit.ids import ToolIdMap
from providers.formats._kit.wire import (
    arguments_string,
    data_uri,
    dump_arguments,
    is_base64,
    parse_arguments,
    parse_data_uri,
    parse_object,
    signature_portable,
    wire_finish_reason,
)

__all__ = [
    "MESSAGE_METADATA",
    "ToolIdMap",
    "arguments_string",
    "data_uri",
    "dump_arguments",
    "extra_of",
    "foreign_fields",
    "has_reserved_name",
    "hint",
    "hinted_extra",
    "is_base64",
    "offered_choice",
    "own_extra",
    "parse_arguments",
    "parse_data_uri",
    "parse_object",
    "refuse_kept_name",
    "refuse_reserved_names",
    "report_foreign_fields",
    "report_message_metadata",
    "report_message_name",
    "require_list",
    "require_mapping",
    "require_str",
    "reserved_field",
    "signature_portable",
    "split",
    "unknown_fields",
    "wire_finish_reason",
    "with_hints",
]
