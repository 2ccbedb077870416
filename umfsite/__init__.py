"""The Django project of the UMF Archive."""

from umfsite.celery import app as celery_app

__all__ = ["celery_app"]
