"""WSGI entry point (gunicorn umfsite.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "umfsite.settings")
application = get_wsgi_application()
