#!/bin/sh
# make test-python: create tests/python/.venv when missing, install the
# pinned tools into it, then run every Python test (run.py). Under make,
# py-deps has just done the first two (ERRGEN_PY_DEPS=done).
set -eu
cd "$(dirname "$0")"
PYTHON="${PYTHON:-python3}"
if [ "${ERRGEN_PY_DEPS:-}" != done ]; then
	if [ ! -x .venv/bin/python ]; then
		"$PYTHON" -m venv .venv
	fi
	.venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
fi
exec .venv/bin/python run.py
