# SPDX-License-Identifier: GPL-2.0-or-later
# patchbay check's reverse debugging session on a recording of the
# harness-panic suite (scripts/patchbay debug --replay DIR --batch ...).
# The suite writes 'c' to /proc/sysrq-trigger; the kernel panics. From
# panic(), step back into the code that called it, then find the last
# writer of console_loglevel (console_printk[0]) with a watchpoint and
# reverse-continue. tests/record-replay-test.sh greps gdb.log for the
# lines marked below.
set pagination off
break panic
continue
delete
# back over the call: "sysrq_handle_crash + N in section .text"
reverse-stepi
info symbol $pc
# __handle_sysrq() raised the console's log level for its own message and
# put it back before calling the handler: the last write before the panic.
watch console_printk[0]
reverse-continue
delete
# "#0  ... __handle_sysrq (key=99 'c', ...) at ../drivers/tty/sysrq.c:N"
frame
reverse-next
# the line before, in the same function
frame
# the replay runs on to its end
detach
