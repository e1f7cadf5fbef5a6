/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kconfig.c - look options up in the running kernel's configuration
 * (kconfig.h).  The file is the usual .config text: "CONFIG_X=y",
 * "CONFIG_X=m", "CONFIG_X=123", "# CONFIG_X is not set", comments.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kconfig.h"

#define OPT_MAX 128 /* longest option name we look up */

static char *kc_text; /* the file, NUL-terminated, or NULL */
static bool kc_loaded;

/* The whole file, or NULL if it is missing, unreadable or too large. */
static char *read_bounded(const char *path)
{
    size_t used = 0, cap = 64 * 1024;
    char *buf = malloc(cap + 1);
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    if (fd < 0 || !buf) {
        goto fail;
    }
    for (;;) {
        ssize_t n;

        if (used == cap) {
            char *nb;

            /* larger than any real .config: not one, do not guess */
            if (cap >= KCONFIG_MAX_BYTES) {
                goto fail;
            }
            cap *= 2;
            nb = realloc(buf, cap + 1);
            if (!nb) {
                goto fail;
            }
            buf = nb;
        }
        n = read(fd, buf + used, cap - used);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            goto fail;
        }
        if (n == 0) {
            break;
        }
        used += (size_t)n;
    }
    close(fd);
    buf[used] = '\0';
    return buf;
fail:
    if (fd >= 0) {
        close(fd);
    }
    free(buf);
    return NULL;
}

static void load(void)
{
    if (kc_loaded) {
        return;
    }
    kc_loaded = true;
    kc_text = read_bounded(KCONFIG_PATH);
}

bool kconfig_known(void)
{
    load();
    return kc_text != NULL;
}

/* The value of one line "NAME=value" or "# NAME is not set" for name. */
static enum kconfig_state line_state(const char *line, size_t len,
                                     const char *name, size_t nlen, bool *match)
{
    static const char not_set[] = " is not set";
    const char *v;
    size_t vlen;

    *match = false;
    while (len && (line[len - 1] == '\r' || line[len - 1] == ' ')) {
        len--;
    }
    if (len == 2 + nlen + sizeof(not_set) - 1 && !strncmp(line, "# ", 2) &&
        !strncmp(line + 2, name, nlen) &&
        !strncmp(line + 2 + nlen, not_set, sizeof(not_set) - 1)) {
        *match = true;
        return KCONFIG_OFF;
    }
    if (len <= nlen || strncmp(line, name, nlen) || line[nlen] != '=') {
        return KCONFIG_OFF;
    }
    *match = true;
    v = line + nlen + 1;
    vlen = len - nlen - 1;
    if (vlen == 1 && *v == 'm') {
        return KCONFIG_MODULE;
    }
    if (vlen == 0 || (vlen == 1 && *v == 'n')) {
        return KCONFIG_OFF;
    }
    return KCONFIG_ON;
}

/*
 * Look name (with its CONFIG_ prefix) up; the last mention wins, as in
 * Kconfig when a fragment repeats an option.
 */
static enum kconfig_state lookup(const char *name, size_t nlen)
{
    enum kconfig_state st = KCONFIG_OFF;
    const char *p = kc_text;

    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        enum kconfig_state s;
        bool match;

        s = line_state(p, len, name, nlen, &match);
        if (match) {
            st = s;
        }
        if (!eol) {
            break;
        }
        p = eol + 1;
    }
    return st;
}

/* "X" or "CONFIG_X" of length len into buf as "CONFIG_X"; its length or 0. */
static size_t full_name(const char *opt, size_t len, char *buf, size_t size)
{
    const char *prefix = strncmp(opt, "CONFIG_", 7) ? "CONFIG_" : "";
    size_t plen = strlen(prefix);

    if (!len || plen + len >= size) {
        return 0;
    }
    memcpy(buf, prefix, plen);
    memcpy(buf + plen, opt, len);
    buf[plen + len] = '\0';
    return plen + len;
}

enum kconfig_state kconfig_get(const char *opt)
{
    char name[OPT_MAX];
    size_t nlen;

    if (!kconfig_known()) {
        return KCONFIG_UNKNOWN;
    }
    nlen = full_name(opt, strlen(opt), name, sizeof(name));
    return nlen ? lookup(name, nlen) : KCONFIG_OFF;
}

const char *kconfig_lacks(const char *opts)
{
    static const char blanks[] = " \t\r\n,";
    static char reason[512];
    size_t used = 0;
    const char *p = opts;

    if (!opts || !kconfig_known()) {
        return NULL;
    }
    while (*(p += strspn(p, blanks))) {
        size_t len = strcspn(p, blanks), nlen;
        char name[OPT_MAX];
        enum kconfig_state st;
        int n;

        nlen = full_name(p, len, name, sizeof(name));
        p += len;
        st = nlen ? lookup(name, nlen) : KCONFIG_OFF;
        if (st == KCONFIG_ON) {
            continue;
        }
        if (!nlen) { /* a garbled name cannot be present */
            snprintf(name, sizeof(name), "%.*s...", 40, p - len);
        }
        n = snprintf(reason + used, sizeof(reason) - used, "%s%s (%s)",
                     used ? ", " : "kernel lacks ", name,
                     st == KCONFIG_MODULE ? "module" : "not set");
        if (n < 0 || (size_t)n >= sizeof(reason) - used) {
            /* truncated: what is there says enough */
            used = sizeof(reason) - 1;
            reason[used] = '\0';
            break;
        }
        used += (size_t)n;
    }
    return used ? reason : NULL;
}
