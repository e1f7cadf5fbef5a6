# SPDX-License-Identifier: GPL-2.0-or-later
# patchbay check's second reverse debugging session: a recording of the w1
# suite on the negative control w1-no-search-mutex-fix (our patch 0001
# removed), where a netlink search leaves the w1 master's dev->mutex held
# and the hung task detector panics. Who took the mutex last? A watchpoint
# on its owner word and reverse-continue: first the blocked waiter setting
# the WAITERS flag, then, one more back, the mutex_lock() that never got
# its unlock. tests/record-replay-test.sh greps gdb.log for the backtrace.
set pagination off
break panic
continue
delete
# the one w1 master (lx-* scripts: $container_of)
set $m = $container_of(w1_masters.next, "struct w1_master", "w1_master_entry")
print $m->name
watch -l $m->mutex.owner.counter
reverse-continue
bt 8
reverse-continue
# "mutex_lock ... w1_attach_slave_device ... w1_slave_found ...
#  w1_found_send_slave (w1_netlink.c)": the netlink search path
bt 12
delete
detach
