#!/usr/bin/env bash
# Makes sure a Chromium is there for the browser env and its tests. tti never downloads a browser:
# it uses TTI_CHROMIUM, Playwright's own if installed, or the system's chromium.
set -euo pipefail
if [ -n "${TTI_CHROMIUM:-}" ] && [ -x "${TTI_CHROMIUM}" ]; then
  echo "setup: using TTI_CHROMIUM=${TTI_CHROMIUM}"; exit 0
fi
for candidate in chromium chromium-browser google-chrome; do
  if command -v "$candidate" >/dev/null 2>&1; then echo "setup: using $(command -v "$candidate")"; exit 0; fi
done
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "setup: no Chromium found; installing Debian's chromium"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  echo "setup: installed $(command -v chromium)"
  exit 0
fi
cat >&2 <<'MSG'
setup: no Chromium found. Install one, then run this again:
  Debian/Ubuntu:  sudo apt-get install -y chromium
  or point tti at any Chromium/Chrome binary:  export TTI_CHROMIUM=/path/to/chrome
MSG
exit 1
