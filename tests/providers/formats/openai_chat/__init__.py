"""Tests of the ``openai-chat`` format.

``test_fixtures``, ``test_parse``, ``test_exact_shapes`` and ``test_malformed`` cover reading
Chat Completions payloads and writing them back exactly.

The ``test_conversion_*`` modules render conversations read from other formats: every rendered
request must be one OpenAI accepts (the SDK's request types, plus the tool pairing rules they
cannot express), and everything it could not carry must be a warning.
"""
