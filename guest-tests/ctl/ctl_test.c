// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The host control channel, end to end: the guest asks the runner for QMP
 * operations over the "patchbay.ctl" virtio-serial port. The channel's own
 * device (/machine/peripheral/pbctl-serial) is the one QOM object that
 * every boot has, so these cases need no emulated hardware.
 */
#include <stdio.h>
#include <string.h>

#include "ktap.h"
#include "pbctl.h"

#define CHANNEL "/machine/peripheral/pbctl-serial"

int main(void)
{
    char reply[PBCTL_MAX_LINE];

    ktap_print_header();
    ktap_set_plan(7);
    if (pbctl_open()) {
        ktap_test_fail("control channel port present",
                       "%s", pbctl_unavailable_reason());
        return ktap_finished();
    }
    ktap_test_pass("control channel port present");

    if (pbctl_request(reply, sizeof(reply), "qom-get %s type", CHANNEL) == 0 &&
        strcmp(reply, "ok \"virtio-serial-pci\"") == 0) {
        ktap_test_pass("qom-get returns the device's type");
    } else {
        ktap_test_fail("qom-get returns the device's type", "reply '%s'",
                       reply);
    }

    if (pbctl_request(reply, sizeof(reply), "make-coffee now") != 0 &&
        strcmp(reply, "error unknown operation 'make-coffee'") == 0) {
        ktap_test_pass("an unknown operation gets a clear error");
    } else {
        ktap_test_fail("an unknown operation gets a clear error",
                       "reply '%s'", reply);
    }

    if (pbctl_request(reply, sizeof(reply),
                      "qom-set /machine/peripheral/no-such-device x 1") != 0 &&
        strncmp(reply, "error ", 6) == 0) {
        ktap_test_pass("qom-set on a missing object reports QEMU's error");
    } else {
        ktap_test_fail("qom-set on a missing object reports QEMU's error",
                       "reply '%s'", reply);
    }

    if (pbctl_request(reply, sizeof(reply), "qom-set %s type", CHANNEL) != 0 &&
        strncmp(reply, "error usage", 11) == 0) {
        ktap_test_pass("a malformed request gets the usage");
    } else {
        ktap_test_fail("a malformed request gets the usage", "reply '%s'",
                       reply);
    }

    /* A guest that floods the port without a newline must not make the
     * runner buffer it all: it drops the line and says so, then serves
     * the next request normally. */
    if (pbctl_send_garbage(64 * 1024) == 0 &&
        pbctl_request(reply, sizeof(reply), "qom-get %s type", CHANNEL) != 0 &&
        strcmp(reply, "error request too long") == 0) {
        ktap_test_pass("a 64 KiB request line gets 'error request too long'");
    } else {
        ktap_test_fail("a 64 KiB request line gets 'error request too long'",
                       "reply '%s'", reply);
    }
    if (pbctl_request(reply, sizeof(reply), "qom-get %s type", CHANNEL) == 0 &&
        strcmp(reply, "ok \"virtio-serial-pci\"") == 0) {
        ktap_test_pass("the channel works after an overlong request");
    } else {
        ktap_test_fail("the channel works after an overlong request",
                       "reply '%s'", reply);
    }
    return ktap_finished();
}
