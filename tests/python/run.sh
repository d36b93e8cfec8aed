#!/bin/sh
# make test-python: create tests/python/.venv when missing, install the
# pinned tools into it, then run every Python test (run.py).
set -eu
cd "$(dirname "$0")"
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
	"$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
exec .venv/bin/python run.py
