#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# autogen.sh: generate ./configure from configure.ac (needs autoconf,
# automake, libtool, pkg-config: ./bootstrap-deps installs them).
set -e
cd "$(dirname "$0")"
autoreconf --install --force
