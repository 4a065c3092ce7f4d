#!/usr/bin/env bash
# The Debian packages the tests need, installed with apt-get when missing: the one list that
# .ci/run and the GitHub workflows (.github/workflows/ci.yml) both use. Run as root (or with sudo).
#
#   prometheus         the real Prometheus server and promtool (integration tests, tag prometheus)
#   victoria-metrics   a second real scraper (integration tests, tag victoriametrics)
#   zstd               the reference zstd tool, which decodes the zstd bodies (ZstdDecodersTests)
#   python3-zstandard  Debian's python-zstandard, a decoder that reads only the first of several
#                      frames in one-shot mode (ZstdDecodersTests)
#   gnupg              the release check signs the artifacts with a throwaway key (.ci/release-check.sh)
#   curl               the Maven wrapper downloads Maven with curl (or wget), and the decoder tests
#                      decode with curl --compressed
#   ca-certificates    HTTPS to Maven Central
#
#   bash .ci/packages.sh          installs what is missing, or prints "nothing to install"
#   bash .ci/packages.sh --check  lists what is missing and exits 1 if anything is, installs nothing
set -euo pipefail

export DEBIAN_FRONTEND=noninteractive

missing=()
if ! command -v prometheus >/dev/null 2>&1 || ! command -v promtool >/dev/null 2>&1; then
	missing+=(prometheus)
fi
if ! command -v victoria-metrics >/dev/null 2>&1; then
	missing+=(victoria-metrics)
fi
if ! command -v zstd >/dev/null 2>&1; then
	missing+=(zstd)
fi
if ! /usr/bin/python3 -c 'import zstandard' >/dev/null 2>&1; then
	missing+=(python3-zstandard)
fi
if ! command -v gpg >/dev/null 2>&1; then
	missing+=(gnupg)
fi
if ! command -v curl >/dev/null 2>&1; then
	missing+=(curl)
fi
if [ ! -f /etc/ssl/certs/ca-certificates.crt ]; then
	missing+=(ca-certificates)
fi

if [ "${1:-}" = "--check" ]; then
	if [ "${#missing[@]}" -gt 0 ]; then
		echo "missing: ${missing[*]}"
		exit 1
	fi
	echo "nothing missing"
	exit 0
fi

if [ "${#missing[@]}" -eq 0 ]; then
	echo "nothing to install"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "missing: ${missing[*]}; run this script as root (sudo bash .ci/packages.sh) or install them" >&2
	exit 1
fi

echo "installing: ${missing[*]}"
# Keep package scripts from starting services (Debian's prometheus would start one on port 9090,
# victoria-metrics on 8428): the tests start their own servers on free ports.
policy_rc_d=/usr/sbin/policy-rc.d
created_policy=""
if [ ! -e "$policy_rc_d" ]; then
	printf '#!/bin/sh\nexit 101\n' >"$policy_rc_d"
	chmod +x "$policy_rc_d"
	created_policy=$policy_rc_d
	trap 'rm -f "$created_policy"' EXIT
fi
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null
# Where a service was started all the same (a system without policy-rc.d support), stop it.
if command -v systemctl >/dev/null 2>&1; then
	systemctl stop prometheus victoria-metrics >/dev/null 2>&1 || true
fi
