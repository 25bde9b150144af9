#!/usr/bin/env bash
# Installs Debian's Chromium and ChromeDriver for the browser test when they are
# missing (needs root and the package mirror), and a font so the page has glyphs.
set -euo pipefail
if command -v chromium >/dev/null && command -v chromedriver >/dev/null \
    && [ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
    exit 0
fi
echo "installing chromium, chromium-driver and fonts-dejavu-core from Debian's packages" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium chromium-driver fonts-dejavu-core >/dev/null
