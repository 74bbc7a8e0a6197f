#!/usr/bin/env bash
# Runs every module's tests, on a bare machine that has only a JDK (17+) and Maven (3.8+):
#   1. installs what the tests need beyond Maven's own downloads, when it is missing (Debian packages, through
#      apt-get, as root or through sudo):
#        chromium + chromium-driver  the web console's browser tests (rpc-console) drive headless Chromium;
#        iproute2                    the multi-host test bed builds hosts in network namespaces with `ip`;
#   2. runs `mvn -B -ntp verify`, passing on any arguments (e.g. `-o`, `-pl rpc-core -am`); as a user other than
#      root it skips the multi-host test bed, saying why (network namespaces need root; CI runs as root).
# CI (.ci/run) calls exactly this script. Exits non-zero if anything could not be installed or any test failed.
set -euo pipefail
cd "$(dirname "$0")"

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromedriver ] || missing+=(chromium-driver)
command -v ip >/dev/null 2>&1 || missing+=(iproute2)

if [ ${#missing[@]} -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "run-tests.sh: the tests need ${missing[*]} and this machine has no apt-get to install them." >&2
    echo "Install them with your package manager (the browser tests look for /usr/bin/chromium and" >&2
    echo "/usr/bin/chromedriver, or -Dkestrel.test.chromium=... -Dkestrel.test.chromedriver=...), then run again." >&2
    exit 1
  fi
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || {
      echo "run-tests.sh: the tests need ${missing[*]}; installing them needs root. Run as root, or install sudo," >&2
      echo "or run: apt-get install -y ${missing[*]}" >&2
      exit 1
    }
    sudo=(sudo)
  fi
  echo "==> Installing what the tests need: ${missing[*]} (apt-get)"
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq "${missing[@]}"
fi

extra=()
if [ "$(id -u)" -ne 0 ]; then
  # the multi-host test bed creates network namespaces, which needs root; everything else runs as any user
  reason="run-tests.sh was run as $(id -un), not root: network namespaces need root (run as root to include it)"
  echo "==> The multi-host test bed (tests/kestrel-testbed) will be skipped: $reason"
  extra+=("-Dkestrel.testbed.skip=$reason")
fi

echo "==> mvn -B -ntp verify ${extra[*]} $*"
exec mvn -B -ntp verify "${extra[@]}" "$@"
