/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The host control channel, end to end: the guest asks the runner for QMP
 * operations over the "patchbay.ctl" virtio-serial port. The channel's own
 * device (/machine/peripheral/pbctl-serial) is the one QOM object that
 * every boot has, so these cases need no emulated hardware.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "pbctl.h"

#define CHANNEL "/machine/peripheral/pbctl-serial"
#define TYPE    "ok \"virtio-serial-pci\""

/* A request, the reply it must get, and whether garbage goes first. */
static const struct ctl_case {
    const char *request;
    bool ok;           /* pbctl_request() returns 0 */
    bool prefix;       /* reply starts with it, else equals it */
    const char *reply; /* the expected reply */
    size_t garbage;    /* bytes without a newline sent before */
} ctl_cases[] = {
    {"qom-get " CHANNEL " type", true, false, TYPE, 0},
    {"make-coffee now", false, false, "error unknown operation 'make-coffee'",
     0},
    {"qom-set /machine/peripheral/no-such-device x 1", false, true, "error ",
     0},
    {"qom-set " CHANNEL " type", false, true, "error usage", 0},
    /*
     * A guest that floods the port without a newline must not make the
     * runner buffer it all: it drops the line and says so, then serves
     * the next request normally.
     */
    {"qom-get " CHANNEL " type", false, false, "error request too long",
     64 * 1024},
    {"qom-get " CHANNEL " type", true, false, TYPE, 0},
};

static int c_port(unsigned long arg, char *why)
{
    (void)arg;
    if (pbctl_open()) {
        return kt_fail(why, "%s", pbctl_unavailable_reason());
    }
    return KTAP_PASS;
}

static int c_request(unsigned long idx, char *why)
{
    const struct ctl_case *c = &ctl_cases[idx];
    char reply[PBCTL_MAX_LINE] = "";
    bool ok, match;

    if (c->garbage && pbctl_send_garbage(c->garbage)) {
        return kt_fail(why, "sending %zu bytes without a newline failed",
                       c->garbage);
    }
    ok = pbctl_request(reply, sizeof(reply), "%s", c->request) == 0;
    match = c->prefix ? strncmp(reply, c->reply, strlen(c->reply)) == 0
                      : strcmp(reply, c->reply) == 0;
    if (ok != c->ok || !match) {
        return kt_fail(why, "reply '%s'", reply);
    }
    return KTAP_PASS;
}

static const struct kt_row rows[] = {
    /* name, kernel options, function, index into ctl_cases[] */
    {"control channel port present", NULL, c_port, 0},
    {"qom-get returns the device's type", NULL, c_request, 0},
    {"an unknown operation gets a clear error", NULL, c_request, 1},
    {"qom-set on a missing object reports QEMU's error", NULL, c_request, 2},
    {"a malformed request gets the usage", NULL, c_request, 3},
    {"a 64 KiB request line gets 'error request too long'", NULL, c_request, 4},
    {"the channel works after an overlong request", NULL, c_request, 5},
};

int main(void)
{
    kt_add_table(rows, ARRAY_SIZE(rows));
    return kt_run(NULL);
}
