/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1util.c - what the w1 guest programs share (see w1util.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/socket.h>
#include <unistd.h>

#include "w1util.h"

struct w1_slave_rom w1_slaves[SL_COUNT] = {
    [SL_T1] = {"t1", 0x28, 0x00000a1b2c3dULL, "", {0}}, /* DS18B20 */
    [SL_E1] = {"e1", 0x2d, 0x000000112233ULL, "", {0}}, /* DS2431 */
    [SL_P1] = {"p1", 0x29, 0x000000445566ULL, "", {0}}, /* DS2408 */
    [SL_P2] = {"p2", 0x3a, 0x000000778899ULL, "", {0}}, /* DS2413 */
};

uint8_t w1_crc8(const uint8_t *p, size_t n)
{
    uint8_t crc = 0;

    while (n--) {
        uint8_t b = *p++;

        for (int i = 0; i < 8; i++) {
            uint8_t mix = (crc ^ b) & 1;

            crc >>= 1;
            if (mix) {
                crc ^= 0x8c;
            }
            b >>= 1;
        }
    }
    return crc;
}

long floor_div(long a, long b)
{
    long q = a / b;

    return (a % b && (a < 0) != (b < 0)) ? q - 1 : q;
}

int ds18b20_reg(long mC, int bits)
{
    /*
     * The model rounds to the nearest 1/16 C, ties away from zero
     * (docs/devices/ds2490.md, simplification 3); lower resolutions then
     * clear the undefined low bits.
     */
    long reg = mC >= 0 ? (mC * 16 + 500) / 1000 : -((-mC * 16 + 500) / 1000);

    if (reg < -55 * 16) {
        reg = -55 * 16;
    }
    if (reg > 125 * 16) {
        reg = 125 * 16;
    }
    reg &= ~((1L << (12 - bits)) - 1);
    return (int)reg;
}

void w1_make_rom(uint8_t family, uint64_t serial, uint8_t id[8], char *name,
                 size_t namelen)
{
    id[0] = family;
    for (int i = 0; i < 6; i++) {
        id[1 + i] = (uint8_t)(serial >> (8 * i));
    }
    id[7] = w1_crc8(id, 7);
    if (name) {
        snprintf(name, namelen, "%02x-%012llx", family,
                 (unsigned long long)(serial & 0xffffffffffffULL));
    }
}

void w1_topology_init(void)
{
    for (int i = 0; i < SL_COUNT; i++) {
        w1_make_rom(w1_slaves[i].family, w1_slaves[i].serial, w1_slaves[i].id,
                    w1_slaves[i].name, sizeof(w1_slaves[i].name));
    }
}

void w1_hex(const uint8_t *p, size_t n, char *out, size_t outlen)
{
    size_t o = 0;

    if (!outlen) {
        return;
    }
    out[0] = '\0';
    for (size_t i = 0; i < n && o + 3 <= outlen; i++) {
        o += (size_t)snprintf(out + o, outlen - o, "%02x", p[i]);
    }
}

/* ---- sysfs ---- */

void w1_slave_path(char *buf, size_t len, const struct w1_slave_rom *s,
                   const char *attr)
{
    snprintf(buf, len, W1_DEVICES "/%s/%s", s->name, attr);
}

bool slave_dir_exists(const char *name)
{
    char path[256];

    snprintf(path, sizeof(path), W1_DEVICES "/%s", name);
    return path_exists(path);
}

long master_slave_count(void)
{
    long v;

    return read_long(W1_MASTER "/w1_master_slave_count", &v) ? -1 : v;
}

bool wait_for_discovery(int want, long timeout_ms)
{
    long long end = now_ms() + timeout_ms;

    for (;;) {
        bool all = master_slave_count() == want;

        for (int i = 0; all && i < SL_COUNT; i++) {
            all = slave_dir_exists(w1_slaves[i].name);
        }
        if (all) {
            return true;
        }
        if (now_ms() >= end) {
            return false;
        }
        sleep_ms(100);
    }
}

int w1_read_eeprom(uint8_t *buf, size_t len)
{
    char path[256];
    size_t off = 0;
    int fd;

    w1_slave_path(path, sizeof(path), E1, "eeprom");
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    while (off < len) {
        ssize_t n = pread(fd, buf + off, len - off, (off_t)off);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        off += (size_t)n;
    }
    close(fd);
    return off == len ? 0 : -1;
}

/* ---- kernel log ---- */

void kmsg_mark(char *out, size_t outlen, const char *what)
{
    static unsigned int counter;
    char line[256];
    int fd;

    snprintf(out, outlen, KMSG_TAG " %s [%d.%u]", what, (int)getpid(),
             ++counter);
    snprintf(line, sizeof(line), "<6>%s\n", out);
    fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        /* best effort; a later search then finds nothing */
        ssize_t w = write(fd, line, strlen(line));

        (void)w;
        close(fd);
    }
}

char *klog_read_all(void)
{
    int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
    char *buf;
    int n;

    if (size <= 0) {
        size = 1 << 20;
    }
    buf = malloc((size_t)size + 1);
    if (!buf) {
        return NULL;
    }
    n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
    if (n < 0) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

int klog_has_after(const char *marker, const char *needle)
{
    char *log = klog_read_all(), *m, *next;
    int found;

    if (!log) {
        return -1;
    }
    m = strstr(log, marker);
    if (!m) {
        free(log);
        return -1;
    }
    while ((next = strstr(m + 1, marker))) {
        m = next;
    }
    found = strstr(m, needle) != NULL;
    free(log);
    return found;
}

/* ---- w1 netlink ---- */

int cn_socket(uint32_t groups)
{
    struct sockaddr_nl sa = {.nl_family = AF_NETLINK, .nl_groups = groups};
    int fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_CONNECTOR);
    int sz = 4 << 20;

    if (fd < 0) {
        return -1;
    }
    if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz))) {
        setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof(sz));
    }
    if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
        int e = errno;

        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

int w1_event_recv(int fd, struct w1_event *ev, long timeout_ms)
{
    long long end = now_ms() + timeout_ms;
    uint8_t buf[8192];

    for (;;) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        long long left = end - now_ms();
        struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
        struct cn_msg *cn = (struct cn_msg *)(buf + sizeof(*nlh));
        ssize_t n;
        int r;

        if (left < 0) {
            left = 0;
        }
        r = poll(&p, 1, (int)left);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r < 0) {
            return -1;
        }
        if (r == 0) {
            return 0;
        }
        n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
            continue;
        }
        if (n < 0) {
            return -1;
        }
        if ((size_t)n < sizeof(*nlh) + sizeof(*cn) ||
            nlh->nlmsg_len > (size_t)n) {
            continue;
        }
        if (cn->id.idx != CN_W1_IDX || cn->id.val != CN_W1_VAL) {
            continue;
        }
        memset(ev, 0, sizeof(*ev));
        ev->nlmsg_len = nlh->nlmsg_len;
        ev->nlmsg_seq = nlh->nlmsg_seq;
        memcpy(&ev->cn, cn, sizeof(*cn));
        if (nlh->nlmsg_len >= sizeof(*nlh) + sizeof(*cn) + sizeof(ev->msg)) {
            memcpy(&ev->msg, buf + sizeof(*nlh) + sizeof(*cn), sizeof(ev->msg));
        }
        ev->well_formed =
            nlh->nlmsg_len == sizeof(*nlh) + sizeof(*cn) + sizeof(ev->msg) &&
            cn->len == sizeof(ev->msg);
        return 1;
    }
}

int w1_event_take(int fd, struct w1_event *evs, int *nev, int max,
                  long timeout_ms)
{
    struct w1_event ev;
    int r = w1_event_recv(fd, &ev, timeout_ms);

    if (r == 1 && *nev < max) {
        evs[(*nev)++] = ev;
    }
    return r;
}

int w1_event_drain(int fd)
{
    struct w1_event ev;
    int n = 0;

    while (w1_event_recv(fd, &ev, 0) == 1) {
        n++;
    }
    return n;
}

const char *w1_event_name(uint8_t type)
{
    static const char *const names[] = {
        "SLAVE_ADD",
        "SLAVE_REMOVE",
        "MASTER_ADD",
        "MASTER_REMOVE",
    };

    return type < ARRAY_SIZE(names) ? names[type] : "?";
}

void w1_event_str(const struct w1_event *ev, char *out, size_t len)
{
    char hex[17];

    w1_hex(ev->msg.id.id, 8, hex, sizeof(hex));
    snprintf(out, len,
             "%s(type %u) status=%u len=%u id=%s cn.seq=%u cn.ack=%u "
             "cn.len=%u cn.flags=%#x nlmsg_len=%u",
             w1_event_name(ev->msg.type), ev->msg.type, ev->msg.status,
             ev->msg.len, hex, ev->cn.seq, ev->cn.ack, ev->cn.len, ev->cn.flags,
             ev->nlmsg_len);
}

void w1_events_print(const struct w1_event *evs, int n)
{
    char s[300];

    for (int i = 0; i < n; i++) {
        w1_event_str(&evs[i], s, sizeof(s));
        ktap_print_msg("event: %s", s);
    }
}

bool w1_event_is(const struct w1_event *ev, uint8_t type, const uint8_t id[8])
{
    return ev->well_formed && ev->cn.ack == 0 && ev->cn.flags == 0 &&
           ev->msg.type == type && ev->msg.status == 0 && ev->msg.len == 0 &&
           memcmp(ev->msg.id.id, id, 8) == 0;
}

void w1_master_id_bytes(uint32_t id, uint8_t out[8])
{
    memset(out, 0, 8);
    memcpy(out, &id, sizeof(id));
}

/* ---- USB ---- */

int ds2490_find(char *dev, size_t len)
{
    DIR *d = opendir(USB_DEVICES);
    struct dirent *de;
    int ret = -1;

    if (!d) {
        return -1;
    }
    while ((de = readdir(d))) {
        char v[32], p[32];

        if (de->d_name[0] == '.') {
            continue;
        }
        if (read_filef(v, sizeof(v), USB_DEVICES "/%s/idVendor", de->d_name) <
                0 ||
            read_filef(p, sizeof(p), USB_DEVICES "/%s/idProduct", de->d_name) <
                0) {
            continue;
        }
        if (strncmp(v, "04fa", 4) == 0 && strncmp(p, "2490", 4) == 0) {
            str_copy(dev, de->d_name, len);
            ret = 0;
            break;
        }
    }
    closedir(d);
    return ret;
}

void ds2490_intf(const char *dev, char *intf, size_t len)
{
    long cfg = 1;
    char path[300];

    snprintf(path, sizeof(path), USB_DEVICES "/%s/bConfigurationValue", dev);
    if (read_long(path, &cfg) || cfg <= 0) {
        cfg = 1;
    }
    snprintf(intf, len, "%s:%ld.0", dev, cfg);
}

void usb_intf_driver(const char *intf, char *drv, size_t len)
{
    char path[300], link[300];
    ssize_t n;

    snprintf(path, sizeof(path), USB_DEVICES "/%s/driver", intf);
    n = readlink(path, link, sizeof(link) - 1);
    if (n < 0) {
        str_copy(drv, "", len);
        return;
    }
    link[n] = '\0';
    str_copy(drv, strrchr(link, '/') ? strrchr(link, '/') + 1 : link, len);
}
