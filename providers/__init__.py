"""Pure-Python library of the UMF archive: the UMF types, format converters and provider
clients. It never imports Django or the ``conversations`` app (a test enforces this)."""
