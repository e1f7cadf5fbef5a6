/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kconfig.h - the running kernel's configuration, so that a suite or a case
 * whose kernel options are missing is skipped with a reason naming them
 * instead of failing on a kernel patchbay did not build.
 *
 * /init writes KCONFIG_PATH at boot (from /proc/config.gz, else keeps the
 * copy the host put into the initramfs); the file is read once, on the
 * first query, and cached.
 *
 *     const char *lack = kconfig_lacks("CONFIG_W1_SLAVE_DS2413");
 *
 *     if (lack) {
 *         return kt_skip(why, "%s", lack);
 *     }
 *
 * An option is present only when built in: the initramfs has no modules, so
 * =m counts as lacking.  When the configuration is unknown nothing lacks:
 * nothing is skipped for its options and the cases run (and fail) as
 * before.  Compiled from common/kconfig.c into each program that uses it.
 */
#ifndef PATCHBAY_KCONFIG_H
#define PATCHBAY_KCONFIG_H

#include <stdbool.h>

#ifndef KCONFIG_PATH /* -D for a host-side test of kconfig.c */
#define KCONFIG_PATH "/etc/patchbay/kernel.config"
#endif
#define KCONFIG_MAX_BYTES (1 << 20) /* real ones are 100-300 KB */

enum kconfig_state {
    KCONFIG_UNKNOWN, /* no usable configuration file */
    KCONFIG_OFF,     /* "# CONFIG_X is not set", =n, or not listed */
    KCONFIG_MODULE,  /* =m */
    KCONFIG_ON,      /* =y or any other value (=123, ="text") */
};

/* Whether the configuration file was there and readable. */
bool kconfig_known(void);

/* The state of one option, "CONFIG_X" or "X". */
enum kconfig_state kconfig_get(const char *opt);

/*
 * NULL when every option of opts (one, or several separated by blanks; NULL
 * or "" for none) is built in or the configuration is unknown; else a reason
 * such as "kernel lacks CONFIG_W1 (module), CONFIG_HWMON (not set)", in a
 * static buffer that the next call overwrites.
 */
const char *kconfig_lacks(const char *opts);

#endif /* PATCHBAY_KCONFIG_H */
