#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause
# Make ./configure from a git checkout (generated files are not in git).
set -e
cd "$(dirname "$0")"
mkdir -p build-aux m4
autoreconf -fi
# Automake does not copy the TAP driver by itself.
cp -f "$(automake --print-libdir)/tap-driver.sh" build-aux/tap-driver.sh
