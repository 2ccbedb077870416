"""The Django project of the UMF Archive."""

import gc

from umfsite.celery import app as celery_app

# Loading or importing a long conversation allocates ~100,000 short-lived objects that all
# live until the request ends; with the default thresholds (700, 10, 10) the collector
# walks them again and again and took a third of a 10,000-message export. Collect less
# often; nothing here builds long-lived reference cycles.
gc.set_threshold(50_000, 20, 100)

__all__ = ["celery_app"]
