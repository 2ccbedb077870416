"""What tests and benchmarks share, apart from both: a fake LLM provider server
(``provider_server``, its wire formats in ``wire``, its faults in ``provider_faults``), the
replay soak's workers and request audit, and a corpus of hostile inputs (``bad_inputs``)."""
