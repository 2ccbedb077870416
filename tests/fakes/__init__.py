"""Fakes that tests and benchmarks share: a fake LLM provider server (``provider_server``)."""
