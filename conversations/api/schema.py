"""OpenAPI schema generation: every operation documents the errors it can answer.

drf-spectacular documents only the success responses of a view; the fuzzer (and any
client generated from the schema) must also know the 4xx answers and their one shape.
Which statuses apply is read from the view itself, so a new view needs no annotations.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter

from conversations.api.serializers.common import ErrorOutput

ERROR_DESCRIPTIONS = {
    "400": "Malformed request: the field and the reason",
    "401": "Not authenticated",
    "403": "Not allowed",
    "404": "Not found, or not yours",
    "409": "Not ready: the job has not succeeded (yet)",
    "413": "Request body too large",
    "415": "Unsupported content type",
    "422": "Valid JSON that is not the named format",
    "429": "Too many requests (see Retry-After)",
}


class ApiSchema(AutoSchema):
    def get_override_parameters(self) -> list[Any]:
        parameters = list(super().get_override_parameters())
        if "{id}" in self.path:
            # The routes accept any segment (so that a bad id is a clean 404), but only
            # a UUID can name an object.
            parameters.append(OpenApiParameter("id", OpenApiTypes.UUID, OpenApiParameter.PATH))
        return parameters

    def _get_request_body(self, direction: Any = "request") -> Any:
        # Every write of this API needs its body, including the batch's plain list schema.
        body = super()._get_request_body(direction)  # type: ignore[no-untyped-call]
        if body is not None:
            body["required"] = True
        return body

    def _error_statuses(self) -> list[str]:
        statuses = ["401", "403"]
        has_body = self.method in ("POST", "PUT", "PATCH")
        if has_body or self._get_parameters():
            statuses.append("400")
        if "{" in self.path:
            statuses.append("404")
        if has_body:
            statuses += ["413", "415", "422"]
        if has_body and getattr(self.view, "throttle_classes", None):
            statuses.append("429")
        statuses += [
            code for code in getattr(self.view, "more_error_statuses", ()) if code not in statuses
        ]
        return statuses

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        if not self.path.startswith("/api/v1/"):
            return responses
        for status_code in self._error_statuses():
            if status_code not in responses:
                body = self._get_response_for_code(  # type: ignore[no-untyped-call]
                    ErrorOutput, status_code, direction=direction
                )
                responses[status_code] = {**body, "description": ERROR_DESCRIPTIONS[status_code]}
        return responses
