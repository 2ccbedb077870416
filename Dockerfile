# The web and worker image of the UMF Archive.
FROM python:3.11-slim

# PYTHONFAULTHANDLER: a process that crashes (a signal, as a C extension's fault) writes
# every thread's Python stack to its log before it dies.
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PYTHONFAULTHANDLER=1
WORKDIR /app

# The locked versions, each file checked against its hash (as `make run` installs them),
# in a layer of their own that a code change does not rebuild.
COPY requirements.lock ./
RUN pip install --require-hashes -r requirements.lock && useradd --create-home --uid 1000 archive
COPY pyproject.toml README.md ./
COPY umfsite ./umfsite
COPY conversations ./conversations
COPY providers ./providers
RUN pip install --no-deps .

COPY manage.py ./
COPY templates ./templates
COPY static ./static
# collectstatic needs settings that import in production mode; these values only build
# (a throwaway key: a weak or placeholder one is refused with DEBUG off).
RUN DJANGO_DEBUG=false DJANGO_ALLOWED_HOSTS=build \
    DJANGO_SECRET_KEY="$(python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
    python manage.py collectstatic --noinput

USER archive
EXPOSE 8000
# Threads, so a slow search does not hold a whole process, and keep-alive, so a browser
# reuses its connection: what bench/load.py measures (sync workers serve one request each).
CMD ["gunicorn", "umfsite.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", \
     "--worker-class", "gthread", "--threads", "4", "--keep-alive", "5", "--timeout", "60", \
     "--graceful-timeout", "60"]
