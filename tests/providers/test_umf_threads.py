"""Threads that read their first UMF values at the same moment do not crash the process.

msgspec builds the decoding information of a type the first time a value of it is
converted or decoded, and two threads doing that at once could crash the interpreter
(msgspec 0.22, CPython 3.11): a replay worker's eight threads, each reading its first
conversation from the database, died of a segmentation fault, and the runs they held
never ended. ``providers.umf`` now builds that information while it is imported. Each
try is a fresh interpreter (the information is built once per process) whose threads
switch as often as CPython allows; without the fix about three tries in four crashed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FIRST_READS_AT_ONCE = """
import sys, threading
sys.setswitchinterval(1e-6)
from providers.umf import Conversation, DriftWarning, Response
payload = {
    "messages": [
        {"role": "user", "content": [{"type": "text", "text": "hi"}]},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "a", "name": "f", "input": {}}
        ]},
    ],
    "metadata": {"warnings": [{"category": "content-dropped", "message": "x"}]},
}
start = threading.Barrier(8)
def read():
    start.wait()
    Conversation.model_validate(payload)
    DriftWarning.model_validate({"category": "content-dropped", "message": "x"})
    Response.model_validate_json(b'{"message": {"role": "assistant", "content": []}}')
threads = [threading.Thread(target=read) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
"""


def test_eight_threads_reading_their_first_values_at_once_do_not_crash() -> None:
    for _ in range(8):
        finished = subprocess.run(
            [sys.executable, "-c", FIRST_READS_AT_ONCE],
            cwd=ROOT,
            capture_output=True,
            timeout=60,
        )
        assert finished.returncode == 0, finished.stderr.decode()[-2000:]
