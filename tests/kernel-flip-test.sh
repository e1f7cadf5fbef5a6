#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Variants that only add patches are built in base's work tree
# (scripts/build-kernel): the tree flips between kernels, and make rebuilds
# only the files that differ. An Image must not depend on what the tree
# built before it. This builds base, A, B, A, base, each one with its cached
# artifact dropped first so that make really runs, and compares the Images:
# each kernel gives the same Image whatever came before, and the variants
# differ from base (their patches did reach the build). TAP on stdout.
#
#   tests/kernel-flip-test.sh [VARIANT_A VARIANT_B]
set -eu
. "$(dirname -- "$0")/../scripts/lib.sh"

a=${1:-openat2-no-flags-check} b=${2:-w1-no-cn-flags-check}
bk=$PATCHBAY_ROOT/scripts/build-kernel
. "$(dirname -- "$0")/tap-lib.sh"

# image KERNEL: build it in the shared tree now, print its Image's sha256
image() {
    if [ "$1" = base ]; then set --; else set -- --variant "$1"; fi
    art=$("$bk" "$@") || exit 2
    rm -rf "$art"   # a cache hit proves nothing: drop it, build again
    art=$("$bk" "$@") || exit 2
    sha256sum < "$art/Image" | cut -c1-64
}

base1=$(image base)
a1=$(image "$a")
b1=$(image "$b")
a2=$(image "$a")
base2=$(image base)
[ "$a1" = "$a2" ]
tap $? "$a after base and after $b: the same Image"
[ "$base1" = "$base2" ]
tap $? "base before and after $a, $b: the same Image"
[ "$a1" != "$base1" ] && [ "$b1" != "$base1" ] && [ "$a1" != "$b1" ]
tap $? "base, $a and $b are three different Images"
[ ! -d "$CACHE/work/kernel-$a" ] && [ ! -d "$CACHE/work/kernel-$b" ]
tap $? "no work tree of their own for $a and $b"
echo "1..$n"
exit $failed
