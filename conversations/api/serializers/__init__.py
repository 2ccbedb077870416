"""Input and output shapes of the API, one module per resource (``common`` holds the fields
and shapes they share); separate classes each way, no logic in them."""
