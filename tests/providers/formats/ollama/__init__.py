"""Tests of the ``ollama`` format.

``test_fixtures``, ``test_parse``, ``test_exact_shapes``, ``test_malformed`` and
``test_detection`` cover reading ``/api/chat`` payloads and writing them back exactly.

The ``test_convert_*`` modules feed the ``ollama`` renderer conversations from other formats:
what it sends, and the exact drift warning for every lossy cell of the reference's conversion
matrix (column OL). Every rendered request is checked against the ``ollama`` SDK types and the
message rules they cannot express, and for content lost without a warning.
"""
