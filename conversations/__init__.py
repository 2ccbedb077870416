"""The archive app: models, services (writes), selectors (reads), API, pages and admin."""
