# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/check: compare --base-tree linux-source-6.12 --with-tree
# linux-source-6.1 (both as Debian ships them). What docs/your-kernel.md
# says differs, and nothing else:
# - no case flips between pass and fail: the suites adapt to the version
#   (msm driver 1.12 -> 1.9: skips and version-named cases; openat2: O_DIRECT
#   on tmpfs; resolve_test has a PID in one name);
"msm/msm_ioctl/GEM mmap of a DONTNEED BO: a first touch gets SIGBUS" as $fault |
.counts.pass_to_fail == 0 and .counts.fail_to_pass == 0
and ([.changed[] | select(.base == "pass" and .with == "skip")] | length) >= 10
and (.changed | all(.test | startswith("msm/msm_ioctl/") or startswith("openat2/")
                            or startswith("w1params/")))
# - both lack kernel-patches/0001: the w1 netlink search hangs;
and any(.crashes.base[]; .kind == "hung-task" and (.test | startswith("w1/w1_netlink/")))
and any(.crashes.with[]; .kind == "hung-task" and (.test | startswith("w1/w1_netlink/")))
# - both lack kernel-patches/0002: a fault on a DONTNEED BO WARNs;
and any(.crashes.base[]; .kind == "warn" and .test == $fault)
and any(.crashes.with[]; .kind == "warn" and .test == $fault)
# - both lack kernel-patches/0008: wire.max_slave_count=0 oopses the DS2490's
#   first search (w1params); the oops comes from the master's thread, so
#   which of w1params' cases report before it (and differ) is timing;
and any(.crashes.base[]; .kind == "oops" and (.test | startswith("w1params/")))
and any(.crashes.with[]; .kind == "oops" and (.test | startswith("w1params/")))
and (.crashes.base | all(.kind == "hung-task" or .kind == "panic" or .test == $fault
                         or (.kind == "oops" and (.test | startswith("w1params/")))))
# - only 6.1 WARNs in msm (SUBMIT of a DONTNEED or purged BO; the submit
#   allocation without __GFP_NOWARN).
and ([.crashes.with[] | select(.kind == "warn")] | length) >= 2
and (.crashes.with | all((.kind == "warn" and (.test | startswith("msm/msm_ioctl/")))
                         or (.kind == "oops" and (.test | startswith("w1params/")))
                         or .kind == "hung-task" or .kind == "panic"))
