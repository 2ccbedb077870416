"""Forms of the browser pages: they parse and validate input; views hand it to selectors
and services."""

from __future__ import annotations

import uuid
from datetime import datetime, time, timedelta
from typing import Any

from django import forms
from django.utils import timezone

from conversations import json_input, models, selectors
from conversations.provider_settings import configured_providers
from providers import formats


def _set_choices(form: forms.Form, name: str, choices: list[tuple[str, str]]) -> None:
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)
    field.choices = choices


def _json_problem(error: json_input.JsonError) -> str:
    if error.code == "parse_error":
        return f"not valid JSON: {error.message.removeprefix('malformed JSON: ')}"
    return error.message  # it names the place: "duplicate key at messages[0].role"


def _format_choices(*, auto: bool) -> list[tuple[str, str]]:
    choices = [(f.id, f"{f.id} — {f.label}") for f in formats.all_formats()]
    return [("auto", "auto-detect"), *choices] if auto else choices


class ConversationFilterForm(forms.Form):
    q = forms.CharField(required=False, max_length=500)
    format = forms.ChoiceField(required=False)
    provider = forms.ChoiceField(required=False)
    model = forms.CharField(required=False, max_length=200)
    tool = forms.CharField(required=False, max_length=200)
    warnings = forms.ChoiceField(
        required=False, choices=[("", "any"), ("yes", "with warnings"), ("no", "without")]
    )
    after = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    before = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    sort = forms.ChoiceField(
        required=False, choices=[(key, key) for key in selectors.LIST_SORTS], initial="newest"
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _set_choices(
            self, "format", [("", "any format")] + [(f.id, f.id) for f in formats.all_formats()]
        )
        providers = sorted({f.provider for f in formats.all_formats() if f.provider})
        _set_choices(self, "provider", [("", "any provider")] + [(p, p) for p in providers])

    def selector_kwargs(self) -> dict[str, Any]:
        """The arguments of ``selectors.conversation_list`` (call after ``is_valid``)."""
        data = self.cleaned_data
        has_warnings = {"yes": True, "no": False}.get(data.get("warnings") or "")
        return {
            "query": (data.get("q") or "").strip() or None,
            "source_format": data.get("format") or None,
            "provider": (data.get("provider") or "").strip() or None,
            # By prefix, with suggestions (views.filter_suggestions): "gpt-4o" finds
            # gpt-4o-mini too, "get_" every getter.
            "model_prefix": (data.get("model") or "").strip() or None,
            "tool_prefix": (data.get("tool") or "").strip() or None,
            "has_warnings": has_warnings,
            "started_after": _day_start(data.get("after")),
            "started_before": _day_start(data.get("before"), next_day=True),
        }


def _day_start(day: Any, *, next_day: bool = False) -> datetime | None:
    if day is None:
        return None
    start = timezone.make_aware(datetime.combine(day, time.min))
    return start + timedelta(days=1) if next_day else start


class PasteImportForm(forms.Form):
    format = forms.ChoiceField(initial="auto")
    payload = forms.CharField(widget=forms.Textarea(attrs={"rows": 16, "spellcheck": "false"}))
    title = forms.CharField(required=False, max_length=300)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _set_choices(self, "format", _format_choices(auto=True))

    def clean_payload(self) -> Any:
        """JSON, or the raw text for a text format (ChatML, fine-tuning JSONL)."""
        raw = self.cleaned_data["payload"]
        try:
            # The API's rules: no duplicate key, no NUL, no integer beyond 64 bits...
            return json_input.loads(raw.encode())
        except json_input.JsonError as error:
            if error.code == "parse_error" and _is_text_format(self.data.get("format")):
                return raw
            raise forms.ValidationError(_json_problem(error)) from None


def _is_text_format(format_id: object) -> bool:
    """A format read from text (ChatML, fine-tuning JSONL), not from one JSON value."""
    try:
        return isinstance(format_id, str) and formats.get(format_id).kind == "text"
    except formats.FormatError:
        return False


class UploadImportForm(forms.Form):
    format = forms.ChoiceField(initial="auto")
    file = forms.FileField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _set_choices(self, "format", _format_choices(auto=True))


class ExportForm(forms.Form):
    format = forms.ChoiceField()
    # The branch the page shows (its ``?leaf=``), or the whole tree.
    leaf = forms.UUIDField(required=False)
    scope = forms.ChoiceField(
        choices=[("branch", "This branch"), ("tree", "The whole tree")], required=False
    )

    def export_leaf(self) -> Any:
        """The message whose branch to export, or None for the whole tree."""
        return None if self.cleaned_data.get("scope") == "tree" else self.cleaned_data.get("leaf")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _set_choices(self, "format", _format_choices(auto=False))


class ReplayForm(forms.Form):
    provider = forms.ChoiceField()
    model = forms.CharField(max_length=200)
    mode = forms.ChoiceField(choices=models.ReplayRun.Mode.choices, initial="last")
    temperature = forms.FloatField(required=False, min_value=0, max_value=2)
    max_tokens = forms.IntegerField(required=False, min_value=1, max_value=1_000_000)
    parameters = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": '{"top_p": 0.9}'}),
        help_text="Other parameters, as a JSON object",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _set_choices(self, "provider", [(name, name) for name in configured_providers()])

    def clean_parameters(self) -> dict[str, Any]:
        raw = (self.cleaned_data.get("parameters") or "").strip()
        if not raw:
            return {}
        try:
            value = json_input.loads(raw.encode())
        except json_input.JsonError as error:
            raise forms.ValidationError(_json_problem(error)) from None
        if not isinstance(value, dict):
            raise forms.ValidationError("expected a JSON object")
        return value

    def replay_parameters(self) -> dict[str, Any]:
        """The run's parameters: the named fields over the free-form ones."""
        data = self.cleaned_data
        named = {k: data[k] for k in ("temperature", "max_tokens") if data.get(k) is not None}
        return {**data["parameters"], **named}


class IdListField(forms.Field):
    """Conversation ids, from as many inputs of one name as were ticked."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value: Any) -> list[uuid.UUID]:
        try:
            return [uuid.UUID(str(item)) for item in value or []]
        except ValueError:
            raise forms.ValidationError("not a conversation id", code="invalid") from None


class SelectionForm(forms.Form):
    """Which conversations a bulk action is about: those ticked (``ids``), or with
    ``all`` every conversation the list's filters (sent beside, as the list has them)
    match. ``export_format``: the export's (the filters have a ``format`` of their own)."""

    ids = IdListField(required=False)
    all = forms.BooleanField(required=False)
    export_format = forms.ChoiceField(required=False, initial="umf", label="Format")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _set_choices(self, "export_format", _format_choices(auto=False))

    def selection(self) -> dict[str, Any] | None:
        """``ids`` or ``filters`` for the services, or None when nothing was chosen
        (call after ``is_valid``)."""
        if self.cleaned_data.get("all"):
            filters = ConversationFilterForm(self.data)
            return {"filters": filters.selector_kwargs() if filters.is_valid() else {}}
        ids = self.cleaned_data.get("ids") or []
        return {"ids": ids} if ids else None


class RestoreForm(forms.Form):
    """Conversations to take out of the trash: ticked, or those one action trashed
    (``deleted_at``, the undo's)."""

    ids = IdListField(required=False)
    deleted_at = forms.DateTimeField(required=False)
