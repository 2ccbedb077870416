#!/bin/sh
# The end-to-end tests (tests/e2e) drive Debian's Chromium through Playwright; Playwright's
# own browser download is never used. Install Chromium when it is missing: with apt-get
# when running as root, otherwise say how and fail.
set -eu
CHROMIUM="${UMF_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then
    exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Debian's chromium for the end-to-end tests..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    [ -x "$CHROMIUM" ] && exit 0
    echo "chromium was installed but $CHROMIUM is missing" >&2
    exit 1
fi
echo "The end-to-end tests need Chromium at $CHROMIUM. Install it with:" >&2
echo "    sudo apt-get update && sudo apt-get install -y chromium" >&2
echo "(or point UMF_CHROMIUM at another Chromium binary)." >&2
exit 1
