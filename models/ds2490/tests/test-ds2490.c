/*
 * Unit tests for the DS2490 engine: byte-exact replays of what the Linux
 * 6.12 ds2490 driver sends, the status layout, FIFOs and flow control,
 * realtime timing, and a seeded hostile random sequence.
 *
 * The fake bus models N slaves with READ ROM, MATCH ROM, SKIP ROM, SEARCH
 * ROM and ALARM SEARCH, plus one function command (0xBE) that streams a
 * known byte pattern, and it logs every slot the master drives.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <glib.h>
#include <string.h>

#include "ds2490-core.h"

/* ---- fake 1-Wire bus ---- */

enum {
    FS_IDLE,
    FS_ROMCMD,
    FS_READROM,
    FS_MATCH,
    FS_SEARCH,
    FS_SELECTED,
    FS_FUNC_READ,
};

typedef struct FakeSlave {
    uint64_t rom;
    bool present;
    bool alarm;
    int state;
    uint32_t pos;
    int sub;
    uint8_t rx;
    int rxbits;
} FakeSlave;

#define FAKE_SLAVES_MAX 96
#define WLOG_MAX        (1 << 20)
#define WLOG_RESET      2

typedef struct FakeBus {
    FakeSlave slave[FAKE_SLAVES_MAX];
    int nslaves;
    bool shorted;
    int speed;
    int speed_calls;
    long resets;
    long slots;
    int spu_on;
    int spu_off;
    bool spu;
    GRand *noise;               /* hostile test: random levels */
    int wlog_len;
    uint8_t wlog[WLOG_MAX];     /* master bit per slot, or WLOG_RESET */
} FakeBus;

static uint8_t pattern(uint32_t k)
{
    return (uint8_t)(k * 7 + 3);
}

static void fake_log(FakeBus *b, uint8_t v)
{
    if (b->wlog_len < WLOG_MAX) {
        b->wlog[b->wlog_len++] = v;
    }
}

static int rom_bit(const FakeSlave *s, uint32_t i)
{
    return (s->rom >> i) & 1;
}

static void fake_rom_cmd(FakeSlave *s, uint8_t cmd)
{
    s->pos = 0;
    s->sub = 0;
    s->rx = 0;
    s->rxbits = 0;
    switch (cmd) {
    case 0x33:
        s->state = FS_READROM;
        break;
    case 0x55:
        s->state = FS_MATCH;
        break;
    case 0xCC:
        s->state = FS_SELECTED;
        break;
    case 0xF0:
        s->state = FS_SEARCH;
        break;
    case 0xEC:
        s->state = s->alarm ? FS_SEARCH : FS_IDLE;
        break;
    default:
        s->state = FS_IDLE;
        break;
    }
}

static int fake_drive(const FakeSlave *s)
{
    switch (s->state) {
    case FS_READROM:
        return rom_bit(s, s->pos);
    case FS_SEARCH:
        if (s->sub == 0) {
            return rom_bit(s, s->pos);
        }
        if (s->sub == 1) {
            return !rom_bit(s, s->pos);
        }
        return 1;
    case FS_FUNC_READ:
        return (pattern(s->pos / 8) >> (s->pos % 8)) & 1;
    default:
        return 1;
    }
}

static void fake_sample(FakeSlave *s, int level)
{
    switch (s->state) {
    case FS_ROMCMD:
        s->rx |= level << s->rxbits;
        if (++s->rxbits == 8) {
            fake_rom_cmd(s, s->rx);
        }
        break;
    case FS_READROM:
        if (++s->pos == 64) {
            fake_rom_cmd(s, 0xCC);
        }
        break;
    case FS_MATCH:
        if (level != rom_bit(s, s->pos)) {
            s->state = FS_IDLE;
        } else if (++s->pos == 64) {
            fake_rom_cmd(s, 0xCC);
        }
        break;
    case FS_SEARCH:
        if (s->sub < 2) {
            s->sub++;
        } else if (level != rom_bit(s, s->pos)) {
            s->state = FS_IDLE;
        } else {
            s->sub = 0;
            if (++s->pos == 64) {
                fake_rom_cmd(s, 0xCC);
            }
        }
        break;
    case FS_SELECTED:
        s->rx |= level << s->rxbits;
        if (++s->rxbits == 8) {
            if (s->rx == 0xBE) {
                s->state = FS_FUNC_READ;
                s->pos = 0;
            }
            s->rx = 0;
            s->rxbits = 0;
        }
        break;
    case FS_FUNC_READ:
        s->pos++;
        break;
    default:
        break;
    }
}

static bool fake_reset(void *opaque, bool *shorted)
{
    FakeBus *b = opaque;
    bool presence = false;
    int i;

    b->resets++;
    fake_log(b, WLOG_RESET);
    *shorted = b->shorted;
    for (i = 0; i < b->nslaves; i++) {
        FakeSlave *s = &b->slave[i];

        s->state = FS_IDLE;
        if (s->present) {
            s->state = FS_ROMCMD;
            s->rx = 0;
            s->rxbits = 0;
            presence = true;
        }
    }
    if (b->noise) {
        presence = g_rand_boolean(b->noise);
    }
    return presence && !b->shorted;
}

static int fake_touch_bit(void *opaque, int bit)
{
    FakeBus *b = opaque;
    int level = bit & 1;
    int i;

    b->slots++;
    fake_log(b, bit & 1);
    if (b->shorted) {
        level = 0;
    } else if (level) {
        for (i = 0; i < b->nslaves; i++) {
            if (b->slave[i].present) {
                level &= fake_drive(&b->slave[i]);
            }
        }
    }
    for (i = 0; i < b->nslaves; i++) {
        if (b->slave[i].present) {
            fake_sample(&b->slave[i], level);
        }
    }
    if (b->noise) {
        /* also answer out-of-range values: the engine must normalise */
        return g_rand_int_range(b->noise, -2, 3);
    }
    return level;
}

static void fake_set_speed(void *opaque, int speed)
{
    FakeBus *b = opaque;

    b->speed = speed;
    b->speed_calls++;
}

static void fake_spu(void *opaque, bool on)
{
    FakeBus *b = opaque;

    g_assert_cmpint(on, !=, b->spu);
    b->spu = on;
    if (on) {
        b->spu_on++;
    } else {
        b->spu_off++;
    }
}

static const DS2490BusOps fake_ops = {
    .reset = fake_reset,
    .touch_bit = fake_touch_bit,
    .set_speed = fake_set_speed,
    .strong_pullup = fake_spu,
};

static uint8_t crc8(const uint8_t *p, int n)
{
    uint8_t crc = 0;
    int i, j;

    for (i = 0; i < n; i++) {
        crc ^= p[i];
        for (j = 0; j < 8; j++) {
            crc = (crc & 1) ? (crc >> 1) ^ 0x8C : crc >> 1;
        }
    }
    return crc;
}

static uint64_t make_rom(uint8_t family, uint64_t serial)
{
    uint8_t b[8];
    uint64_t rom = 0;
    int i;

    b[0] = family;
    for (i = 0; i < 6; i++) {
        b[1 + i] = (serial >> (8 * i)) & 0xff;
    }
    b[7] = crc8(b, 7);
    for (i = 0; i < 8; i++) {
        rom |= (uint64_t)b[i] << (8 * i);
    }
    return rom;
}

static void fake_add(FakeBus *b, uint64_t rom)
{
    FakeSlave *s;

    g_assert_cmpint(b->nslaves, <, FAKE_SLAVES_MAX);
    s = &b->slave[b->nslaves++];
    memset(s, 0, sizeof(*s));
    s->rom = rom;
    s->present = true;
}

/* n distinct ROMs from a seed */
static void fake_populate(FakeBus *b, int n, uint32_t seed)
{
    GRand *r = g_rand_new_with_seed(seed);
    int i, j;

    for (i = 0; i < n; i++) {
        uint64_t rom;
        bool dup;

        do {
            uint64_t serial = ((uint64_t)g_rand_int(r) << 16) ^
                              g_rand_int(r);
            rom = make_rom(0x28, serial & 0xffffffffffffULL);
            dup = false;
            for (j = 0; j < b->nslaves; j++) {
                dup |= b->slave[j].rom == rom;
            }
        } while (dup);
        fake_add(b, rom);
    }
    g_rand_free(r);
}

/* bytes the master wrote since the n-th reset of the log (LSB first) */
static int wlog_bytes(const FakeBus *b, int nth_reset, uint8_t *out,
                      int max)
{
    int i, seen = -1, n = 0, bits = 0;
    uint8_t cur = 0;

    for (i = 0; i < b->wlog_len; i++) {
        if (b->wlog[i] == WLOG_RESET) {
            seen++;
            continue;
        }
        if (seen != nth_reset) {
            continue;
        }
        cur |= b->wlog[i] << bits;
        if (++bits == 8) {
            if (n < max) {
                out[n] = cur;
            }
            n++;
            cur = 0;
            bits = 0;
        }
    }
    return n;
}

/* ---- the test host: engine + fake bus + fake clock ---- */

typedef struct T {
    DS2490Core c;
    FakeBus *bus;
    int64_t now;
    int64_t poll_ns;            /* virtual time per status poll */
    uint8_t st[DS2490_STATUS_MAX];
    int st_len;
    int polls;
    int spu_sleep;              /* driver state: ms */
    uint16_t spu_bit;
} T;

static int64_t t_clock(void *opaque)
{
    return ((T *)opaque)->now;
}

static T *t_new(int nslaves, uint32_t seed)
{
    T *t = g_new0(T, 1);

    t->bus = g_new0(FakeBus, 1);
    fake_populate(t->bus, nslaves, seed);
    ds2490_init(&t->c, &fake_ops, t->bus, t_clock, t);
    t->poll_ns = 1000000;
    return t;
}

static void t_free(T *t)
{
    if (t->bus->noise) {
        g_rand_free(t->bus->noise);
    }
    g_free(t->bus);
    g_free(t);
}

/*
 * Let virtual time pass, running the engine at each deadline like the
 * glue's timer does.
 */
static void t_advance(T *t, int64_t ns)
{
    int64_t end = t->now + ns;
    int64_t d;
    int guard = 0;

    while ((d = ds2490_run(&t->c)) >= 0 && d <= end) {
        g_assert_cmpint(++guard, <, 1000000);
        g_assert_cmpint(d, >=, t->now);
        t->now = d;
    }
    t->now = end;
}

static void t_clear_log(T *t)
{
    t->bus->wlog_len = 0;
}

/* ---- replica of drivers/w1/masters/ds2490.c (Linux 6.12) ---- */

#define K_COMM_SEARCH 0x49FD    /* SEARCH_ACCESS|IM|RST|SM|F|RTS */

static int k_send_control(T *t, uint16_t value, uint16_t index)
{
    return ds2490_vendor_out(&t->c, DS2490_REQ_COMM, value, index);
}

static int k_send_control_cmd(T *t, uint16_t value, uint16_t index)
{
    return ds2490_vendor_out(&t->c, DS2490_REQ_CONTROL, value, index);
}

static int k_send_control_mode(T *t, uint16_t value, uint16_t index)
{
    return ds2490_vendor_out(&t->c, DS2490_REQ_MODE, value, index);
}

static int k_recv_status(T *t)
{
    t_advance(t, t->poll_ns);
    t->polls++;
    t->st_len = ds2490_status(&t->c, t->st, DS2490_STATUS_MAX);
    if (t->st_len < DS2490_STATUS_SIZE) {
        memset(t->st, 0, DS2490_STATUS_SIZE);
    }
    return t->st_len;
}

static int k_send_data(T *t, const uint8_t *buf, int len)
{
    return ds2490_ep2_write(&t->c, buf, len);
}

static int k_recv_data(T *t, uint8_t *buf, int size)
{
    return ds2490_ep3_read(&t->c, buf, size);
}

static void k_reset_device(T *t)
{
    g_assert_cmpint(k_send_control_cmd(t, DS2490_CTL_RESET_DEVICE, 0), ==,
                    0);
    g_assert_cmpint(k_send_control_mode(t, DS2490_MOD_PULSE_EN,
                                        DS2490_PULSE_SPUE), ==, 0);
    if (t->spu_sleep) {
        g_assert_cmpint(k_send_control(t, 0x0013, t->spu_sleep >> 4), ==, 0);
    }
}

static int k_wait_status(T *t)
{
    int err, count = 0;

    do {
        err = k_recv_status(t);
    } while (!(t->st[8] & DS2490_ST_IDLE) && err >= 0 && ++count < 100);
    if (err >= 16 && (t->st[8] & DS2490_ST_EP0F)) {
        k_reset_device(t);
        count = 101;
    }
    return (count >= 100 || err < 0) ? -1 : 0;
}

static int k_reset(T *t)
{
    return k_send_control(t, 0x0043, 0);
}

static int k_set_pullup(T *t, int delay)
{
    uint8_t del = 1 + (uint8_t)(delay >> 4);
    int ms = del << 4;

    t->spu_bit = delay ? 0x1000 : 0;
    if (delay == 0 || ms == t->spu_sleep) {
        return 0;
    }
    if (k_send_control(t, 0x0013, del)) {
        return -1;
    }
    t->spu_sleep = ms;
    return 0;
}

static int k_touch_bit(T *t, int bit, uint8_t *tbit)
{
    if (k_send_control(t, 0x0021 | (bit ? 0x0008 : 0), 0)) {
        return -1;
    }
    k_wait_status(t);
    return k_recv_data(t, tbit, 1) < 0 ? -1 : 0;
}

static int k_write_byte(T *t, uint8_t byte)
{
    uint8_t echo = 0;

    if (k_send_control(t, 0x0053 | t->spu_bit, byte)) {
        return -1;
    }
    if (t->spu_bit) {
        t_advance(t, (int64_t)t->spu_sleep * 1000000);    /* msleep */
    }
    if (k_wait_status(t)) {
        return -1;
    }
    if (k_recv_data(t, &echo, 1) < 0) {
        return -1;
    }
    return !(byte == echo);
}

static int k_read_byte(T *t, uint8_t *byte)
{
    if (k_send_control(t, 0x0053, 0xff)) {
        return -1;
    }
    k_wait_status(t);
    return k_recv_data(t, byte, 1) < 0 ? -1 : 0;
}

static int k_read_block_chunk(T *t, uint8_t *buf, int len)
{
    memset(buf, 0xff, len);
    if (k_send_data(t, buf, len) < 0) {
        return -1;
    }
    if (k_send_control(t, 0x0075, len)) {
        return -1;
    }
    k_wait_status(t);
    memset(buf, 0, len);
    return k_recv_data(t, buf, len);
}

static int k_read_block(T *t, uint8_t *buf, int len)
{
    int err = 0, to_read, rem = len;

    do {
        to_read = rem <= 128 ? rem : 128;
        err = k_read_block_chunk(t, &buf[len - rem], to_read);
        if (err < 0) {
            return err;
        }
        rem -= to_read;
    } while (rem);
    return err;
}

static int k_write_block(T *t, uint8_t *buf, int len)
{
    int err;

    if (k_send_data(t, buf, len) < 0) {
        return -1;
    }
    if (k_send_control(t, 0x0075 | t->spu_bit, len)) {
        return -1;
    }
    if (t->spu_bit) {
        t_advance(t, (int64_t)t->spu_sleep * 1000000);
    }
    k_wait_status(t);
    err = k_recv_data(t, buf, len);
    if (err < 0) {
        return err;
    }
    return !(err == len);
}

typedef struct KSearch {
    uint64_t ids[300];          /* room past the limit to see overflows */
    int found;
    uint64_t search_id;         /* master->search_id after the search */
    int reads;                  /* bulk IN transfers */
    int bytes;                  /* bytes they returned */
    uint8_t last[128];
    int last_len;
    bool first_status_busy;     /* first poll: not idle, EP3 full */
    int iterations;
} KSearch;

static void k_search(T *t, uint64_t *search_id, uint8_t type,
                     int max_slave_count, KSearch *ks)
{
    uint8_t buf[128];
    uint8_t sid[8];
    int search_limit, i, err;
    bool first = true;

    memset(ks, 0, sizeof(*ks));
    for (i = 0; i < 8; i++) {
        sid[i] = *search_id >> (8 * i);
    }
    if (k_send_data(t, sid, 8) < 0) {
        return;
    }
    *search_id = 0;
    search_limit = max_slave_count > 255 ? 0 : max_slave_count;
    if (k_send_control(t, K_COMM_SEARCH, type | (search_limit << 8)) < 0) {
        return;
    }
    do {
        g_assert_cmpint(++ks->iterations, <, 10000);
        err = k_recv_status(t);
        if (err < 16) {
            break;
        }
        if (first) {
            ks->first_status_busy = !(t->st[8] & DS2490_ST_IDLE) &&
                                    t->st[13] == 128;
            first = false;
        }
        if (t->st[13]) {
            err = k_recv_data(t, buf, sizeof(buf));
            if (err < 0) {
                break;
            }
            ks->reads++;
            ks->bytes += err;
            memcpy(ks->last, buf, err);
            ks->last_len = err;
            for (i = 0; i < err / 8; ++i) {
                uint64_t id;

                memcpy(&id, &buf[8 * i], 8);
                g_assert_cmpint(ks->found, <, (int)G_N_ELEMENTS(ks->ids));
                ks->ids[ks->found++] = id;
                if (ks->found == search_limit) {
                    *search_id = id;
                    break;
                }
            }
        }
    } while (!(t->st[8] & (DS2490_ST_IDLE | DS2490_ST_HALT)));
    if (ks->found <= search_limit) {
        *search_id = 0;
    }
    ks->search_id = *search_id;
}

/* ---- reference search model (independent of the engine) ---- */

static uint64_t bitrev64(uint64_t v)
{
    uint64_t r = 0;
    int i;

    for (i = 0; i < 64; i++) {
        r |= ((v >> i) & 1) << (63 - i);
    }
    return r;
}

static int cmp_search_order(const void *a, const void *b)
{
    uint64_t x = bitrev64(*(const uint64_t *)a);
    uint64_t y = bitrev64(*(const uint64_t *)b);

    return x < y ? -1 : x > y;
}

/* participating ROMs in the order a search from path 0 finds them */
static int ref_sorted(const FakeBus *b, bool alarm_only, uint64_t *out)
{
    int i, n = 0;

    for (i = 0; i < b->nslaves; i++) {
        if (b->slave[i].present && (!alarm_only || b->slave[i].alarm)) {
            out[n++] = b->slave[i].rom;
        }
    }
    qsort(out, n, sizeof(uint64_t), cmp_search_order);
    return n;
}

/* bits where slaves still in the pass for @rom disagree */
static uint64_t ref_disc(const uint64_t *roms, int n, uint64_t rom)
{
    uint64_t disc = 0;
    int i, k;

    for (i = 0; i < 64; i++) {
        uint64_t below = (1ULL << i) - 1;
        bool zero = false, one = false;

        for (k = 0; k < n; k++) {
            if ((roms[k] & below) == (rom & below)) {
                if ((roms[k] >> i) & 1) {
                    one = true;
                } else {
                    zero = true;
                }
            }
        }
        if (zero && one) {
            disc |= 1ULL << i;
        }
    }
    return disc;
}

/* ---- tests ---- */

static void assert_power_on_status(T *t, uint8_t enable)
{
    static const uint8_t def[16] = {
        0x00, 0x00, 0x20, 0x40, 0x05, 0x04, 0x04, 0x00,
        0x20, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    };
    uint8_t want[16];

    memcpy(want, def, sizeof(want));
    want[0] = enable;
    g_assert_cmpint(k_recv_status(t), ==, 16);
    g_assert_cmpmem(t->st, 16, want, 16);
}

static void test_probe(void)
{
    T *t = t_new(1, 1);

    /* ds_w1_init() -> ds_reset_device(): RESET_DEVICE, MOD_PULSE_EN 2 */
    k_reset_device(t);
    assert_power_on_status(t, DS2490_EN_SPUE);
    g_assert_cmpint(t->bus->speed, ==, DS2490_SPEED_REGULAR);
    g_assert_cmpint(t->bus->resets, ==, 0);
    g_assert_cmpint(t->bus->slots, ==, 0);

    /* after a pullup was set, the re-init also restores its duration */
    g_assert_cmpint(k_set_pullup(t, 750), ==, 0);
    g_assert_cmpint(t->spu_sleep, ==, 752);
    k_recv_status(t);
    g_assert_cmphex(t->st[2], ==, 47);
    g_assert_cmphex(t->st[9], ==, 0x13);
    k_reset_device(t);
    k_recv_status(t);
    g_assert_cmpint(t->st_len, ==, 16);
    g_assert_cmphex(t->st[2], ==, 752 >> 4);
    g_assert_cmphex(t->st[0], ==, DS2490_EN_SPUE);
    t_free(t);
}

static void test_reset(void)
{
    T *t = t_new(2, 2);

    k_reset_device(t);
    /* presence: no result byte */
    g_assert_cmpint(k_reset(t), ==, 0);
    g_assert_cmpint(t->bus->resets, ==, 1);
    g_assert_cmpint(k_recv_status(t), ==, 16);
    g_assert_cmphex(t->st[8], ==, DS2490_ST_IDLE);
    g_assert_cmphex(t->st[9], ==, 0x43);
    g_assert_cmphex(t->st[10], ==, 0x00);
    g_assert_cmpint(t->bus->speed_calls, ==, 2);    /* init, reset dev */

    /* no presence: NRS */
    t->bus->slave[0].present = false;
    t->bus->slave[1].present = false;
    k_reset(t);
    g_assert_cmpint(k_recv_status(t), ==, 17);
    g_assert_cmphex(t->st[16], ==, DS2490_RR_NRS);
    g_assert_cmpint(k_recv_status(t), ==, 16);      /* consumed */

    /* short: SH */
    t->bus->shorted = true;
    k_reset(t);
    g_assert_cmpint(k_recv_status(t), ==, 17);
    g_assert_cmphex(t->st[16], ==, DS2490_RR_SH);
    t->bus->shorted = false;

    /* NTF: 0x00 on success; ICP suppresses even errors */
    t->bus->slave[0].present = true;
    k_send_control(t, 0x0443, 0);
    g_assert_cmpint(k_recv_status(t), ==, 17);
    g_assert_cmphex(t->st[16], ==, 0x00);
    t->bus->slave[0].present = false;
    k_send_control(t, 0x0243, 0);
    g_assert_cmpint(k_recv_status(t), ==, 16);

    /* the driver's ds_wait_status() takes result bytes as success */
    k_reset(t);
    g_assert_cmpint(k_wait_status(t), ==, 0);
    g_assert_cmpint(t->st_len, ==, 17);
    g_assert_cmpint(t->bus->resets, ==, 6);
    t_free(t);
}

static void test_bit_io(void)
{
    T *t = t_new(1, 3);
    uint64_t rom = t->bus->slave[0].rom;
    uint8_t b = 0xee;
    uint8_t byte = 0;
    int i;

    k_reset_device(t);
    t_clear_log(t);
    /* write-0 slot reads 0, write-1 slot on an idle bus reads 1 */
    g_assert_cmpint(k_touch_bit(t, 0, &b), ==, 0);
    g_assert_cmphex(b, ==, 0x00);
    g_assert_cmpint(k_touch_bit(t, 1, &b), ==, 0);
    g_assert_cmphex(b, ==, 0x01);
    g_assert_cmpint(t->bus->wlog_len, ==, 2);
    g_assert_cmpint(t->bus->wlog[0], ==, 0);
    g_assert_cmpint(t->bus->wlog[1], ==, 1);

    /* w1_touch_block style: READ ROM family byte bit by bit */
    k_reset(t);
    g_assert_cmpint(k_write_byte(t, 0x33), ==, 0);
    for (i = 0; i < 8; i++) {
        g_assert_cmpint(k_touch_bit(t, 1, &b), ==, 0);
        g_assert_true(b == 0 || b == 1);
        byte |= b << i;
    }
    g_assert_cmphex(byte, ==, rom & 0xff);
    g_assert_cmphex(t->st[9], ==, 0x29);
    g_assert_cmpint(t->c.ep3_count, ==, 0);
    t_free(t);
}

static void test_byte_io(void)
{
    T *t = t_new(1, 4);
    uint64_t rom = t->bus->slave[0].rom;
    uint8_t wire[16];
    uint8_t b;
    int i;

    k_reset_device(t);
    t_clear_log(t);
    k_reset(t);
    g_assert_cmpint(k_write_byte(t, 0x33), ==, 0);
    for (i = 0; i < 8; i++) {
        g_assert_cmpint(k_read_byte(t, &b), ==, 0);
        g_assert_cmphex(b, ==, (rom >> (8 * i)) & 0xff);
    }
    g_assert_cmpint(wlog_bytes(t->bus, 0, wire, 16), ==, 9);
    g_assert_cmphex(wire[0], ==, 0x33);
    for (i = 1; i < 9; i++) {
        g_assert_cmphex(wire[i], ==, 0xff);
    }
    g_assert_cmpint(t->bus->spu_on, ==, 0);

    /* a slave pulling a write-1 slot low shows as an echo mismatch */
    k_reset(t);
    k_write_byte(t, 0x33);
    g_assert_cmpint(k_write_byte(t, 0xff), ==, (rom & 0xff) != 0xff);

    /* strong pullup: w1_next_pullup() -> set_pullup(750), SPU write */
    g_assert_cmpint(k_set_pullup(t, 750), ==, 0);
    k_reset(t);
    g_assert_cmpint(k_write_byte(t, 0xCC), ==, 0);
    g_assert_cmpint(t->bus->spu_on, ==, 1);
    g_assert_cmpint(t->bus->spu_off, ==, 1);
    g_assert_cmphex(t->st[9], ==, 0x53);
    g_assert_cmphex(t->st[10], ==, 0x10);
    g_assert_false(t->st[8] & DS2490_ST_SPUA);
    k_set_pullup(t, 0);
    g_assert_cmpint(k_write_byte(t, 0x44), ==, 0);
    g_assert_cmpint(t->bus->spu_on, ==, 1);

    /* SPU without MOD_PULSE_EN SPUE: no pullup */
    k_send_control_mode(t, DS2490_MOD_PULSE_EN, 0);
    k_send_control(t, 0x1053, 0x44);
    k_wait_status(t);
    g_assert_cmpint(k_recv_data(t, &b, 1), ==, 1);
    g_assert_cmpint(t->bus->spu_on, ==, 1);

    /* ICP: no echo in EP3 */
    k_send_control(t, 0x0253, 0x12);
    g_assert_cmpint(t->c.ep3_count, ==, 0);
    t_free(t);
}

static void test_block_io(void)
{
    T *t = t_new(2, 5);
    uint64_t rom = t->bus->slave[1].rom;
    uint8_t buf[600];
    uint8_t sel[10];
    uint8_t wire[16];
    int i, n;

    k_reset_device(t);
    /* select slave 1 with MATCH ROM (9-byte block), then 0xBE */
    k_reset(t);
    sel[0] = 0x55;
    for (i = 0; i < 8; i++) {
        sel[1 + i] = rom >> (8 * i);
    }
    sel[9] = 0xBE;
    memcpy(buf, sel, 10);
    g_assert_cmpint(k_write_block(t, buf, 10), ==, 0);
    g_assert_cmpmem(buf, 10, sel, 10);           /* echo */
    g_assert_cmpint(t->bus->slave[0].state, ==, FS_IDLE);
    g_assert_cmpint(t->bus->slave[1].state, ==, FS_FUNC_READ);

    /* read_block 300: chunks of 128, 128, 44 */
    t->polls = 0;
    g_assert_cmpint(k_read_block(t, buf, 300), ==, 44);
    for (i = 0; i < 300; i++) {
        g_assert_cmphex(buf[i], ==, pattern(i));
    }
    g_assert_cmpint(t->polls, ==, 3);           /* one poll per chunk */
    g_assert_cmphex(t->st[9], ==, 0x75);

    /* block with strong pullup, length > 64, read back in 64-byte reads */
    t_clear_log(t);
    k_reset(t);
    k_set_pullup(t, 100);
    for (i = 0; i < 100; i++) {
        buf[i] = i;
    }
    g_assert_cmpint(k_send_data(t, buf, 100), ==, 100);
    g_assert_cmpint(k_send_control(t, 0x0075 | t->spu_bit, 100), ==, 0);
    g_assert_cmpint(t->bus->spu_on, ==, 1);
    k_wait_status(t);
    g_assert_cmpint(t->st[13], ==, 100);
    memset(buf, 0, sizeof(buf));
    g_assert_cmpint(k_recv_data(t, buf, 64), ==, 64);
    g_assert_cmpint(k_recv_data(t, buf + 64, 64), ==, 36);
    g_assert_cmpint(k_recv_data(t, buf + 100, 64), ==, -1);
    for (i = 0; i < 100; i++) {
        g_assert_cmphex(buf[i], ==, i);  /* ROM command 0x00: all idle */
    }
    n = wlog_bytes(t->bus, 0, wire, 16);
    g_assert_cmpint(n, ==, 100);
    g_assert_cmphex(wire[0], ==, 0);
    g_assert_cmphex(wire[15], ==, 15);
    t_free(t);
}

/* BLOCK_IO longer than both FIFOs proceeds as EP2/EP3 allow */
static void test_block_incremental(void)
{
    T *t = t_new(0, 6);
    uint8_t out[64], in[200];
    int sent = 0, got = 0, i, n, guard = 0;
    const int len = 1000;

    k_reset_device(t);
    k_send_control(t, 0x0075, len);
    while (got < len) {
        g_assert_cmpint(++guard, <, 1000);
        n = MIN(64, len - sent);
        for (i = 0; i < n; i++) {
            out[i] = (sent + i) * 3;
        }
        if (n > 0 && k_send_data(t, out, n) == n) {
            sent += n;
        }
        k_recv_status(t);
        g_assert_cmpint(t->st[12], <=, 128);
        g_assert_cmpint(t->st[13], <=, 128);
        g_assert_cmpint(!!(t->st[8] & DS2490_ST_IDLE), ==, got + t->st[13]
                        == len);
        n = k_recv_data(t, in, got % 3 == 0 ? 200 : 37);
        if (n > 0) {
            for (i = 0; i < n; i++) {
                g_assert_cmphex(in[i], ==, (uint8_t)((got + i) * 3));
            }
            got += n;
        }
    }
    g_assert_cmpint(sent, ==, len);
    k_recv_status(t);
    g_assert_true(t->st[8] & DS2490_ST_IDLE);
    g_assert_cmpint(t->bus->slots, ==, 8 * len);
    t_free(t);
}

typedef struct SearchCase {
    int nslaves;
    int max_slave_count;
    bool rts_data;
} SearchCase;

static void test_search(gconstpointer data)
{
    const SearchCase *sc = data;
    T *t = t_new(sc->nslaves, 100 + sc->nslaves);
    uint64_t sorted[FAKE_SLAVES_MAX];
    uint64_t search_id = 0;
    KSearch *ks = g_new0(KSearch, 1);
    int n, limit, want, i;
    uint64_t disc = 0;

    t->c.search_rts_data = sc->rts_data;
    k_reset_device(t);
    n = ref_sorted(t->bus, false, sorted);
    g_assert_cmpint(n, ==, sc->nslaves);
    limit = sc->max_slave_count > 255 ? 0 : sc->max_slave_count;

    k_search(t, &search_id, 0xF0, sc->max_slave_count, ks);

    if (limit == 0 || n <= limit) {
        want = n;
    } else {
        disc = ref_disc(sorted, n, sorted[limit - 1]);
        g_assert_cmphex(disc, !=, 0);
        /* the kernel reads one more time only after a full 128-byte read */
        want = (sc->rts_data && limit % 16 == 0) ? limit + 1 : limit;
    }
    g_assert_cmpint(ks->found, ==, want);
    for (i = 0; i < MIN(want, n); i++) {
        if (limit && i >= limit) {
            break;
        }
        g_assert_cmphex(ks->ids[i], ==, sorted[i]);
    }
    if (want == limit + 1) {
        /* the discrepancy bytes land past found_ids[] (guest bug) */
        g_assert_cmphex(ks->ids[limit], ==, disc);
        g_assert_cmphex(ks->search_id, ==, sorted[limit - 1]);
    } else {
        g_assert_cmphex(ks->search_id, ==, 0);
    }
    if (limit && n > limit && limit % 8 != 0 && sc->rts_data) {
        /* e.g. limit 2: ids and discrepancy came in one read */
        uint64_t got;

        g_assert_cmpint(ks->bytes, ==, 8 * limit + 8);
        memcpy(&got, &ks->last[8 * limit], 8);
        g_assert_cmphex(got, ==, disc);
    }
    if (limit && n > limit && !sc->rts_data) {
        g_assert_cmpint(ks->bytes, ==, 8 * limit);
    }
    /* EP3 back-pressure: busy with a full FIFO when > 16 ids pending */
    g_assert_cmpint(ks->first_status_busy, ==,
                    n > 16 && (limit == 0 || limit > 16 ||
                               (limit == 16 && sc->rts_data)));
    if (n == 0) {
        g_assert_cmpint(t->st_len, ==, 17);
        g_assert_cmphex(t->st[16], ==, DS2490_RR_NRS);
        g_assert_cmpint(t->bus->resets, ==, 1);
    } else {
        /* one reset per pass, passes = ids read (not the disc bytes) */
        g_assert_cmpint(t->bus->resets, ==, limit ? MIN(n, limit) : n);
        g_assert_cmpint(t->bus->slots, ==, t->bus->resets * (8 + 192));
        g_assert_cmpint(t->st_len, ==, 16);
    }
    g_assert_true(t->st[8] & DS2490_ST_IDLE);
    g_assert_cmpint(t->c.ep3_count, ==, 0);
    g_assert_cmpint(t->c.ep2_count, ==, 0);
    g_free(ks);
    t_free(t);
}

/* start path = a known ROM: that device comes first (driver comment) */
static void test_search_continue(void)
{
    T *t = t_new(20, 7);
    uint64_t sorted[FAKE_SLAVES_MAX];
    KSearch *ks = g_new0(KSearch, 1);
    uint64_t sid;
    int n, i;

    k_reset_device(t);
    n = ref_sorted(t->bus, false, sorted);
    sid = sorted[5];
    k_search(t, &sid, 0xF0, 64, ks);
    g_assert_cmpint(ks->found, ==, n - 5);
    for (i = 0; i < n - 5; i++) {
        g_assert_cmphex(ks->ids[i], ==, sorted[5 + i]);
    }

    /* the continuation a > 16-limit search leaves behind */
    sid = 0;
    k_search(t, &sid, 0xF0, 16, ks);
    g_assert_cmpint(ks->found, ==, 17);
    g_assert_cmphex(sid, ==, sorted[15]);
    k_search(t, &sid, 0xF0, 16, ks);
    g_assert_cmpint(ks->found, ==, n - 15);
    g_assert_cmphex(ks->ids[0], ==, sorted[15]);
    g_assert_cmphex(ks->ids[n - 16], ==, sorted[n - 1]);
    g_free(ks);
    t_free(t);
}

static void test_search_alarm(void)
{
    T *t = t_new(10, 8);
    uint64_t sorted[FAKE_SLAVES_MAX];
    KSearch *ks = g_new0(KSearch, 1);
    uint64_t sid = 0;
    int n, i;

    k_reset_device(t);
    /* nobody alarming: presence, then (1,1) at bit 0, no id, no error */
    k_search(t, &sid, 0xEC, 64, ks);
    g_assert_cmpint(ks->found, ==, 0);
    g_assert_cmpint(t->st_len, ==, 16);

    t->bus->slave[2].alarm = true;
    t->bus->slave[7].alarm = true;
    t->bus->slave[9].alarm = true;
    n = ref_sorted(t->bus, true, sorted);
    g_assert_cmpint(n, ==, 3);
    k_search(t, &sid, 0xEC, 64, ks);
    g_assert_cmpint(ks->found, ==, 3);
    for (i = 0; i < 3; i++) {
        g_assert_cmphex(ks->ids[i], ==, sorted[i]);
    }
    g_free(ks);
    t_free(t);
}

/* SEARCH_ACCESS details the driver does not use */
static void test_search_variants(void)
{
    T *t = t_new(5, 9);
    uint64_t sorted[FAKE_SLAVES_MAX];
    uint8_t zero[8] = { 0 };
    uint8_t buf[64];
    uint64_t v;

    k_reset_device(t);
    ref_sorted(t->bus, false, sorted);

    /* SM=0 + RTS: one id plus its discrepancy bytes; device selected */
    k_send_data(t, zero, 8);
    k_send_control(t, 0x41F5, 0xF0);
    g_assert_cmpint(k_recv_data(t, buf, 64), ==, 16);
    memcpy(&v, buf, 8);
    g_assert_cmphex(v, ==, sorted[0]);
    memcpy(&v, buf + 8, 8);
    g_assert_cmphex(v, ==, ref_disc(sorted, 5, sorted[0]));

    /* EOS when the search ends with fewer ids than asked for */
    t->c.search_eos = true;
    k_send_data(t, zero, 8);
    k_send_control(t, K_COMM_SEARCH, 0xF0 | (10 << 8));
    k_recv_status(t);
    g_assert_cmpint(t->st_len, ==, 17);
    g_assert_cmphex(t->st[16], ==, DS2490_RR_EOS);
    g_assert_cmpint(k_recv_data(t, buf, 64), ==, 40);

    /* N = 0 means no limit; RST=0: the first pass has no reset */
    t->bus->resets = 0;
    k_send_data(t, zero, 8);
    k_reset(t);
    k_send_control(t, K_COMM_SEARCH & ~DS2490_COMM_RST, 0xF0);
    g_assert_cmpint(t->bus->resets, ==, 5);
    g_assert_cmpint(k_recv_status(t), ==, 16);      /* no EOS for N=0 */
    g_assert_cmpint(k_recv_data(t, buf, 64), ==, 40);

    /* a search waits for its 8 path bytes */
    k_send_control(t, K_COMM_SEARCH, 0xF0);
    k_recv_status(t);
    g_assert_false(t->st[8] & DS2490_ST_IDLE);
    k_send_data(t, zero, 4);
    k_recv_status(t);
    g_assert_false(t->st[8] & DS2490_ST_IDLE);
    g_assert_cmpint(t->st[12], ==, 4);
    k_send_data(t, zero, 4);
    k_recv_status(t);
    g_assert_true(t->st[8] & DS2490_ST_IDLE);
    g_assert_cmpint(t->st[13], ==, 40);
    t_free(t);
}

static void test_status_layout(void)
{
    T *t = t_new(1, 10);
    uint8_t data[5] = { 1, 2, 3, 4, 5 };
    int i;

    t->c.pmod = true;
    k_reset_device(t);
    k_send_control_mode(t, DS2490_MOD_PULSE_EN, 0x03);
    k_recv_status(t);
    g_assert_cmphex(t->st[0], ==, DS2490_EN_SPUE | DS2490_EN_PRGE);
    k_send_control_mode(t, DS2490_MOD_SPEED_CHANGE_EN, 1);
    k_send_control_mode(t, DS2490_MOD_PULSE_EN, DS2490_PULSE_PROG | 0xfc);
    k_recv_status(t);
    g_assert_cmphex(t->st[0], ==, DS2490_EN_PRGE | DS2490_EN_SPCE);
    k_send_control_mode(t, DS2490_MOD_PULSE_EN, DS2490_PULSE_SPUE);

    k_send_control_mode(t, DS2490_MOD_1WIRE_SPEED, 1);
    k_send_control_mode(t, DS2490_MOD_STRONG_PU_DUR, 0x33);
    k_send_control_mode(t, DS2490_MOD_PROG_PULSE_DUR, 0x44);
    k_send_control_mode(t, DS2490_MOD_PULLDOWN_SLEW, 0xfe);
    k_send_control_mode(t, DS2490_MOD_WRITE1_LOWTIME, 0x01);
    k_send_control_mode(t, DS2490_MOD_DSOW0_TREC, 0x07);
    k_recv_status(t);
    g_assert_cmphex(t->st[0], ==, DS2490_EN_SPUE | DS2490_EN_SPCE);
    g_assert_cmphex(t->st[1], ==, 1);
    g_assert_cmphex(t->st[2], ==, 0x33);
    g_assert_cmphex(t->st[3], ==, 0x44);
    g_assert_cmphex(t->st[4], ==, 0x06);
    g_assert_cmphex(t->st[5], ==, 0x01);
    g_assert_cmphex(t->st[6], ==, 0x07);
    g_assert_cmphex(t->st[7], ==, 0);
    g_assert_cmphex(t->st[8], ==, DS2490_ST_PMOD | DS2490_ST_IDLE);
    g_assert_cmphex(t->st[14], ==, 0);
    g_assert_cmphex(t->st[15], ==, 0);

    /* 9/10: command being run (last one when idle) */
    k_send_control(t, 0x0053, 0x5a);
    k_recv_status(t);
    g_assert_cmphex(t->st[9], ==, 0x53);
    g_assert_cmphex(t->st[10], ==, 0x00);
    g_assert_cmpint(t->st[13], ==, 1);          /* 13: EP3 bytes */

    /* 11: command FIFO bytes (IM=0 commands wait for START_EXE) */
    k_send_control(t, 0x0052, 0x33);            /* 3 bytes */
    k_send_control(t, 0x0074, 4);               /* 4 bytes */
    k_send_control(t, 0x0020, 0);               /* 2 bytes */
    k_recv_status(t);
    g_assert_cmpint(t->st[11], ==, 9);
    g_assert_true(t->st[8] & DS2490_ST_IDLE);

    /* 12: EP2 bytes */
    k_send_data(t, data, 5);
    k_recv_status(t);
    g_assert_cmpint(t->st[12], ==, 5);

    /* start the macro: BYTE_IO, BLOCK_IO (4 of 5 EP2 bytes), BIT_IO */
    k_send_control_cmd(t, DS2490_CTL_START_EXE, 0);
    k_recv_status(t);
    g_assert_cmpint(t->st[11], ==, 0);
    g_assert_cmpint(t->st[12], ==, 1);
    g_assert_cmpint(t->st[13], ==, 1 + 1 + 4 + 1);
    g_assert_cmphex(t->st[9], ==, 0x20);
    g_assert_true(t->st[8] & DS2490_ST_IDLE);

    /* HALT */
    k_send_control_cmd(t, DS2490_CTL_HALT_EXE_IDLE, 0);
    k_recv_status(t);
    g_assert_cmphex(t->st[8], ==,
                    DS2490_ST_PMOD | DS2490_ST_HALT | DS2490_ST_IDLE);
    k_send_control_cmd(t, DS2490_CTL_RESUME_EXE, 0);

    /* SPUA during an infinite strong pullup */
    k_send_control(t, 0x0013, 0);
    k_send_control(t, 0x1053, 0xff);
    k_recv_status(t);
    g_assert_cmphex(t->st[8], ==, DS2490_ST_PMOD | DS2490_ST_SPUA);
    g_assert_cmphex(t->st[10], ==, 0x10);
    k_send_control_cmd(t, DS2490_CTL_HALT_EXE_DONE, 0);
    k_recv_status(t);
    g_assert_cmphex(t->st[8], ==,
                    DS2490_ST_PMOD | DS2490_ST_HALT | DS2490_ST_IDLE);
    g_assert_cmpint(t->bus->spu_off, ==, t->bus->spu_on);

    /* EP0F: command FIFO overflow while halted */
    for (i = 0; i < 9; i++) {
        k_send_control(t, 0x0021, 0);
    }
    k_recv_status(t);
    g_assert_cmpint(t->st[11], ==, 16);
    g_assert_true(t->st[8] & DS2490_ST_EP0F);
    g_assert_cmpint(t->c.cmds_dropped, ==, 1);
    /* the driver resets the device when it sees EP0F */
    g_assert_cmpint(k_wait_status(t), ==, -1);
    k_recv_status(t);
    g_assert_cmphex(t->st[8], ==, DS2490_ST_PMOD | DS2490_ST_IDLE);
    g_assert_cmpint(t->st[11], ==, 0);
    t_free(t);
}

static void test_result_fifo(void)
{
    T *t = t_new(0, 11);
    int i;

    k_reset_device(t);
    for (i = 0; i < 20; i++) {
        k_reset(t);
    }
    g_assert_cmpint(t->c.results_dropped, ==, 4);
    /* a short buffer delivers only what fits, the rest stays */
    t->st_len = ds2490_status(&t->c, t->st, 20);
    g_assert_cmpint(t->st_len, ==, 20);
    g_assert_cmpint(t->c.results_count, ==, 12);
    g_assert_cmpint(k_recv_status(t), ==, 28);
    for (i = 16; i < 28; i++) {
        g_assert_cmphex(t->st[i], ==, DS2490_RR_NRS);
    }
    g_assert_cmpint(k_recv_status(t), ==, 16);
    /* a header-only read consumes nothing */
    k_reset(t);
    g_assert_cmpint(ds2490_status(&t->c, t->st, 10), ==, 10);
    g_assert_cmpint(ds2490_status(&t->c, t->st, 16), ==, 16);
    g_assert_cmpint(k_recv_status(t), ==, 17);

    /* RR_DETECT from the glue, and its property */
    ds2490_queue_detect(&t->c);
    g_assert_cmpint(k_recv_status(t), ==, 17);
    g_assert_cmphex(t->st[16], ==, DS2490_RR_DETECT);
    t->c.detect_byte = false;
    ds2490_queue_detect(&t->c);
    g_assert_cmpint(k_recv_status(t), ==, 16);
    t_free(t);
}

static void test_ep2_overflow(void)
{
    T *t = t_new(0, 12);
    uint8_t buf[300];
    int i;

    for (i = 0; i < 300; i++) {
        buf[i] = i;
    }
    k_reset_device(t);
    g_assert_cmpint(k_send_data(t, buf, 100), ==, 100);
    g_assert_cmpint(k_send_data(t, buf, 29), ==, -1);
    g_assert_cmpint(t->c.ep2_count, ==, 100);
    g_assert_cmpint(k_send_data(t, buf, 28), ==, 28);
    g_assert_cmpint(k_send_data(t, buf, 1), ==, -1);
    g_assert_cmpint(k_send_data(t, buf, 0), ==, 0);
    /* netlink W1_CMD_WRITE > 128: NAKed whole, nothing on the wire */
    k_reset_device(t);
    g_assert_cmpint(k_write_block(t, buf, 200), ==, -1);
    g_assert_cmpint(t->bus->slots, ==, 0);
    g_assert_cmpint(t->c.ep2_count, ==, 0);
    /* strict-fifo=off: take what fits, like the silicon */
    t->c.strict_fifo = false;
    g_assert_cmpint(k_send_data(t, buf, 200), ==, 128);
    g_assert_cmpint(k_send_data(t, buf, 1), ==, -1);
    g_assert_cmpint(ds2490_ep2_space(&t->c), ==, 0);
    t_free(t);
}

/* the engine's guest errors, kept in a string array */
static void G_GNUC_PRINTF(2, 0)
t_guest_error(void *opaque, const char *fmt, va_list ap)
{
    g_ptr_array_add(opaque, g_strdup_vprintf(fmt, ap));
}

static void test_guest_errors(void)
{
    T *t = t_new(1, 14);
    g_autoptr(GPtrArray) msgs = g_ptr_array_new_with_free_func(g_free);
    static const struct {
        uint8_t request;
        uint16_t value;
        const char *msg;
    } cases[] = {
        { DS2490_REQ_COMM, 0x0002,
          "COMM: unknown command 0x0002 (code 0x0, index 0x0000)" },
        { DS2490_REQ_COMM, 0x00F6,
          "COMM: unknown command 0x00f6 (code 0xf, index 0x0000)" },
        { DS2490_REQ_CONTROL, 0x0005,
          "CONTROL: unsupported command unknown 0x0005" },
        { DS2490_REQ_CONTROL, DS2490_CTL_GET_COMM_CMDS,
          "CONTROL: unsupported command GET_COMM_CMDS 0x000a" },
        { DS2490_REQ_MODE, 0x0008,
          "MODE: unknown register 0x0008 (value 0x00)" },
        { 3, 0x1234, "unknown vendor request 0x03 (value 0x1234)" },
    };
    unsigned i;

    k_reset_device(t);
    t->c.guest_error = t_guest_error;
    t->c.guest_error_opaque = msgs;
    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_assert_cmpint(ds2490_vendor_out(&t->c, cases[i].request,
                                          cases[i].value, 0), ==, -1);
        g_assert_cmpuint(msgs->len, ==, i + 1);
        g_assert_cmpstr(g_ptr_array_index(msgs, i), ==, cases[i].msg);
    }
    g_assert_cmpint(ds2490_vendor_in(&t->c, DS2490_REQ_CONTROL,
                                     DS2490_CTL_START_EXE, 0, NULL, 0), ==,
                    -1);
    g_assert_cmpstr(g_ptr_array_index(msgs, msgs->len - 1), ==,
                    "IN vendor request 0x00: unsupported START_EXE 0x0001 "
                    "(only GET_COMM_CMDS reads)");

    /* an unimplemented command is accepted, and runs as a no-op */
    g_ptr_array_set_size(msgs, 0);
    g_assert_cmpint(k_send_control(t, DS2490_COMM_SET_PATH |
                                   DS2490_COMM_IM, 0x12), ==, 0);
    t_advance(t, 1000000);
    g_assert_cmpuint(msgs->len, ==, 1);
    g_assert_cmpstr(g_ptr_array_index(msgs, 0), ==,
                    "unimplemented COMM command SET_PATH 0x00a3 "
                    "(index 0x0012) completes as a no-op");

    /* a full command FIFO (16 bytes) drops the command, and says which */
    g_ptr_array_set_size(msgs, 0);
    for (i = 0; i < 6; i++) {     /* 3 bytes each */
        g_assert_cmpint(k_send_control(t, DS2490_COMM_BYTE_IO, 0x5a), ==, 0);
    }
    g_assert_cmpuint(msgs->len, ==, 1);
    g_assert_cmpstr(g_ptr_array_index(msgs, 0), ==,
                    "COMM: command FIFO full (5 commands, 15 bytes): "
                    "BYTE_IO 0x0052 dropped");
    t_free(t);
}

static void test_cmdname(void)
{
    g_assert_cmpstr(ds2490_cmdname(DS2490_REQ_COMM, 0x0053), ==, "BYTE_IO");
    g_assert_cmpstr(ds2490_cmdname(DS2490_REQ_COMM, K_COMM_SEARCH), ==,
                    "SEARCH_ACCESS");
    g_assert_cmpstr(ds2490_cmdname(DS2490_REQ_COMM,
                                   DS2490_COMM_ERROR_ESCAPE), ==,
                    "ERROR_ESCAPE");
    g_assert_cmpstr(ds2490_cmdname(DS2490_REQ_COMM, 0x0002), ==, "unknown");
    g_assert_cmpstr(ds2490_cmdname(DS2490_REQ_CONTROL,
                                   DS2490_CTL_FLUSH_RCV_BUFFER), ==,
                    "FLUSH_RCV_BUFFER");
    g_assert_cmpstr(ds2490_cmdname(DS2490_REQ_CONTROL, 0x0005), ==,
                    "unknown");
    g_assert_cmpstr(ds2490_cmdname(DS2490_REQ_CONTROL, 0xffff), ==,
                    "unknown");
    g_assert_cmpstr(ds2490_cmdname(DS2490_REQ_MODE, DS2490_MOD_1WIRE_SPEED),
                    ==, "1WIRE_SPEED");
    g_assert_cmpstr(ds2490_cmdname(DS2490_REQ_MODE, 8), ==, "unknown");
    g_assert_cmpstr(ds2490_cmdname(7, 0), ==, "unknown");
}

static void test_stall(void)
{
    T *t = t_new(0, 13);
    uint8_t buf[16];
    static const uint16_t bad_comm[] = {
        0x0002, 0x0004, 0x0011, 0x0010, 0x0022, 0x0024, 0x0040, 0x0050,
        0x0066, 0x0070, 0x0090, 0x00A0, 0x00C2, 0x00F0, 0x00F2, 0x00F6,
    };
    unsigned i;

    k_reset_device(t);
    g_assert_cmpint(ds2490_vendor_out(&t->c, 3, 0, 0), ==, -1);
    g_assert_cmpint(ds2490_vendor_out(&t->c, 0xff, 0, 0), ==, -1);
    g_assert_cmpint(k_send_control_cmd(t, 0x0005, 0), ==, -1);
    g_assert_cmpint(k_send_control_cmd(t, 0x0006, 0), ==, -1);
    g_assert_cmpint(k_send_control_cmd(t, DS2490_CTL_GET_COMM_CMDS, 0), ==,
                    -1);
    g_assert_cmpint(k_send_control_cmd(t, 0x0100, 0), ==, -1);
    g_assert_cmpint(k_send_control_mode(t, 0x0008, 0), ==, -1);
    g_assert_cmpint(k_send_control_mode(t, 0xffff, 0), ==, -1);
    for (i = 0; i < G_N_ELEMENTS(bad_comm); i++) {
        g_assert_cmpint(k_send_control(t, bad_comm[i] | 1, 0), ==, -1);
    }
    g_assert_cmpint(ds2490_vendor_in(&t->c, 1, 0x000A, 0, buf, 16), ==, -1);
    g_assert_cmpint(ds2490_vendor_in(&t->c, 0, 0x0000, 0, buf, 16), ==, -1);
    /* nothing of that reached the FIFO or the bus */
    g_assert_cmpint(t->c.cmdq_len, ==, 0);
    g_assert_cmpint(t->bus->slots + t->bus->resets, ==, 0);
    assert_power_on_status(t, DS2490_EN_SPUE);

    /* every documented command is accepted */
    g_assert_cmpint(k_send_control(t, DS2490_COMM_ERROR_ESCAPE, 0), ==, 0);
    g_assert_cmpint(k_send_control(t, DS2490_COMM_DO_RELEASE | 1, 0), ==, 0);
    g_assert_cmpint(k_send_control(t, DS2490_COMM_SET_PATH | 1, 0), ==, 0);
    g_assert_cmpint(k_send_control(t, DS2490_COMM_WRITE_EPROM | 1, 0), ==,
                    0);
    g_assert_cmpint(k_send_control(t, DS2490_COMM_READ_REDIRECT | 1, 0), ==,
                    0);
    g_assert_cmpint(t->c.unimp_count, ==, 4);
    g_assert_cmphex(t->c.unimp_value, ==, DS2490_COMM_READ_REDIRECT | 1);
    t_free(t);
}

static void test_speed(void)
{
    T *t = t_new(1, 14);

    k_reset_device(t);
    t->bus->speed_calls = 0;
    k_send_control_mode(t, DS2490_MOD_1WIRE_SPEED, 2);
    g_assert_cmpint(t->bus->speed, ==, 2);
    g_assert_cmpint(t->bus->speed_calls, ==, 1);
    k_send_control_mode(t, DS2490_MOD_1WIRE_SPEED, 3);
    k_send_control_mode(t, DS2490_MOD_1WIRE_SPEED, 0x0f);
    k_send_control_mode(t, DS2490_MOD_1WIRE_SPEED, 0xff);
    g_assert_cmpint(t->bus->speed_calls, ==, 1);
    k_recv_status(t);
    g_assert_cmpint(t->st[1], ==, 2);
    /* wIndex is masked to the 8-bit parameter */
    k_send_control_mode(t, DS2490_MOD_1WIRE_SPEED, 0x0101);
    g_assert_cmpint(t->bus->speed, ==, 1);

    /* 1_WIRE_RESET with SE changes speed only when SPCE is enabled */
    k_send_control(t, 0x004B, DS2490_SPEED_OVERDRIVE);
    g_assert_cmpint(t->bus->speed, ==, 1);
    k_send_control_mode(t, DS2490_MOD_SPEED_CHANGE_EN, 1);
    k_send_control(t, 0x004B, DS2490_SPEED_OVERDRIVE);
    g_assert_cmpint(t->bus->speed, ==, 2);
    k_send_control(t, 0x004B, 7);
    g_assert_cmpint(t->bus->speed, ==, 2);
    g_assert_cmpint(t->bus->resets, ==, 3);
    k_recv_status(t);
    g_assert_cmpint(t->st[1], ==, 2);
    t_free(t);
}

static void test_reset_device(void)
{
    T *t = t_new(0, 15);
    uint8_t buf[8] = { 0 };

    k_reset_device(t);
    k_send_control_mode(t, DS2490_MOD_1WIRE_SPEED, 2);
    k_send_control_mode(t, DS2490_MOD_SPEED_CHANGE_EN, 1);
    k_send_control_mode(t, DS2490_MOD_PROG_PULSE_DUR, 9);
    k_send_control_mode(t, DS2490_MOD_PULLDOWN_SLEW, 1);
    k_send_control(t, 0x0013, 0);
    k_send_control(t, 0x0053, 0xff);            /* EP3: 1 */
    k_reset(t);                                 /* result: NRS */
    k_send_control(t, 0x1053, 0x00);            /* infinite SPU, busy */
    k_send_control(t, 0x0052, 1);               /* queued behind it */
    k_send_data(t, buf, 8);
    t->st_len = ds2490_status(&t->c, t->st, 16);    /* keep the NRS */
    g_assert_true(t->st[8] & DS2490_ST_SPUA);
    g_assert_cmpint(t->st[11], ==, 3);
    g_assert_cmpint(t->st[12], ==, 8);
    g_assert_cmpint(t->st[13], ==, 2);
    g_assert_cmpint(t->bus->spu_on, ==, 1);
    g_assert_cmpint(t->c.results_count, ==, 1);
    k_send_control_cmd(t, DS2490_CTL_RESET_DEVICE, 0);
    g_assert_cmpint(t->bus->spu_off, ==, 1);
    g_assert_cmpint(t->bus->speed, ==, 0);
    assert_power_on_status(t, 0);
    g_assert_cmpint(k_recv_data(t, buf, 8), ==, -1);
    g_assert_false(t->c.active);
    t_free(t);
}

/* IM=0 macros, GET_COMM_CMDS, FLUSH_*, HALT/RESUME, F flag */
static void test_macro(void)
{
    T *t = t_new(0, 16);
    uint8_t buf[64];
    static const uint8_t want1[] = { 0x52, 0x00, 0xa5 };
    static const uint8_t want2[] = { 0x74, 0x00, 0x34, 0x12, 0x28, 0x00 };

    k_reset_device(t);
    k_send_control(t, 0x0052, 0x12a5);          /* parameter is a byte */
    k_send_control(t, 0x0074, 0x1234);
    k_send_control(t, 0x0028, 0xffff);
    k_recv_status(t);
    g_assert_cmpint(t->st[11], ==, 9);
    /* whole commands only */
    g_assert_cmpint(ds2490_vendor_in(&t->c, 0, DS2490_CTL_GET_COMM_CMDS, 0,
                                     buf, 5), ==, 3);
    g_assert_cmpmem(buf, 3, want1, 3);
    g_assert_cmpint(ds2490_vendor_in(&t->c, 0, DS2490_CTL_GET_COMM_CMDS, 0,
                                     buf, 64), ==, 6);
    g_assert_cmpmem(buf, 6, want2, 6);
    g_assert_cmpint(ds2490_vendor_in(&t->c, 0, DS2490_CTL_GET_COMM_CMDS, 0,
                                     buf, 64), ==, 0);
    g_assert_cmpint(t->bus->slots, ==, 0);

    /* halted: IM=1 commands wait; RESUME runs them */
    k_send_control_cmd(t, DS2490_CTL_HALT_EXE_IDLE, 0);
    k_send_control(t, 0x0053, 0x0f);
    g_assert_cmpint(t->bus->slots, ==, 0);
    k_recv_status(t);
    g_assert_cmpint(t->st[11], ==, 3);
    k_send_control_cmd(t, DS2490_CTL_RESUME_EXE, 0);
    g_assert_cmpint(t->bus->slots, ==, 8);
    g_assert_cmpint(k_recv_data(t, buf, 64), ==, 1);
    g_assert_cmphex(buf[0], ==, 0x0f);

    /* flushes */
    k_send_data(t, buf, 10);
    k_send_control(t, 0x0053, 0x01);
    k_send_control(t, 0x0052, 0x02);
    k_send_control_cmd(t, DS2490_CTL_FLUSH_XMT_BUFFER, 0);
    k_send_control_cmd(t, DS2490_CTL_FLUSH_RCV_BUFFER, 0);
    k_send_control_cmd(t, DS2490_CTL_FLUSH_COMM_CMDS, 0);
    k_recv_status(t);
    g_assert_cmpint(t->st[11] + t->st[12] + t->st[13], ==, 0);

    /* F: an error flushes EP2, EP3 and queued commands */
    k_send_control(t, 0x0053, 0x01);            /* EP3: 1 */
    k_send_data(t, buf, 3);
    k_send_control(t, 0x0042, 0);               /* IM=0: queued */
    k_send_control(t, 0x0052, 0x02);
    k_send_control(t, 0x0843, 0);               /* F|IM: runs all */
    k_recv_status(t);
    g_assert_cmpint(t->st[11] + t->st[12] + t->st[13], ==, 0);
    g_assert_cmpint(t->st_len, ==, 18);         /* both resets: NRS */

    /* a BLOCK_IO waiting for data keeps the device busy */
    k_send_control(t, 0x0075, 2);
    k_recv_status(t);
    g_assert_false(t->st[8] & DS2490_ST_IDLE);
    k_send_data(t, buf, 1);
    k_recv_status(t);
    g_assert_false(t->st[8] & DS2490_ST_IDLE);
    /* HALT waits for the running command; later ones stay queued */
    k_send_control_cmd(t, DS2490_CTL_HALT_EXE_DONE, 0);
    k_send_control(t, 0x0053, 0x07);
    k_recv_status(t);
    g_assert_false(t->st[8] & (DS2490_ST_IDLE | DS2490_ST_HALT));
    k_send_data(t, buf, 1);
    g_assert_false(t->c.active);                /* inside the EP2 write */
    k_recv_status(t);
    g_assert_cmphex(t->st[8], ==, DS2490_ST_IDLE | DS2490_ST_HALT);
    g_assert_cmpint(t->st[11], ==, 3);
    g_assert_cmpint(t->st[13], ==, 2);
    k_send_control_cmd(t, DS2490_CTL_RESUME_EXE, 0);
    k_recv_status(t);
    g_assert_cmphex(t->st[8], ==, DS2490_ST_IDLE);
    g_assert_cmpint(t->st[13], ==, 3);
    t_free(t);
}

static void test_other_comm(void)
{
    T *t = t_new(2, 17);
    uint64_t rom = t->bus->slave[0].rom;
    uint8_t buf[300];
    uint8_t wire[16];
    int i;

    k_reset_device(t);
    /* MATCH_ACCESS with RST: reset, 0x55, 8 ROM bytes from EP2 */
    for (i = 0; i < 8; i++) {
        buf[i] = rom >> (8 * i);
    }
    t_clear_log(t);
    k_send_data(t, buf, 8);
    k_send_control(t, 0x0165, 0x0055);
    g_assert_cmpint(t->bus->slave[0].state, ==, FS_SELECTED);
    g_assert_cmpint(t->bus->slave[1].state, ==, FS_IDLE);
    g_assert_cmpint(wlog_bytes(t->bus, 0, wire, 16), ==, 9);
    g_assert_cmphex(wire[0], ==, 0x55);
    g_assert_cmpint(t->c.ep3_count, ==, 0);

    /* READ_STRAIGHT: RST, preamble SKIP ROM + 0xBE, then 200 reads */
    t->bus->slave[1].present = false;
    buf[0] = 0xCC;
    buf[1] = 0xBE;
    k_send_data(t, buf, 2);
    k_send_control(t, 0x0283, 200);             /* preamble 2, RST, IM */
    g_assert_cmpint(t->c.ep3_count, ==, 128);
    g_assert_cmpint(k_recv_data(t, buf, 128), ==, 128);
    g_assert_cmpint(t->c.ep3_count, ==, 72);    /* resumed by the read */
    g_assert_cmpint(k_recv_data(t, buf + 128, 128), ==, 72);
    for (i = 0; i < 200; i++) {
        g_assert_cmphex(buf[i], ==, pattern(i));
    }
    k_recv_status(t);
    g_assert_true(t->st[8] & DS2490_ST_IDLE);
    g_assert_cmpint(t->st_len, ==, 16);
    /* READ_STRAIGHT's own NTF bit */
    k_send_control(t, 0x0089, 0);
    g_assert_cmpint(k_recv_status(t), ==, 17);
    g_assert_cmphex(t->st[16], ==, 0);

    /* PULSE: strong pullup for the programmed time */
    k_send_control(t, 0x0031, 0);
    g_assert_cmpint(t->bus->spu_on, ==, 1);
    g_assert_cmpint(t->bus->spu_off, ==, 1);
    /* programming pulse: no 12 V in the model -> VPP */
    k_send_control_mode(t, DS2490_MOD_PULSE_EN, 3);
    k_send_control(t, 0x0039, 0);
    g_assert_cmpint(k_recv_status(t), ==, 17);
    g_assert_cmphex(t->st[16], ==, DS2490_RR_VPP);

    /* SET_DURATION TYPE=1 sets the programming pulse */
    k_send_control(t, 0x001B, 0x21);
    k_recv_status(t);
    g_assert_cmphex(t->st[3], ==, 0x21);

    /* BIT_IO with SPU and CIB: no pullup when the bit reads 1 */
    t->bus->slave[0].present = false;
    k_send_control(t, 0x0013, 1);
    k_send_control(t, 0x5029, 0);
    g_assert_cmpint(t->bus->spu_on, ==, 1);
    k_send_control(t, 0x5021, 0);
    g_assert_cmpint(t->bus->spu_on, ==, 2);
    t_free(t);
}

/* PST: resets repeat until presence; HALT stops them */
static void test_pst(void)
{
    T *t = t_new(1, 18);
    long r;

    k_reset_device(t);
    t->bus->slave[0].present = false;
    k_send_control(t, 0x4043, 0);
    r = t->bus->resets;
    g_assert_cmpint(r, ==, 1);
    ds2490_status(&t->c, t->st, 32);
    g_assert_false(t->st[8] & DS2490_ST_IDLE);
    g_assert_cmpint(t->bus->resets, ==, 2);     /* one try per call */
    t->bus->slave[0].present = true;
    ds2490_queue_detect(&t->c);
    k_recv_status(t);
    g_assert_true(t->st[8] & DS2490_ST_IDLE);
    g_assert_cmpint(t->st_len, ==, 17);
    g_assert_cmphex(t->st[16], ==, DS2490_RR_DETECT);

    t->bus->slave[0].present = false;
    k_send_control(t, 0x4043, 0);
    k_send_control_cmd(t, DS2490_CTL_HALT_EXE_IDLE, 0);
    k_recv_status(t);
    g_assert_true(t->st[8] & DS2490_ST_IDLE);
    g_assert_true(t->st[8] & DS2490_ST_HALT);
    g_assert_cmphex(t->st[16], ==, DS2490_RR_NRS);
    t_free(t);
}

/* a bus model answering sloppy levels: the engine normalises them */
static int sloppy_touch_bit(void *opaque, int bit)
{
    (void)opaque;
    (void)bit;
    return 2;
}

static void test_sloppy_bus(void)
{
    static const DS2490BusOps ops = { .touch_bit = sloppy_touch_bit };
    DS2490Core c;
    uint8_t b[4];

    ds2490_init(&c, &ops, NULL, NULL, NULL);
    ds2490_vendor_out(&c, DS2490_REQ_COMM, 0x0021, 0);
    ds2490_vendor_out(&c, DS2490_REQ_COMM, 0x0029, 0);
    ds2490_vendor_out(&c, DS2490_REQ_COMM, 0x0053, 0x5a);
    /* no reset op: no presence */
    ds2490_vendor_out(&c, DS2490_REQ_COMM, 0x0043, 0);
    g_assert_cmpint(ds2490_ep3_read(&c, b, 4), ==, 3);
    g_assert_cmphex(b[0], ==, 0);
    g_assert_cmphex(b[1], ==, 1);
    g_assert_cmphex(b[2], ==, 0x5a);
    g_assert_cmpint(c.results_count, ==, 1);
    g_assert_cmpint(ds2490_run(&c), ==, -1);
}

static void test_ep3_wakeup(void)
{
    T *t = t_new(0, 19);
    uint8_t b;

    k_reset_device(t);
    g_assert_false(ds2490_ep3_became_ready(&t->c));
    g_assert_cmpint(k_recv_data(t, &b, 1), ==, -1);
    g_assert_false(ds2490_ep3_became_ready(&t->c));
    k_send_control(t, 0x0053, 0x42);
    g_assert_true(ds2490_ep3_became_ready(&t->c));
    g_assert_false(ds2490_ep3_became_ready(&t->c));
    g_assert_cmpint(k_recv_data(t, &b, 1), ==, 1);
    k_send_control(t, 0x0053, 0x43);
    g_assert_false(ds2490_ep3_became_ready(&t->c));   /* no NAK before */
    t_free(t);
}

static void test_realtime(void)
{
    T *t = t_new(1, 20);
    int64_t t0, d;
    uint8_t buf[128];
    int i;

    t->c.timing = DS2490_TIMING_REALTIME;
    t->now = 5000000;
    k_reset_device(t);
    g_assert_cmpint(ds2490_run(&t->c), ==, -1);

    /* reset: 1096 us, busy until then */
    t0 = t->now;
    k_reset(t);
    g_assert_cmpint(t->bus->resets, ==, 0);
    d = ds2490_run(&t->c);
    g_assert_cmpint(d, ==, t0 + 1096000);
    t->now = d - 1;
    g_assert_cmpint(ds2490_status(&t->c, t->st, 32), ==, 16);
    g_assert_false(t->st[8] & DS2490_ST_IDLE);
    g_assert_cmphex(t->st[9], ==, 0x43);
    t->now = d;
    ds2490_status(&t->c, t->st, 32);
    g_assert_true(t->st[8] & DS2490_ST_IDLE);
    g_assert_cmpint(t->bus->resets, ==, 1);

    /* the reset is not waited for; the next command queues behind it */
    t0 = t->now;
    k_reset(t);
    k_send_control(t, 0x0053, 0x33);
    g_assert_cmpint(t->c.cmdq_len, ==, 1);
    g_assert_cmpint(ds2490_run(&t->c), ==, t0 + 1096000);
    t->now = t0 + 1096000;
    g_assert_cmpint(ds2490_run(&t->c), ==, t0 + 1096000 + 8 * 68000);
    g_assert_cmpint(k_recv_data(t, buf, 1), ==, -1);  /* not yet */
    t->now = t0 + 1096000 + 8 * 68000;
    g_assert_cmpint(ds2490_run(&t->c), ==, -1);     /* the glue's timer */
    g_assert_true(ds2490_ep3_became_ready(&t->c));
    g_assert_cmpint(k_recv_data(t, buf, 1), ==, 1);

    /* a late timer still runs queued commands back to back */
    t0 = t->now;
    k_reset(t);
    k_send_control(t, 0x0053, 0x34);
    t->now = t0 + 1096000 + 8 * 68000;
    g_assert_cmpint(ds2490_run(&t->c), ==, -1);
    g_assert_cmpint(k_recv_data(t, buf, 1), ==, 1);
    g_assert_cmphex(buf[0], ==, 0x34);

    /* overdrive slots are shorter */
    k_send_control_mode(t, DS2490_MOD_1WIRE_SPEED, 2);
    t0 = t->now;
    k_send_control(t, 0x0021, 0);
    g_assert_cmpint(ds2490_run(&t->c), ==, t0 + 10000);
    t->now += 10000;
    g_assert_cmpint(k_recv_data(t, buf, 1), ==, 1);
    t0 = t->now;
    k_send_control(t, 0x0043, 0);
    g_assert_cmpint(ds2490_run(&t->c), ==, t0 + 136000);
    t->now += 136000;
    /* flexible: tLOW0 62 us + tREC0 (3 + DSO/W0 code 4) us */
    k_send_control_mode(t, DS2490_MOD_1WIRE_SPEED, 1);
    t0 = t->now;
    k_send_control(t, 0x0021, 0);
    g_assert_cmpint(ds2490_run(&t->c), ==, t0 + 69000);
    t->now += 69000;
    g_assert_cmpint(k_recv_data(t, buf, 1), ==, 1);
    k_send_control_mode(t, DS2490_MOD_1WIRE_SPEED, 0);

    /* data arriving late: the block's clock restarts then */
    t0 = t->now;
    k_send_control(t, 0x0075, 1);
    t->now += 10000000;
    g_assert_cmpint(ds2490_run(&t->c), ==, -1);
    k_send_data(t, buf, 1);
    g_assert_cmpint(ds2490_run(&t->c), ==, t->now + 8 * 68000);
    t->now += 8 * 68000;
    g_assert_cmpint(k_recv_data(t, buf, 1), ==, 1);

    /* SPU code 0xFF is "< 1 us": done with the byte */
    k_send_control(t, 0x0013, 0xff);
    t0 = t->now;
    k_send_control(t, 0x1053, 0xff);
    g_assert_cmpint(ds2490_run(&t->c), ==, t0 + 8 * 68000);
    t->now += 8 * 68000;
    g_assert_cmpint(ds2490_run(&t->c), ==, -1);
    g_assert_cmpint(t->bus->spu_off, ==, 1);
    g_assert_cmpint(k_recv_data(t, buf, 1), ==, 1);

    /* SPU counts from the command start: the driver's msleep covers it */
    k_set_pullup(t, 32);                        /* 48 ms */
    t0 = t->now;
    k_send_control(t, 0x1053, 0xCC);
    t->now = t0 + 8 * 68000;
    ds2490_status(&t->c, t->st, 32);
    g_assert_true(t->st[8] & DS2490_ST_SPUA);
    g_assert_cmpint(ds2490_run(&t->c), ==, t0 + 48000000);
    t->now = t0 + 48000000;
    ds2490_status(&t->c, t->st, 32);
    g_assert_true(t->st[8] & DS2490_ST_IDLE);
    g_assert_cmpint(t->bus->spu_off, ==, 2);
    k_recv_data(t, buf, 1);
    g_assert_cmpint(k_write_byte(t, 0x44), ==, 0);   /* via the replica */
    g_assert_cmpint(t->bus->spu_on, ==, 3);
    /* queued behind a reset, the pullup counts from its real start */
    t0 = t->now;
    k_reset(t);
    k_send_control(t, 0x1053, 0xCC);
    t->now = t0 + 1096000 + 8 * 68000 + 1000000;
    g_assert_cmpint(ds2490_run(&t->c), ==, t0 + 1096000 + 48000000);
    t->now = t0 + 1096000 + 48000000;
    g_assert_cmpint(ds2490_run(&t->c), ==, -1);
    g_assert_cmpint(k_recv_data(t, buf, 1), ==, 1);
    k_set_pullup(t, 0);

    /* a 128-byte block fits the driver's 100 polls of 1 ms */
    k_reset(t);
    buf[0] = 0xCC;
    buf[1] = 0xBE;
    k_write_block(t, buf, 2);
    t->polls = 0;
    g_assert_cmpint(k_read_block(t, buf, 128), ==, 128);
    for (i = 0; i < 128; i++) {
        g_assert_cmphex(buf[i], ==, pattern(i));
    }
    g_assert_cmpint(t->polls, >=, 128 * 8 * 68 / 1000);
    g_assert_cmpint(t->polls, <, 100);
    t_free(t);
}

static void test_realtime_search(void)
{
    T *t = t_new(17, 21);
    uint64_t sorted[FAKE_SLAVES_MAX];
    KSearch *ks = g_new0(KSearch, 1);
    uint64_t sid = 0;
    int64_t t0;
    int i;

    t->c.timing = DS2490_TIMING_REALTIME;
    k_reset_device(t);
    ref_sorted(t->bus, false, sorted);
    t0 = t->now;
    k_search(t, &sid, 0xF0, 64, ks);
    g_assert_cmpint(ks->found, ==, 17);
    for (i = 0; i < 17; i++) {
        g_assert_cmphex(ks->ids[i], ==, sorted[i]);
    }
    /* 17 passes of reset + 200 slots, at 1 ms poll granularity */
    g_assert_cmpint(t->now - t0, >=, 17 * (1096000 + 200 * 68000LL));
    g_assert_cmpint(t->now - t0, <=, 17 * (1096000 + 200 * 68000LL) +
                    20 * 1000000LL);
    g_assert_cmpint(ks->reads, >, 2);           /* ids arrive over time */
    g_free(ks);
    t_free(t);
}

#ifdef DS2490_TEST_ONEWIRE
/* ---- against the real slave models of models/onewire ---- */

#include "onewire.h"
#include "ds2490-onewire.h"

#define OWW_THERMS 8
#define OWW_IDS 24

typedef struct OWWorld {
    OWBus bus;
    OWDS18B20 therm[OWW_THERMS];
    OWDS2401 id[OWW_IDS];
} OWWorld;

/* the engine on an OWBus with DS18B20s and DS2401s, same clock */
static T *t_new_ow(OWWorld **worldp, bool realtime, int nids)
{
    T *t = g_new0(T, 1);
    OWWorld *w = g_new0(OWWorld, 1);
    uint8_t rom[OW_ROM_LEN];
    int i;

    t->bus = g_new0(FakeBus, 1);
    ow_bus_init(&w->bus, t_clock, t);
    w->bus.instant = !realtime;
    for (i = 0; i < OWW_THERMS; i++) {
        ow_rom_from_u64(make_rom(OW_FAMILY_DS18B20, 0x1000 + i * 0x10101), rom);
        ow_ds18b20_init(&w->therm[i], rom);
        g_assert_cmpint(ow_bus_attach(&w->bus, &w->therm[i].parent), ==, 0);
    }
    for (i = 0; i < nids; i++) {
        ow_rom_from_u64(make_rom(OW_FAMILY_DS2401, 0xabc000 + i * 0x3777), rom);
        ow_ds2401_init(&w->id[i], rom);
        g_assert_cmpint(ow_bus_attach(&w->bus, &w->id[i].parent), ==, 0);
    }
    ds2490_init(&t->c, &ds2490_onewire_bus_ops, &w->bus, t_clock, t);
    t->c.timing = realtime ? DS2490_TIMING_REALTIME : DS2490_TIMING_INSTANT;
    t->poll_ns = 1000000;
    *worldp = w;
    return t;
}

/* w1_reset_select_slave(): reset, then MATCH ROM as one 9-byte block */
static void w1_select(T *t, const uint8_t rom[OW_ROM_LEN])
{
    uint8_t buf[9];

    g_assert_cmpint(k_reset(t), ==, 0);
    buf[0] = 0x55;
    memcpy(buf + 1, rom, 8);
    g_assert_cmpint(k_write_block(t, buf, 9), ==, 0);
}

/* w1_therm read_scratchpad(): select, 0xBE, read 9, CRC */
static void w1_read_scratchpad(T *t, const uint8_t rom[OW_ROM_LEN],
                               uint8_t sp[9])
{
    w1_select(t, rom);
    g_assert_cmpint(k_write_byte(t, 0xBE), ==, 0);
    g_assert_cmpint(k_read_block(t, sp, 9), ==, 9);
    g_assert_cmphex(ow_crc8(0, sp, 8), ==, sp[8]);
}

static void test_ow_search(gconstpointer data)
{
    bool realtime = GPOINTER_TO_INT(data);
    OWWorld *w;
    T *t = t_new_ow(&w, realtime, OWW_IDS);
    uint64_t roms[OWW_THERMS + OWW_IDS];
    KSearch *ks = g_new0(KSearch, 1);
    uint64_t sid = 0;
    int n = 0, i;

    for (i = 0; i < OWW_THERMS; i++) {
        roms[n++] = ow_rom_to_u64(w->therm[i].parent.rom);
    }
    for (i = 0; i < OWW_IDS; i++) {
        roms[n++] = ow_rom_to_u64(w->id[i].parent.rom);
    }
    qsort(roms, n, sizeof(uint64_t), cmp_search_order);
    k_reset_device(t);

    k_search(t, &sid, 0xF0, 64, ks);
    g_assert_cmpint(ks->found, ==, n);
    for (i = 0; i < n; i++) {
        uint8_t b[OW_ROM_LEN];

        ow_rom_from_u64(ks->ids[i], b);
        g_assert_true(ow_rom_crc_valid(b));
        g_assert_cmphex(ks->ids[i], ==, roms[i]);
    }
    /* max_slave_count 16 with 32 devices: the driver's overflow */
    k_search(t, &sid, 0xF0, 16, ks);
    g_assert_cmpint(ks->found, ==, realtime ? 16 : 17);
    if (!realtime) {
        g_assert_cmphex(ks->ids[16], ==, ref_disc(roms, n, roms[15]));
    }
    /* nobody alarming after power-on; DS2401s never take part */
    sid = 0;
    k_search(t, &sid, 0xEC, 64, ks);
    g_assert_cmpint(ks->found, ==, 0);
    g_free(ks);
    g_free(w);
    t_free(t);
}

static void test_ow_ds18b20(gconstpointer data)
{
    bool realtime = GPOINTER_TO_INT(data);
    OWWorld *w;
    T *t = t_new_ow(&w, realtime, 0);
    OWDS18B20 *d = &w->therm[3];
    const uint8_t *rom = d->parent.rom;
    KSearch *ks = g_new0(KSearch, 1);
    uint64_t sid = 0;
    uint8_t sp[9];
    uint8_t b;
    int polls;

    k_reset_device(t);
    /* power-on scratchpad: 85 C, TH 75, TL 70, 12 bit */
    w1_read_scratchpad(t, rom, sp);
    g_assert_cmphex(sp[0] | sp[1] << 8, ==, 0x0550);
    g_assert_cmphex(sp[4], ==, 0x7F);

    /* externally powered: convert_t() polls read slots until 0xFF */
    d->temperature_mc = 25062;
    w1_select(t, rom);
    g_assert_cmpint(k_write_byte(t, 0x44), ==, 0);
    polls = 0;
    do {
        g_assert_cmpint(++polls, <, 100);
        t_advance(t, 32000000);                 /* msleep(32) */
        g_assert_cmpint(k_read_byte(t, &b), ==, 0);
    } while (b != 0xff);
    /* realtime: 90 % of 750 ms at 32 ms + a few 1 ms status polls */
    if (realtime) {
        g_assert_cmpint(polls, >=, 675 / 36);
        g_assert_cmpint(polls, <=, 675 / 32 + 1);
    } else {
        g_assert_cmpint(polls, ==, 1);
    }
    w1_read_scratchpad(t, rom, sp);
    g_assert_cmphex(sp[0] | sp[1] << 8, ==, 0x0191);

    /* parasite + require-spu: only a strong pullup makes it convert */
    d->parasite = true;
    d->require_spu = true;
    d->temperature_mc = -10125;
    w1_select(t, rom);
    g_assert_cmpint(k_set_pullup(t, 750), ==, 0);     /* w1_pre_write */
    g_assert_cmpint(k_write_byte(t, 0x44), ==, 0);
    k_set_pullup(t, 0);                               /* w1_post_write */
    g_assert_false(w->bus.pullup);
    w1_read_scratchpad(t, rom, sp);
    g_assert_cmphex((uint16_t)(sp[0] | sp[1] << 8), ==, 0xFF5E);

    /* the same without the pullup: the conversion fails (85 C) */
    d->temperature_mc = 30000;
    w1_select(t, rom);
    g_assert_cmpint(k_write_byte(t, 0x44), ==, 0);
    t_advance(t, 752000000);
    w1_read_scratchpad(t, rom, sp);
    g_assert_cmphex(sp[0] | sp[1] << 8, ==, 0x0550);

    /* alarm search after a SKIP ROM conversion of every sensor */
    d->parasite = false;
    d->require_spu = false;
    for (polls = 0; polls < OWW_THERMS; polls++) {
        w->therm[polls].temperature_mc = 72000;   /* TL 70 < T < TH 75 */
    }
    w->therm[1].temperature_mc = 100000;
    w->therm[6].temperature_mc = 60000;
    k_reset(t);
    g_assert_cmpint(k_write_byte(t, 0xCC), ==, 0);
    g_assert_cmpint(k_write_byte(t, 0x44), ==, 0);
    t_advance(t, 752000000);
    k_search(t, &sid, 0xEC, 64, ks);
    g_assert_cmpint(ks->found, ==, 2);
    g_assert_true((ks->ids[0] == ow_rom_to_u64(w->therm[1].parent.rom) &&
                   ks->ids[1] == ow_rom_to_u64(w->therm[6].parent.rom)) ||
                  (ks->ids[1] == ow_rom_to_u64(w->therm[1].parent.rom) &&
                   ks->ids[0] == ow_rom_to_u64(w->therm[6].parent.rom)));
    g_free(ks);
    g_free(w);
    t_free(t);
}
#endif

/* ---- hostile random sequences ---- */

static uint16_t random_comm(GRand *r)
{
    static const uint16_t codes[] = {
        0x0601, 0x0012, 0x0020, 0x0030, 0x0042, 0x0052, 0x0064, 0x0074,
        0x0080, 0x6092, 0x00A2, 0x00B2, 0x00C4, 0x00D4, 0x21E4, 0x00F4,
    };
    uint16_t v = codes[g_rand_int_range(r, 0, G_N_ELEMENTS(codes))];

    if (g_rand_int_range(r, 0, 8) == 0) {
        return g_rand_int_range(r, 0, 0x10000);
    }
    v |= g_rand_int_range(r, 0, 0x10000) & 0x7f09;
    if (g_rand_int_range(r, 0, 4)) {
        v |= DS2490_COMM_IM;
    }
    return v;
}

static uint16_t random_index(GRand *r)
{
    switch (g_rand_int_range(r, 0, 4)) {
    case 0:
        return g_rand_int_range(r, 0, 0x10000);
    case 1:
        return g_rand_int_range(r, 0, 300);
    case 2:
        return 0xF0 | (g_rand_int_range(r, 0, 256) << 8);
    default:
        return g_rand_int_range(r, 0, 4);
    }
}

static void check_invariants(DS2490Core *c)
{
    g_assert_true(ds2490_state_valid(c));
    g_assert_cmpint(c->ep2_count, <=, DS2490_EP2_SIZE);
    g_assert_cmpint(c->ep3_count, <=, DS2490_EP3_SIZE);
    g_assert_cmpint(c->results_count, <=, DS2490_RESULT_SIZE);
    g_assert_cmpint(c->cmdq_bytes, <=, DS2490_CMD_FIFO_SIZE);
    g_assert_cmpint(c->cmdq_len, <=, DS2490_CMD_FIFO_SLOTS);
}

static void test_hostile(void)
{
    const char *env = g_getenv("DS2490_HOSTILE_SEED");
    T *t = t_new(12, 22);
    /* fixed seed for CI; DS2490_HOSTILE_SEED explores others */
    GRand *r = g_rand_new_with_seed(env ? g_ascii_strtoull(env, NULL, 0) :
                                    0xd52490);
    uint8_t buf[300];
    int op, ret, max, i;
    long slots, resets;

    for (i = 0; i < 300; i++) {
        buf[i] = i * 13;
    }
    for (op = 0; op < 100000; op++) {
        int kind = g_rand_int_range(r, 0, 100);

        slots = t->bus->slots;
        resets = t->bus->resets;
        if (kind < 30) {
            uint8_t req = g_rand_int_range(r, 0, 8) ? 1 :
                          g_rand_int_range(r, 0, 256);

            ret = ds2490_vendor_out(&t->c, req,
                                    req == 1 ? random_comm(r) :
                                    g_rand_int_range(r, 0, 12),
                                    random_index(r));
            g_assert_true(ret == 0 || ret == -1);
        } else if (kind < 37) {
            ret = ds2490_vendor_out(&t->c, g_rand_int_range(r, 0, 3),
                                    g_rand_int_range(r, 0, 12),
                                    random_index(r));
            g_assert_true(ret == 0 || ret == -1);
        } else if (kind < 40) {
            max = g_rand_int_range(r, -2, 40);
            ret = ds2490_vendor_in(&t->c, g_rand_int_range(r, 0, 2),
                                   g_rand_int_range(r, 8, 12), 0, buf,
                                   max);
            g_assert_cmpint(ret, <=, MAX(max, 0));
        } else if (kind < 55) {
            max = g_rand_int_range(r, -2, 40);
            ret = ds2490_status(&t->c, t->st, MIN(max, 32));
            g_assert_cmpint(ret, >=, 0);
            g_assert_cmpint(ret, <=, DS2490_STATUS_MAX);
            g_assert_cmpint(ret, <=, MAX(max, 0));
            if (max >= 16) {
                g_assert_cmpint(ret, >=, 16);
            }
        } else if (kind < 70) {
            int len = g_rand_int_range(r, -1, 200);

            ret = ds2490_ep2_write(&t->c, buf, len);
            g_assert_true(ret == -1 || (ret >= 0 && ret <= MAX(len, 0)));
        } else if (kind < 85) {
            max = g_rand_int_range(r, -1, 200);
            ret = ds2490_ep3_read(&t->c, buf, MIN(max, 200));
            g_assert_true(ret == -1 || (ret >= 0 && ret <= MAX(max, 0)));
        } else if (kind < 90) {
            int64_t d = ds2490_run(&t->c);

            /* a deadline is always in the future: no busy loop */
            g_assert_true(d == -1 || d > t->now);
            if (d > t->now && g_rand_boolean(r)) {
                t->now = d;
            }
        } else if (kind < 93) {
            t->now += g_rand_int_range(r, 0, 5000000);
        } else if (kind < 95) {
            ds2490_ep3_became_ready(&t->c);
            ds2490_queue_detect(&t->c);
        } else if (kind < 97) {
            int s = g_rand_int_range(r, 0, t->bus->nslaves);

            t->bus->slave[s].present = !t->bus->slave[s].present;
            t->bus->slave[s].alarm = g_rand_boolean(r);
            t->bus->shorted = g_rand_int_range(r, 0, 10) == 0;
            if (g_rand_int_range(r, 0, 4) == 0 && !t->bus->noise) {
                t->bus->noise = g_rand_new_with_seed(op);
            } else if (t->bus->noise && g_rand_boolean(r)) {
                g_rand_free(t->bus->noise);
                t->bus->noise = NULL;
            }
        } else if (kind < 99) {
            t->c.timing = g_rand_boolean(r) ? DS2490_TIMING_REALTIME :
                          DS2490_TIMING_INSTANT;
            t->c.strict_fifo = g_rand_boolean(r);
            t->c.search_rts_data = g_rand_boolean(r);
            t->c.search_eos = g_rand_boolean(r);
        } else {
            ds2490_power_on(&t->c);
        }
        check_invariants(&t->c);
        /* every call is bounded: at most a few search batches of work */
        g_assert_cmpint(t->bus->slots - slots, <=, 40000);
        g_assert_cmpint(t->bus->resets - resets, <=, 300);
        if (t->bus->wlog_len > WLOG_MAX / 2) {
            t->bus->wlog_len = 0;
        }
    }
    g_rand_free(r);
    t_free(t);
}

static const SearchCase search_cases[] = {
    { 0, 64, true }, { 0, 2, true }, { 0, 16, true },
    { 3, 64, true }, { 3, 16, true }, { 3, 2, true },
    { 16, 64, true }, { 16, 16, true }, { 16, 2, true },
    { 17, 64, true }, { 17, 16, true }, { 17, 2, true },
    { 70, 64, true }, { 70, 16, true }, { 70, 2, true },
    { 70, 300, true },
    { 70, 64, false }, { 17, 16, false }, { 3, 2, false },
};

int main(int argc, char **argv)
{
    unsigned i;

    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/ds2490/probe", test_probe);
    g_test_add_func("/ds2490/reset", test_reset);
    g_test_add_func("/ds2490/bit-io", test_bit_io);
    g_test_add_func("/ds2490/byte-io", test_byte_io);
    g_test_add_func("/ds2490/block-io", test_block_io);
    g_test_add_func("/ds2490/block-incremental", test_block_incremental);
    for (i = 0; i < G_N_ELEMENTS(search_cases); i++) {
        const SearchCase *sc = &search_cases[i];
        char *name = g_strdup_printf("/ds2490/search/%d-slaves-limit-%d%s",
                                     sc->nslaves, sc->max_slave_count,
                                     sc->rts_data ? "" : "-no-rts-data");

        g_test_add_data_func(name, sc, test_search);
        g_free(name);
    }
    g_test_add_func("/ds2490/search/continue", test_search_continue);
    g_test_add_func("/ds2490/search/alarm", test_search_alarm);
    g_test_add_func("/ds2490/search/variants", test_search_variants);
    g_test_add_func("/ds2490/status-layout", test_status_layout);
    g_test_add_func("/ds2490/result-fifo", test_result_fifo);
    g_test_add_func("/ds2490/ep2-overflow", test_ep2_overflow);
    g_test_add_func("/ds2490/stall", test_stall);
    g_test_add_func("/ds2490/speed", test_speed);
    g_test_add_func("/ds2490/reset-device", test_reset_device);
    g_test_add_func("/ds2490/macro", test_macro);
    g_test_add_func("/ds2490/other-comm", test_other_comm);
    g_test_add_func("/ds2490/pst", test_pst);
    g_test_add_func("/ds2490/ep3-wakeup", test_ep3_wakeup);
    g_test_add_func("/ds2490/sloppy-bus", test_sloppy_bus);
    g_test_add_func("/ds2490/realtime", test_realtime);
    g_test_add_func("/ds2490/realtime-search", test_realtime_search);
    g_test_add_func("/ds2490/hostile", test_hostile);
    g_test_add_func("/ds2490/guest-errors", test_guest_errors);
    g_test_add_func("/ds2490/cmdname", test_cmdname);
#ifdef DS2490_TEST_ONEWIRE
    g_test_add_data_func("/ds2490/onewire/search/instant",
                         GINT_TO_POINTER(0), test_ow_search);
    g_test_add_data_func("/ds2490/onewire/search/realtime",
                         GINT_TO_POINTER(1), test_ow_search);
    g_test_add_data_func("/ds2490/onewire/ds18b20/instant",
                         GINT_TO_POINTER(0), test_ow_ds18b20);
    g_test_add_data_func("/ds2490/onewire/ds18b20/realtime",
                         GINT_TO_POINTER(1), test_ow_ds18b20);
#endif
    return g_test_run();
}
