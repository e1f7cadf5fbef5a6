/*
 * Maxim DS2490 USB to 1-Wire bridge (as in the DS9490R adapter)
 *
 * Thin QEMU glue: USB descriptors and endpoints, the virtual-clock timer and
 * the child 1-Wire bus (hw/onewire). The protocol engine (ds2490-core.c)
 * and the bus and slave cores (onewire.h) are plain C, unit-tested in
 * patchbay's models/ds2490 and models/onewire. See patchbay's
 * docs/devices/ds2490.md.
 *
 * Copyright (c) 2026 patchbay authors
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qemu/error-report.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qemu/timer.h"
#include "hw/qdev-properties.h"
#include "hw/usb.h"
#include "hw/onewire/onewire-bus.h"
#include "migration/vmstate.h"
#include "desc.h"
#include "ds2490-core.h"
#include "ds2490-faults.h"
#include "ds2490-onewire.h"
#include "trace.h"

#define TYPE_USB_DS2490 "usb-ds2490"
OBJECT_DECLARE_SIMPLE_TYPE(USBDS2490State, USB_DS2490)

/*
 * Bulk OUT packets are at most 64 bytes at full speed; a guest that sends
 * more in one transfer gets a STALL instead of an unbounded bounce buffer.
 */
#define DS2490_MAX_OUT_TRANSFER 65536

/*
 * A host controller retries a NAKed bulk transfer by itself, within a
 * frame (1 ms at full speed); QEMU's xHCI retries only when the device
 * wakes the endpoint, so a NAK a fault plan made is followed by a wakeup.
 */
#define DS2490_FAULT_RETRY_NS   (1 * SCALE_MS)

struct USBDS2490State {
    USBDevice parent_obj;

    OneWireBus owbus;
    DS2490Core core;
    QEMUTimer *timer;
    USBEndpoint *ep_in;
    USBEndpoint *ep_out;
    uint8_t bounce[DS2490_MAX_OUT_TRANSFER];

    /*
     * The fault plan (properties faults and fault-script), beside the
     * engine so that plans set before realize survive ds2490_init().
     */
    DS2490Faults faults;
    QEMUTimer *fault_retry_timer;
    /* an unplug fault detaches the device once the transfer is done */
    QEMUTimer *unplug_timer;

    /* properties */
    char *timing;
    bool strict_fifo;
    bool search_rts_data;
    bool search_eos;
    bool detect_byte;
    bool pmod;
};

enum {
    STR_MANUFACTURER = 1,
    STR_PRODUCT,
};

/*
 * The chip supports only the device and configuration descriptors, but
 * usb_desc_string() dereferences .str for any index a guest asks for.
 */
static const USBDescStrings usb_ds2490_strings = {
    [STR_MANUFACTURER] = "Maxim Integrated (emulated by patchbay)",
    [STR_PRODUCT]      = "DS2490 USB to 1-Wire bridge",
};

/*
 * Four alternate settings that differ in EP1's polling interval and the
 * bulk packet size (AN117). Linux selects alternate 3 and assigns endpoint
 * roles by descriptor order: status, data out, data in.
 */
#define DS2490_ALT(alt, interval, bulk)                                   \
    {                                                                     \
        .bInterfaceNumber   = 0,                                          \
        .bAlternateSetting  = (alt),                                      \
        .bNumEndpoints      = 3,                                          \
        .bInterfaceClass    = 0xff,                                       \
        .eps = (USBDescEndpoint[]) {                                      \
            {                                                             \
                .bEndpointAddress = USB_DIR_IN | 0x01,                    \
                .bmAttributes     = USB_ENDPOINT_XFER_INT,                \
                .wMaxPacketSize   = DS2490_STATUS_MAX,                    \
                .bInterval        = (interval),                           \
            }, {                                                          \
                .bEndpointAddress = USB_DIR_OUT | 0x02,                   \
                .bmAttributes     = USB_ENDPOINT_XFER_BULK,               \
                .wMaxPacketSize   = (bulk),                               \
            }, {                                                          \
                .bEndpointAddress = USB_DIR_IN | 0x03,                    \
                .bmAttributes     = USB_ENDPOINT_XFER_BULK,               \
                .wMaxPacketSize   = (bulk),                               \
            },                                                            \
        },                                                                \
    }

static const USBDescIface usb_ds2490_ifaces[] = {
    DS2490_ALT(0, 10, 16),
    DS2490_ALT(1, 10, 64),
    DS2490_ALT(2, 1, 16),
    DS2490_ALT(3, 1, 64),
};

static const USBDescDevice usb_ds2490_device_desc = {
    .bcdUSB                 = 0x0110,
    .bDeviceClass           = 0xff,
    .bMaxPacketSize0        = 16,
    .bNumConfigurations     = 1,
    .confs = (USBDescConfig[]) {
        {
            .bNumInterfaces      = 1,
            .bConfigurationValue = 1,
            .bmAttributes        = USB_CFG_ATT_ONE | USB_CFG_ATT_WAKEUP,
            .bMaxPower           = 50,
            .nif = ARRAY_SIZE(usb_ds2490_ifaces),
            .ifs = usb_ds2490_ifaces,
        },
    },
};

static const USBDesc usb_ds2490_desc = {
    .id = {
        .idVendor  = 0x04fa,
        .idProduct = 0x2490,
        .bcdDevice = 0x0000,
    },
    .full = &usb_ds2490_device_desc,
    .str  = usb_ds2490_strings,
};

static int64_t usb_ds2490_clock_ns(void *opaque)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

/* Let the engine progress, then re-arm the timer and wake a NAKed EP3. */
static void usb_ds2490_kick(USBDS2490State *s)
{
    int64_t deadline = ds2490_run(&s->core);

    if (deadline >= 0) {
        timer_mod(s->timer, deadline);
    } else {
        timer_del(s->timer);
    }
    if (ds2490_ep3_became_ready(&s->core) && s->ep_in) {
        usb_wakeup(s->ep_in, 0);
    }
}

static void usb_ds2490_timer_cb(void *opaque)
{
    usb_ds2490_kick(opaque);
}

/* the host's retry after a NAK the fault plan made (EP2 or EP3) */
static void usb_ds2490_fault_retry_cb(void *opaque)
{
    USBDS2490State *s = opaque;

    if (s->ep_out) {
        usb_wakeup(s->ep_out, 0);
    }
    usb_ds2490_kick(s);         /* EP3: its NAK left ep3_nak_pending set */
}

/*
 * The cable pulled: the port sees the device go, the host controller
 * reports it to the guest; "attached" plugs it in again.
 */
static void usb_ds2490_unplug_cb(void *opaque)
{
    USBDS2490State *s = opaque;

    if (s->parent_obj.attached) {
        usb_device_detach(&s->parent_obj);
    }
}

/* a fault of the plan happened (the engine is in the middle of a call) */
static void usb_ds2490_fault(void *opaque, DS2490FaultKind kind,
                             DS2490FaultEvent event, uint32_t n)
{
    USBDS2490State *s = opaque;
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    trace_usb_ds2490_fault(ds2490_fault_name(kind),
                           ds2490_fault_event_name(event), n);
    if (kind == DS2490_FAULT_EP2_NAK || kind == DS2490_FAULT_EP3_NAK) {
        timer_mod(s->fault_retry_timer, now + DS2490_FAULT_RETRY_NS);
    }
    if (kind == DS2490_FAULT_UNPLUG) {
        /*
         * Not from inside the packet being handled: a virtual-clock timer
         * (deterministic under record/replay, unlike a bottom half).
         */
        timer_mod(s->unplug_timer, now);
    }
}

/* the engine's guest errors, with -d guest_errors */
static void G_GNUC_PRINTF(2, 0)
usb_ds2490_guest_error(void *opaque, const char *fmt, va_list ap)
{
    g_autofree char *msg = NULL;

    if (qemu_loglevel_mask(LOG_GUEST_ERROR)) {
        msg = g_strdup_vprintf(fmt, ap);
        qemu_log("usb-ds2490: %s\n", msg);
    }
}

/* the command of a vendor request, "standard" for the others */
static const char *usb_ds2490_cmdname(int request, int value)
{
    switch (request & ~0xff) {
    case VendorDeviceOutRequest:
    case VendorDeviceRequest:
        return ds2490_cmdname(request & 0xff, value);
    default:
        return "standard";
    }
}

static void usb_ds2490_handle_reset(USBDevice *dev)
{
    USBDS2490State *s = USB_DS2490(dev);

    trace_usb_ds2490_reset();
    timer_del(s->timer);
    timer_del(s->fault_retry_timer);
    ds2490_power_on(&s->core);
}

static void usb_ds2490_handle_control(USBDevice *dev, USBPacket *p,
                                      int request, int value, int index,
                                      int length, uint8_t *data)
{
    USBDS2490State *s = USB_DS2490(dev);
    int ret;

    /* a standard request the fault plan refuses: not executed */
    if (!(request & (USB_TYPE_MASK << 8)) &&
        ds2490_faults_std_stall(&s->faults)) {
        p->status = USB_RET_STALL;
        return;
    }
    ret = usb_desc_handle_control(dev, p, request, value, index, length, data);
    if (ret >= 0) {
        return;
    }
    trace_usb_ds2490_control(request,
                             usb_ds2490_cmdname(request, value),
                             value, index, length);

    switch (request) {
    case EndpointOutRequest | USB_REQ_CLEAR_FEATURE:
        /* ds_recv_data() clears EP3's halt after a failed read. */
        return;
    case VendorDeviceOutRequest | 0x00:
    case VendorDeviceOutRequest | 0x01:
    case VendorDeviceOutRequest | 0x02:
        if (length != 0) {
            qemu_log_mask(LOG_GUEST_ERROR, "usb-ds2490: vendor request 0x%x "
                          "with a data stage of %d bytes\n", request, length);
            break;
        }
        if (ds2490_vendor_out(&s->core, request & 0xff, value, index) < 0) {
            break;              /* usb_ds2490_guest_error() said why */
        }
        usb_ds2490_kick(s);
        return;
    case VendorDeviceRequest | 0x00:
        ret = ds2490_vendor_in(&s->core, 0x00, value, index, data,
                               MIN(length, (int)sizeof(dev->data_buf)));
        if (ret < 0) {
            break;
        }
        p->actual_length = ret;
        usb_ds2490_kick(s);
        return;
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "usb-ds2490: unknown control request "
                      "0x%04x value 0x%04x index 0x%04x\n",
                      request, value, index);
        break;
    }
    /* The chip STALLs every request it does not support. */
    p->status = USB_RET_STALL;
}

static void usb_ds2490_handle_data(USBDevice *dev, USBPacket *p)
{
    USBDS2490State *s = USB_DS2490(dev);
    uint8_t buf[DS2490_STATUS_MAX > 64 ? DS2490_STATUS_MAX : 64];
    size_t size = p->iov.size;
    int n;

    switch (p->pid == USB_TOKEN_IN ? p->ep->nr : -p->ep->nr) {
    case 1:     /* EP1 interrupt IN: status, never NAKs */
        usb_ds2490_kick(s);
        n = ds2490_status(&s->core, buf, MIN(size, sizeof(buf)));
        /* a fault plan can cut the packet before the status byte */
        trace_usb_ds2490_status(n, n > 8 ? buf[8] : 0, n > 16 ? n - 16 : 0);
        usb_packet_copy(p, buf, n);
        break;
    case -2:    /* EP2 bulk OUT: data for the 1-Wire bus */
        if (size > sizeof(s->bounce)) {
            qemu_log_mask(LOG_GUEST_ERROR, "usb-ds2490: EP2 transfer of %zu "
                          "bytes is larger than %d\n", size,
                          DS2490_MAX_OUT_TRANSFER);
            p->status = USB_RET_STALL;
            return;
        }
        usb_packet_copy(p, s->bounce, size);
        if (ds2490_ep2_write(&s->core, s->bounce, size) < 0) {
            trace_usb_ds2490_ep2(size, "nak");
            p->actual_length = 0;
            p->status = USB_RET_NAK;
            return;
        }
        trace_usb_ds2490_ep2(size, "ok");
        usb_ds2490_kick(s);
        break;
    case 3: {   /* EP3 bulk IN: data read from the bus */
        /*
         * One transfer may span several 64-byte packets (ds_recv_data()
         * reads up to 128 bytes at once); hand over all the FIFO holds, and
         * what a paused command produces once there is room again.
         */
        uint8_t in[DS2490_EP3_SIZE];
        size_t done = 0;
        bool cut = false;

        usb_ds2490_kick(s);
        while (done < size) {
            n = ds2490_ep3_read(&s->core, in, MIN(size - done, sizeof(in)));
            if (n < 0) {
                break;
            }
            usb_packet_copy(p, in, n);
            done += n;
            usb_ds2490_kick(s);   /* room in EP3 may let a command go on */
            /* a short (or zero-length) packet ends the transfer */
            cut = ds2490_faults_ep3_cut_short(&s->faults);
            if (cut || n == 0) {
                break;
            }
        }
        if (done == 0 && !cut) {
            p->status = USB_RET_NAK;
            return;
        }
        trace_usb_ds2490_ep3(done);
        break;
    }
    default:
        qemu_log_mask(LOG_GUEST_ERROR, "usb-ds2490: transfer to endpoint %d "
                      "(pid 0x%x)\n", p->ep->nr, p->pid);
        p->status = USB_RET_STALL;
        break;
    }
}

static void usb_ds2490_realize(USBDevice *dev, Error **errp)
{
    USBDS2490State *s = USB_DS2490(dev);

    bool realtime = s->timing && !strcmp(s->timing, "realtime");

    if (s->timing && !realtime && strcmp(s->timing, "instant")) {
        error_setg(errp, "usb-ds2490: timing must be 'instant' or "
                   "'realtime', not '%s'", s->timing);
        return;
    }
    usb_desc_init(dev);
    onewire_bus_init(&s->owbus, sizeof(s->owbus), DEVICE(dev),
                     usb_ds2490_clock_ns, s);
    onewire_bus_core(&s->owbus)->instant = !realtime;
    ds2490_init(&s->core, &ds2490_onewire_bus_ops, onewire_bus_core(&s->owbus),
                usb_ds2490_clock_ns, s);
    s->core.guest_error = usb_ds2490_guest_error;
    s->core.guest_error_opaque = s;
    /* the plan itself may have been set already (-device ...,faults=) */
    s->core.faults = &s->faults;
    s->faults.notify = usb_ds2490_fault;
    s->faults.notify_opaque = s;
    s->core.timing = realtime ? DS2490_TIMING_REALTIME
                              : DS2490_TIMING_INSTANT;
    s->core.strict_fifo = s->strict_fifo;
    s->core.search_rts_data = s->search_rts_data;
    s->core.search_eos = s->search_eos;
    s->core.detect_byte = s->detect_byte;
    s->core.pmod = s->pmod;
    s->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, usb_ds2490_timer_cb, s);
    s->fault_retry_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL,
                                        usb_ds2490_fault_retry_cb, s);
    s->unplug_timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, usb_ds2490_unplug_cb,
                                   s);
    s->ep_in = usb_ep_get(dev, USB_TOKEN_IN, 3);
    s->ep_out = usb_ep_get(dev, USB_TOKEN_OUT, 2);
    ds2490_power_on(&s->core);
}

static void usb_ds2490_unrealize(USBDevice *dev)
{
    USBDS2490State *s = USB_DS2490(dev);

    timer_free(s->timer);
    timer_free(s->fault_retry_timer);
    timer_free(s->unplug_timer);
}

/* "short": a run-time fault on the 1-Wire bus (qom-set). */
static void usb_ds2490_get_short(Object *obj, Visitor *v, const char *name,
                                 void *opaque, Error **errp)
{
    USBDS2490State *s = USB_DS2490(obj);
    bool value = onewire_bus_core(&s->owbus)->shorted;

    visit_type_bool(v, name, &value, errp);
}

static void usb_ds2490_set_short(Object *obj, Visitor *v, const char *name,
                                 void *opaque, Error **errp)
{
    USBDS2490State *s = USB_DS2490(obj);
    bool value;

    if (!visit_type_bool(v, name, &value, errp)) {
        return;
    }
    trace_usb_ds2490_short(value);
    onewire_bus_core(&s->owbus)->shorted = value;
}

/*
 * "faults" and "fault-script": the fault plan's two parts in their text
 * formats (ds2490-faults.h), settable before realize and at run time
 * (qom-set); a bad plan is refused with the parser's message and the old
 * one stays.  Reading gives the plan in its canonical form.
 */
static char *usb_ds2490_get_faults(Object *obj, Error **errp)
{
    USBDS2490State *s = USB_DS2490(obj);
    char *text = g_malloc(DS2490_FAULTS_TEXT_MAX);

    ds2490_faults_format_random(&s->faults, text, DS2490_FAULTS_TEXT_MAX);
    return text;
}

static void usb_ds2490_set_faults(Object *obj, const char *value,
                                  Error **errp)
{
    USBDS2490State *s = USB_DS2490(obj);
    char err[DS2490_FAULTS_ERROR_MAX];

    if (ds2490_faults_set_random(&s->faults, value, err, sizeof(err)) < 0) {
        error_setg(errp, "usb-ds2490: faults: %s", err);
        return;
    }
    trace_usb_ds2490_fault_plan("faults", value);
}

static char *usb_ds2490_get_fault_script(Object *obj, Error **errp)
{
    USBDS2490State *s = USB_DS2490(obj);
    char *text = g_malloc(DS2490_FAULTS_TEXT_MAX);

    ds2490_faults_format_script(&s->faults, text, DS2490_FAULTS_TEXT_MAX);
    return text;
}

static void usb_ds2490_set_fault_script(Object *obj, const char *value,
                                        Error **errp)
{
    USBDS2490State *s = USB_DS2490(obj);
    char err[DS2490_FAULTS_ERROR_MAX];

    if (ds2490_faults_set_script(&s->faults, value, err, sizeof(err)) < 0) {
        error_setg(errp, "usb-ds2490: fault-script: %s", err);
        return;
    }
    trace_usb_ds2490_fault_plan("fault-script", value);
}

/* "fault-events" (read-only): the events since the plan was last set */
static char *usb_ds2490_get_fault_events(Object *obj, Error **errp)
{
    USBDS2490State *s = USB_DS2490(obj);
    char *text = g_malloc(DS2490_FAULTS_TEXT_MAX);

    ds2490_faults_format_events(&s->faults, text, DS2490_FAULTS_TEXT_MAX);
    return text;
}

/* "fault-counts" (read-only): the faults injected since the plan was set */
static char *usb_ds2490_get_fault_counts(Object *obj, Error **errp)
{
    USBDS2490State *s = USB_DS2490(obj);
    char *text = g_malloc(DS2490_FAULTS_TEXT_MAX);

    ds2490_faults_format_counts(&s->faults, text, DS2490_FAULTS_TEXT_MAX);
    return text;
}

static int usb_ds2490_post_load(void *opaque, int version_id)
{
    USBDS2490State *s = USB_DS2490(opaque);

    /* ring positions and state values the engine indexes with */
    if (!ds2490_state_valid(&s->core)) {
        error_report("usb-ds2490: invalid engine state in the migration "
                     "stream");
        return -EINVAL;
    }
    return 0;
}

static bool usb_ds2490_faults_needed(void *opaque)
{
    USBDS2490State *s = USB_DS2490(opaque);

    return ds2490_faults_in_use(&s->faults) ||
           timer_pending(s->fault_retry_timer) ||
           timer_pending(s->unplug_timer);
}

static int usb_ds2490_faults_post_load(void *opaque, int version_id)
{
    USBDS2490State *s = USB_DS2490(opaque);

    if (!ds2490_faults_valid(&s->faults)) {
        error_report("usb-ds2490: invalid fault plan in the migration "
                     "stream");
        return -EINVAL;
    }
    return 0;
}

/*
 * The fault plan, only when one is set or a fault left state behind
 * (a stream without faults is the same as before plans existed).  The
 * plan goes with its run state, the generator, the event counts, the
 * pending script faults and a wedged command, so that the destination
 * (or a replay) goes on with the faults the source would have had; a
 * plan set with qom-set would otherwise be lost.  Not migrated: the
 * notify link, and ep3_cut, which lives within one EP3 transfer.
 * Version 2: the unplug kind (one more in each per-kind array) and its
 * timer; a version 1 stream is refused.
 */
static const VMStateDescription vmstate_usb_ds2490_faults = {
    .name = "usb-ds2490/faults",
    .version_id = 2,
    .minimum_version_id = 2,
    .needed = usb_ds2490_faults_needed,
    .post_load = usb_ds2490_faults_post_load,
    .fields = (const VMStateField[]) {
        /* the plan */
        VMSTATE_UINT64(faults.seed, USBDS2490State),
        VMSTATE_UINT16_ARRAY(faults.permille, USBDS2490State,
                             DS2490_FAULT_KINDS),
        VMSTATE_UINT8(faults.script_len, USBDS2490State),
        VMSTATE_UINT8_ARRAY(faults.script_event, USBDS2490State,
                            DS2490_FAULT_SCRIPT_MAX),
        VMSTATE_UINT8_ARRAY(faults.script_kind, USBDS2490State,
                            DS2490_FAULT_SCRIPT_MAX),
        VMSTATE_UINT32_ARRAY(faults.script_n, USBDS2490State,
                             DS2490_FAULT_SCRIPT_MAX),
        /* its run state */
        VMSTATE_UINT64(faults.prng, USBDS2490State),
        VMSTATE_UINT32_ARRAY(faults.events, USBDS2490State,
                             DS2490_FAULT_EVENTS),
        VMSTATE_UINT32_ARRAY(faults.injected, USBDS2490State,
                             DS2490_FAULT_KINDS),
        VMSTATE_BOOL_ARRAY(faults.pending, USBDS2490State,
                           DS2490_FAULT_KINDS),
        VMSTATE_BOOL(faults.wedged, USBDS2490State),
        VMSTATE_TIMER_PTR(fault_retry_timer, USBDS2490State),
        VMSTATE_TIMER_PTR(unplug_timer, USBDS2490State),
        VMSTATE_END_OF_LIST()
    },
};

/*
 * The engine's guest-visible state, the bus's run-time state (the slaves
 * migrate as devices of their own) and the timer. Not migrated: the links
 * set by ds2490_init() and the properties (timing, strict-fifo,
 * search-rts-data, search-eos, detect-byte, pmod), which come from the
 * destination's command line like the rest of the configuration.
 */
static const VMStateDescription vmstate_usb_ds2490 = {
    .name = "usb-ds2490",
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = usb_ds2490_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_USB_DEVICE(parent_obj, USBDS2490State),
        /* mode registers */
        VMSTATE_UINT8(core.pulse_en, USBDS2490State),
        VMSTATE_UINT8(core.speed_change_en, USBDS2490State),
        VMSTATE_UINT8(core.speed, USBDS2490State),
        VMSTATE_UINT8(core.spu_duration, USBDS2490State),
        VMSTATE_UINT8(core.pp_duration, USBDS2490State),
        VMSTATE_UINT8(core.slew, USBDS2490State),
        VMSTATE_UINT8(core.write1_low, USBDS2490State),
        VMSTATE_UINT8(core.dsow0_trec, USBDS2490State),
        /* device flags */
        VMSTATE_BOOL(core.ep0f, USBDS2490State),
        VMSTATE_BOOL(core.halted, USBDS2490State),
        VMSTATE_BOOL(core.halt_pending, USBDS2490State),
        VMSTATE_BOOL(core.exec_running, USBDS2490State),
        VMSTATE_BOOL(core.spua, USBDS2490State),
        VMSTATE_BOOL(core.ep3_nak_pending, USBDS2490State),
        /* command FIFO */
        VMSTATE_UINT16_ARRAY(core.cmdq_value, USBDS2490State,
                             DS2490_CMD_FIFO_SLOTS),
        VMSTATE_UINT16_ARRAY(core.cmdq_index, USBDS2490State,
                             DS2490_CMD_FIFO_SLOTS),
        VMSTATE_UINT8(core.cmdq_head, USBDS2490State),
        VMSTATE_UINT8(core.cmdq_len, USBDS2490State),
        VMSTATE_UINT8(core.cmdq_bytes, USBDS2490State),
        /* EP2, EP3 and the result register FIFO */
        VMSTATE_UINT8_ARRAY(core.ep2, USBDS2490State, DS2490_EP2_SIZE),
        VMSTATE_UINT8(core.ep2_head, USBDS2490State),
        VMSTATE_UINT8(core.ep2_count, USBDS2490State),
        VMSTATE_UINT8_ARRAY(core.ep3, USBDS2490State, DS2490_EP3_SIZE),
        VMSTATE_UINT8(core.ep3_head, USBDS2490State),
        VMSTATE_UINT8(core.ep3_count, USBDS2490State),
        VMSTATE_UINT8_ARRAY(core.results, USBDS2490State,
                            DS2490_RESULT_SIZE),
        VMSTATE_UINT8(core.results_head, USBDS2490State),
        VMSTATE_UINT8(core.results_count, USBDS2490State),
        /* current command */
        VMSTATE_BOOL(core.active, USBDS2490State),
        VMSTATE_UINT8(core.cmd_kind, USBDS2490State),
        VMSTATE_UINT8(core.cmd_phase, USBDS2490State),
        VMSTATE_UINT8(core.cmd_result, USBDS2490State),
        VMSTATE_UINT16(core.cmd_value, USBDS2490State),
        VMSTATE_UINT16(core.cmd_index, USBDS2490State),
        VMSTATE_UINT32(core.cmd_remaining, USBDS2490State),
        VMSTATE_UINT32(core.cmd_aux, USBDS2490State),
        /* SEARCH_ACCESS */
        VMSTATE_UINT64(core.search_path, USBDS2490State),
        VMSTATE_UINT64(core.search_disc, USBDS2490State),
        VMSTATE_UINT16(core.search_found, USBDS2490State),
        VMSTATE_UINT16(core.search_limit, USBDS2490State),
        VMSTATE_BOOL(core.search_first_pass, USBDS2490State),
        /* realtime timing, in QEMU_CLOCK_VIRTUAL ns */
        VMSTATE_BOOL(core.io_wait, USBDS2490State),
        VMSTATE_BOOL(core.spu_infinite, USBDS2490State),
        VMSTATE_INT64(core.t_cursor, USBDS2490State),
        VMSTATE_INT64(core.cmd_start_ns, USBDS2490State),
        VMSTATE_INT64(core.spu_end_ns, USBDS2490State),
        /* diagnostics */
        VMSTATE_UINT32(core.unimp_count, USBDS2490State),
        VMSTATE_UINT16(core.unimp_value, USBDS2490State),
        VMSTATE_UINT32(core.results_dropped, USBDS2490State),
        VMSTATE_UINT32(core.cmds_dropped, USBDS2490State),
        /* the 1-Wire bus: short, speed, strong pullup, statistics */
        VMSTATE_ONEWIRE_BUS_CORE(owbus.core, USBDS2490State),
        VMSTATE_TIMER_PTR(timer, USBDS2490State),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_usb_ds2490_faults,
        NULL
    },
};

static const Property usb_ds2490_properties[] = {
    DEFINE_PROP_STRING("timing", USBDS2490State, timing), /* "instant" */
    DEFINE_PROP_BOOL("strict-fifo", USBDS2490State, strict_fifo, true),
    DEFINE_PROP_BOOL("search-rts-data", USBDS2490State, search_rts_data, true),
    DEFINE_PROP_BOOL("search-eos", USBDS2490State, search_eos, false),
    DEFINE_PROP_BOOL("detect-byte", USBDS2490State, detect_byte, true),
    DEFINE_PROP_BOOL("pmod", USBDS2490State, pmod, false),
};

static void usb_ds2490_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    USBDeviceClass *uc = USB_DEVICE_CLASS(klass);

    uc->realize        = usb_ds2490_realize;
    uc->unrealize      = usb_ds2490_unrealize;
    uc->handle_reset   = usb_ds2490_handle_reset;
    uc->handle_control = usb_ds2490_handle_control;
    uc->handle_data    = usb_ds2490_handle_data;
    /* "attached": the cable, pulled and plugged in (qom-set) */
    uc->attached_settable = true;
    uc->product_desc   = "DS2490 USB to 1-Wire bridge";
    uc->usb_desc       = &usb_ds2490_desc;
    dc->desc = "Maxim DS2490 USB to 1-Wire bridge";
    dc->vmsd = &vmstate_usb_ds2490;
    device_class_set_props(dc, usb_ds2490_properties);
    object_class_property_add(klass, "short", "bool", usb_ds2490_get_short,
                              usb_ds2490_set_short, NULL, NULL);
    /* not qdev properties: those cannot be set after realize */
    object_class_property_add_str(klass, "faults", usb_ds2490_get_faults,
                                  usb_ds2490_set_faults);
    object_class_property_set_description(klass, "faults",
        "random faults: seed=N,KIND=PER-MILLE,... (docs/devices/ds2490.md)");
    object_class_property_add_str(klass, "fault-script",
                                  usb_ds2490_get_fault_script,
                                  usb_ds2490_set_fault_script);
    object_class_property_set_description(klass, "fault-script",
        "scripted faults: EVENT:N:KIND;... (docs/devices/ds2490.md)");
    object_class_property_add_str(klass, "fault-counts",
                                  usb_ds2490_get_fault_counts, NULL);
    object_class_property_set_description(klass, "fault-counts",
        "faults injected since the plan was set: KIND=COUNT,...");
    object_class_property_add_str(klass, "fault-events",
                                  usb_ds2490_get_fault_events, NULL);
    object_class_property_set_description(klass, "fault-events",
        "events since the plan was last set (also an empty one): "
        "EVENT=COUNT,...");
    set_bit(DEVICE_CATEGORY_BRIDGE, dc->categories);
}

static const TypeInfo usb_ds2490_info = {
    .name          = TYPE_USB_DS2490,
    .parent        = TYPE_USB_DEVICE,
    .instance_size = sizeof(USBDS2490State),
    .class_init    = usb_ds2490_class_init,
};

static void usb_ds2490_register_types(void)
{
    type_register_static(&usb_ds2490_info);
}

type_init(usb_ds2490_register_types)
