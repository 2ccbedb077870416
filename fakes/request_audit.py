"""What the fake provider's request log proves about a client's retries, seen from the
server: no second call after a fault that should not be retried, no call again for a turn
that was answered, and no retry sooner than the ``retry-after`` it was given.

Used by the replay soak (``bench/soak.py``) and its fast version in the test suite::

    audit = audit_requests(server.requests, run_of=lambda request: ...)
    assert not audit.violations, audit.violations[:5]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from fakes.provider_server import RecordedRequest


@dataclass
class Audit:
    """The counts of an audit, and every rule broken (empty when all is well)."""

    requests: int = 0
    calls: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    retries: int = 0
    # (waited, asked) for each retry that followed a retry-after, in seconds.
    waits: list[tuple[float, float]] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)

    @property
    def faults(self) -> int:
        """Requests that were answered with a fault."""
        return self.requests - self.outcomes["answer"]

    @property
    def least_margin(self) -> float | None:
        """The smallest waited-minus-asked over the retries after a retry-after."""
        return min((waited - asked for waited, asked in self.waits), default=None)


def audit_requests(
    requests: Iterable[RecordedRequest], *, run_of: Callable[[RecordedRequest], str]
) -> Audit:
    """Check every request of the log; ``run_of`` names the run (the job that may call
    several times, for several turns) each request belongs to."""
    audit = Audit()
    runs: dict[str, list[RecordedRequest]] = {}
    for request in requests:
        runs.setdefault(run_of(request), []).append(request)
        audit.requests += 1
        audit.outcomes[request.outcome] += 1
    for run, made in runs.items():
        made.sort(key=lambda request: request.received_at)
        _audit_run(audit, run, made)
    return audit


def _audit_run(audit: Audit, run: str, made: list[RecordedRequest]) -> None:
    last_of_call: dict[str, RecordedRequest] = {}
    for number, request in enumerate(made):
        earlier = made[:number]
        stopper = next((r for r in earlier if r.fault is not None and not r.fault.retryable), None)
        if stopper is not None:
            audit.violations.append(
                f"run {run}: called again after a fault not to retry ({stopper.outcome})"
            )
        previous = last_of_call.get(request.key)
        last_of_call[request.key] = request
        if previous is None:
            audit.calls += 1
            continue
        if previous.fault is None:
            audit.violations.append(f"run {run}: a turn that was answered was called again")
            continue
        audit.retries += 1
        asked = previous.fault.retry_after
        if asked is None:
            continue
        waited = request.received_at - previous.received_at
        audit.waits.append((waited, asked))
        if waited < asked:
            audit.violations.append(
                f"run {run}: retried after {waited:.2f} s; retry-after asked {asked:g} s"
            )
