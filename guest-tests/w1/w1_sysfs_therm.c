/* SPDX-License-Identifier: GPL-2.0 */
/*
 * w1_sysfs_therm.c - the w1_sysfs cases of t1, the DS18B20 (S3-S5, see
 * docs/suites/w1.md): w1_slave, temperature, hwmon,
 * temperatures set by the host, resolution.
 *
 * Expectations follow w1_therm.c of Linux 6.12: w1_slave_show(),
 * resolution_store(), w1_DS18B20_set_resolution(), w1_DS18B20_convert_temp().
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pbctl.h"
#include "w1_sysfs.h"

/*
 * What w1_DS18B20_convert_temp() makes of a DS18B20 register (ds18b20_reg()
 * in w1util.h): (s16)reg * 1000 / 16, C division truncating toward zero.
 */
static long ds18b20_kernel_mC(int reg)
{
    return (long)(int16_t)reg * 1000 / 16;
}

struct therm_read {
    uint8_t b[9];      /* line 1: bytes read now */
    uint8_t cached[9]; /* line 2: family_data */
    unsigned int crc;  /* printed crc= (computed by the kernel) */
    bool yes;
    long t;
    char raw[300];
};

/* Nine "%02x " bytes at p + *off, as w1_slave_show() prints a line. */
static bool parse_bytes9(const char *p, int *off, uint8_t b[9])
{
    for (int i = 0; i < 9; i++) {
        unsigned int v;
        int n;

        if (sscanf(p + *off, "%2x %n", &v, &n) != 1) {
            return false;
        }
        b[i] = (uint8_t)v;
        *off += n;
    }
    return true;
}

/* Read and parse w1_slave; 0 or -1 with why. */
static int read_w1_slave(struct therm_read *r, char *why, size_t wl)
{
    char path[256], verdict[8];
    const char *p;
    int off = 0, n;
    ssize_t len;

    w1_slave_path(path, sizeof(path), T1, "w1_slave");
    len = read_file(path, r->raw, sizeof(r->raw));
    if (len < 0) {
        snprintf(why, wl, "read %s: %s", path, strerror((int)-len));
        return -1;
    }
    if (len == 0) {
        snprintf(why, wl, "read %s: empty (w1_therm reported an error)", path);
        return -1;
    }
    p = r->raw;
    if (!parse_bytes9(p, &off, r->b)) {
        goto bad;
    }
    if (sscanf(p + off, ": crc=%2x %7s%n", &r->crc, verdict, &n) != 2) {
        goto bad;
    }
    r->yes = strcmp(verdict, "YES") == 0;
    if (!r->yes && strcmp(verdict, "NO") != 0) {
        goto bad;
    }
    off += n;
    if (p[off] != '\n') {
        goto bad;
    }
    off++;
    if (!parse_bytes9(p, &off, r->cached)) {
        goto bad;
    }
    if (sscanf(p + off, "t=%ld%n", &r->t, &n) != 1) {
        goto bad;
    }
    off += n;
    if (strcmp(p + off, "\n") != 0) {
        goto bad;
    }
    return 0;
bad:
    snprintf(why, wl, "unexpected w1_slave format: '%s'", r->raw);
    return -1;
}

/*
 * Check one w1_slave reading against the expected temperature (m°C in the
 * model) at a resolution; 0 or -1 with why.
 */
static int check_w1_slave(long mC, int bits, struct therm_read *r, char *why,
                          size_t wl)
{
    int reg = ds18b20_reg(mC, bits);
    long want = ds18b20_kernel_mC(reg);
    uint8_t crc;

    if (read_w1_slave(r, why, wl)) {
        return -1;
    }
    crc = w1_crc8(r->b, 8);
    if (r->crc != crc || !r->yes || r->b[8] != crc) {
        snprintf(
            why, wl,
            "CRC: printed crc=%02x %s, byte 8 = %02x, CRC8 of bytes 0-7 = %02x",
            r->crc, r->yes ? "YES" : "NO", r->b[8], crc);
        return -1;
    }
    if (memcmp(r->b, r->cached, 9)) {
        snprintf(why, wl, "line 2 bytes differ from line 1: '%s'", r->raw);
        return -1;
    }
    if (r->b[0] != (uint8_t)reg || r->b[1] != (uint8_t)(reg >> 8)) {
        snprintf(why, wl,
                 "temperature register %02x %02x, expected %02x %02x for %ld "
                 "m°C at %d bit",
                 r->b[0], r->b[1], (uint8_t)reg, (uint8_t)(reg >> 8), mC, bits);
        return -1;
    }
    if (r->t != want) {
        snprintf(why, wl, "t=%ld, expected t=%ld", r->t, want);
        return -1;
    }
    return 0;
}

static int pbctl_set_temp(long mC)
{
    return pbctl_qom_set_int(QOM_PERIPH "t1", "temperature", mC);
}

/* Back to the temperature the program started with (best effort). */
static void t1_temp_restore(void)
{
    if (pbctl_set_temp(t1_mC)) {
        ktap_print_msg("restoring t1 temperature: %s", pbctl_last_reply());
    }
}

/* ---- S3/S4/S5 DS18B20 ----------------------------------------------------- */

static int s3_w1_slave(unsigned long arg, char *why)
{
    struct therm_read r;

    (void)arg;
    if (check_w1_slave(t1_mC, 12, &r, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    return KTAP_PASS;
}

static int s3_scratchpad(unsigned long arg, char *why)
{
    struct therm_read r;

    (void)arg;
    if (read_w1_slave(&r, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    if (r.b[4] != 0x7f) {
        return kt_fail(why,
                       "config byte %02x, expected 7f (12 bit, reserved bits)",
                       r.b[4]);
    }
    if (r.b[5] != 0xff || r.b[7] != 0x10) {
        return kt_fail(why, "reserved bytes 5/7 = %02x/%02x, expected ff/10",
                       r.b[5], r.b[7]);
    }
    return KTAP_PASS;
}

/* A file holding t1's 12-bit temperature in m°C, as w1_therm gives it. */
static int temp_file_case(char *why, const char *path, const char *what)
{
    long want = ds18b20_kernel_mC(ds18b20_reg(t1_mC, 12)), v = 0;
    int r = read_long(path, &v);

    if (r) {
        return kt_fail(why, "read %s: %s", path, strerror(-r));
    }
    if (v != want) {
        return kt_fail(why, "%s %ld, expected %ld", what, v, want);
    }
    return KTAP_PASS;
}

static int s3_temperature(unsigned long arg, char *why)
{
    char path[256];

    (void)arg;
    w1_slave_path(path, sizeof(path), T1, "temperature");
    return temp_file_case(why, path, "temperature");
}

static int s3_hwmon(unsigned long arg, char *why)
{
    char dir[256], path[600] = "";
    struct dirent *de;
    DIR *d;

    (void)arg;
    w1_slave_path(dir, sizeof(dir), T1, "hwmon");
    d = opendir(dir);
    if (!d) {
        return kt_fail(why, "%s: %s", dir, strerror(errno));
    }
    while ((de = readdir(d))) {
        if (!strncmp(de->d_name, "hwmon", 5)) {
            snprintf(path, sizeof(path), "%s/%s/temp1_input", dir, de->d_name);
            break;
        }
    }
    closedir(d);
    if (!path[0]) {
        return kt_fail(why, "no hwmon device under %s", dir);
    }
    return temp_file_case(why, path, "temp1_input");
}

static int s3_ext_power(unsigned long arg, char *why)
{
    char path[256];
    long v = -1;

    (void)arg;
    w1_slave_path(path, sizeof(path), T1, "ext_power");
    if (read_long(path, &v)) {
        return kt_fail(why, "cannot read %s", path);
    }
    if (v != 1) {
        return kt_fail(why, "ext_power %ld, expected 1 (externally powered)",
                       v);
    }
    return KTAP_PASS;
}

/*
 * S4: the host sets t1's temperature (m°C) and w1_slave shows t=. 25.060 C
 * is 400.96 sixteenths: the model rounds up to 401 (25.0625 C); rounding
 * down would give 25.000 C.
 */
static const struct {
    long mC, want_t;
} s4_temps[] = {
    {-10125, -10125},
    {25063, 25062}, /* the kernel truncates */
    {25060, 25062}, /* the model rounds to the nearest 1/16 C */
};

static int s4_temp(unsigned long arg, char *why)
{
    long mC = s4_temps[arg].mC, want_t = s4_temps[arg].want_t;
    struct therm_read r;
    int err;

    if (pbctl_open()) {
        return kt_skip(why, "%s", pbctl_unavailable_reason());
    }
    if (pbctl_set_temp(mC)) {
        return kt_fail(why, "qom-set t1 temperature %ld: %s", mC,
                       pbctl_last_reply());
    }
    err = check_w1_slave(mC, 12, &r, why, KT_WHY_LEN);
    t1_temp_restore();
    if (err) {
        return KTAP_FAIL;
    }
    if (r.t != want_t) { /* docs/devices/ds2490.md, simplification 3 */
        return kt_fail(why, "t=%ld, expected %ld", r.t, want_t);
    }
    return KTAP_PASS;
}

static int t1_attr_long(const char *attr, long *v)
{
    char path[256];

    w1_slave_path(path, sizeof(path), T1, attr);
    return read_long(path, v);
}

static int t1_attr_write(const char *attr, const char *s)
{
    char path[256];

    w1_slave_path(path, sizeof(path), T1, attr);
    return write_str(path, s);
}

/*
 * Write bits to t1's resolution; it must read back, with the conversion
 * time of that resolution.  0, or -1 with why.
 */
static int set_resolution(int bits, long conv_ms, char *why, size_t wl)
{
    long res = -1, conv = -1;
    char val[8];
    int r;

    snprintf(val, sizeof(val), "%d\n", bits);
    r = t1_attr_write("resolution", val);
    if (r) {
        snprintf(why, wl, "write %d to resolution: %s", bits, strerror(-r));
    } else if (t1_attr_long("resolution", &res) || res != bits) {
        snprintf(why, wl, "resolution reads %ld, expected %d", res, bits);
    } else if (t1_attr_long("conv_time", &conv) || conv != conv_ms) {
        snprintf(why, wl, "conv_time reads %ld, expected %ld (%d bit)", conv,
                 conv_ms, bits);
    } else {
        return 0;
    }
    return -1;
}

static int s5_res9(unsigned long arg, char *why)
{
    long want = ds18b20_kernel_mC(ds18b20_reg(t1_mC, 9)), t = -1;

    (void)arg;
    if (set_resolution(9, 95, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    if (t1_attr_long("temperature", &t) || t != want) {
        return kt_fail(why, "temperature %ld at 9 bit, expected %ld", t, want);
    }
    return KTAP_PASS;
}

static int s5_res9_value(unsigned long arg, char *why)
{
    long t = 0;
    int r;

    (void)arg;
    if (pbctl_open()) {
        return kt_skip(why, "%s", pbctl_unavailable_reason());
    }
    if (pbctl_set_temp(21300)) {
        return kt_fail(why, "qom-set t1 temperature 21300: %s",
                       pbctl_last_reply());
    }
    r = t1_attr_long("temperature", &t);
    t1_temp_restore();
    if (r) {
        return kt_fail(why, "read temperature: %s", strerror(-r));
    }
    if (t != 21000) {
        return kt_fail(
            why, "temperature %ld for 21.3 degC at 9 bit, expected 21000", t);
    }
    return KTAP_PASS;
}

/*
 * 13 passes the kernel's 9..14 range check; w1_DS18B20_set_resolution()
 * writes config (13-9)<<5 = 0x80 and re-reads it: a DS18B20 keeps bit 7 at 0
 * and R1R0 at the written 00, so the compare fails with -EIO and the device
 * is left at 9 bit (from 9 bit, "unchanged").
 */
static int s5_res13(unsigned long arg, char *why)
{
    long res = -1;
    int r = t1_attr_write("resolution", "13\n");

    (void)arg;
    if (r != -EIO) {
        return kt_fail(why, "write 13 to resolution: %s, expected EIO",
                       r ? strerror(-r) : "success");
    }
    if (t1_attr_long("resolution", &res) || res != 9) {
        return kt_fail(
            why, "resolution reads %ld after the failed write, expected 9",
            res);
    }
    return KTAP_PASS;
}

static int s5_res12(unsigned long arg, char *why)
{
    (void)arg;
    if (set_resolution(12, 750, why, KT_WHY_LEN)) {
        return KTAP_FAIL;
    }
    return KTAP_PASS;
}

const struct kt_row w1_therm_cases[] = {
    {
        "S3 DS18B20 w1_slave: CRC YES, register and t= match the model",
        NEED_THERM,
        s3_w1_slave,
        0,
    },
    {
        "S3 DS18B20 scratchpad: config 7f, reserved bytes ff and 10",
        NEED_THERM,
        s3_scratchpad,
        0,
    },
    {
        "S3 DS18B20 temperature attribute matches the model",
        NEED_THERM,
        s3_temperature,
        0,
    },
    {
        "S3 DS18B20 hwmon temp1_input matches the model",
        NEED_THERM " CONFIG_HWMON",
        s3_hwmon,
        0,
    },
    {
        "S3 DS18B20 ext_power reads 1 (external power)",
        NEED_THERM,
        s3_ext_power,
        0,
    },
    {
        "S4 qom-set temperature -10125: t=-10125",
        NEED_THERM,
        s4_temp,
        0,
    },
    {
        "S4 qom-set temperature 25063: t=25062 (kernel truncates)",
        NEED_THERM,
        s4_temp,
        1,
    },
    {
        "S4 qom-set temperature 25060: t=25062 (the model rounds to the "
        "nearest "
        "1/16 C)",
        NEED_THERM,
        s4_temp,
        2,
    },
    {
        "S5 resolution 9: reads 9, conv_time 95, 9-bit value",
        NEED_THERM,
        s5_res9,
        0,
    },
    {
        "S5 9-bit reading of 21.3 degC is t=21000",
        NEED_THERM,
        s5_res9_value,
        0,
    },
    {
        "S5 resolution 13 fails with EIO, device stays at 9 bit",
        NEED_THERM,
        s5_res13,
        0,
    },
    {
        "S5 resolution 12 restored: reads 12, conv_time 750",
        NEED_THERM,
        s5_res12,
        0,
    },
};
const size_t w1_therm_ncases = ARRAY_SIZE(w1_therm_cases);
