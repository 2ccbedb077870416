"""The REST API (``/api/v1/``): thin views that parse input and call services/selectors."""
