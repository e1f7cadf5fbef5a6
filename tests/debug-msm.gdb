# SPDX-License-Identifier: GPL-2.0-or-later
# patchbay check's gdb session (scripts/patchbay debug --batch ... --suite msm):
# stop in the drm/msm GEM_NEW ioctl that the msm suite calls, print the
# ioctl's argument, show that the kernel's lx-* scripts are loaded, and let
# the suite run on. The check greps gdb.log for the lines marked below.
break msm_ioctl_gem_new
continue
shell date +patchbay-debug-breakpoint-at=%s.%N
# "Breakpoint 1, msm_ioctl_gem_new (dev=..., data=..., file=...)" is above;
# the argument, typed:
print *(struct drm_msm_gem_new *)data
backtrace 6
lx-version
delete
detach
