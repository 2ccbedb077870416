"""The Celery application; configuration comes from Django settings (``CELERY_*``)."""

import os

from celery import Celery

# Its signal handlers carry a request's id into the tasks it enqueues.
from umfsite import requestlog  # noqa: F401

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "umfsite.settings")
app = Celery("umfsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
