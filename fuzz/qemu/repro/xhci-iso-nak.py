#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Print a qtest script that aborts QEMU's xHCI (hcd-xhci.c, xhci_kick_epctx:
assert(xfer->packet.status != USB_RET_NAK)).

A tiny xHCI driver in qtest commands, on the aarch64 virt board: map the
qemu-xhci's BAR through ECAM, start the controller, Enable Slot, Address
Device, then Configure Endpoint with the device's bulk IN endpoint (EP3 IN,
DCI 7) declared isochronous IN. The xHCI does not check the type against
the device's descriptors. One IN transfer on that endpoint: the device has
no data and NAKs (legal for bulk), the xHCI keeps the transfer for a retry.
Ringing the endpoint's doorbell again takes the iso retry path, which
asserts that the packet was not NAKed.

  xhci-iso-nak.py > xhci-iso-nak.qtest
  xhci-iso-nak.py --run QEMU_BINARY [--trace]
  xhci-iso-nak.py --device usb-kbd --ep 1 --run QEMU_BINARY   # a stock device
"""
import argparse
import shlex
import struct
import subprocess
import sys

ECAM = 0x4010000000         # virt's highmem ECAM (VIRT_HIGH_PCIE_ECAM)
XHCI_CFG = ECAM + (1 << 15)  # bus 0, device 1 (devfn 8): the first free slot
BAR = 0x10000000            # start of virt's 32-bit PCI MMIO window
OPER, RT, DB = BAR + 0x40, BAR + 0x1000, BAR + 0x2000  # hcd-xhci.c OFF_*
IR0 = RT + 0x20             # interrupter 0

RAM = 0x40000000            # virt's RAM; nothing else uses it under qtest
DCBAA = RAM + 0x100000
CMDRING = RAM + 0x200000
EVRING = RAM + 0x300000
ERST = RAM + 0x310000
ICTX_ADDR = RAM + 0x400000  # input context of Address Device
ICTX_CFG = RAM + 0x410000   # input context of Configure Endpoint
OCTX = RAM + 0x500000       # output (device) context, written by the xHCI
EP0RING = RAM + 0x600000
EPRING = RAM + 0x630000     # the transfer ring of the IN endpoint
BUF = RAM + 0x700000

ET_CONTROL, ET_ISO_IN = 4, 5
CR_ENABLE_SLOT, CR_ADDRESS_DEVICE, CR_CONFIGURE_ENDPOINT = 9, 11, 12
TR_NORMAL = 1
TRB_C, TRB_IOC = 1 << 0, 1 << 5


def trb(param, status, control):
    return struct.pack('<QII', param, status, control | TRB_C)


def dw(*v):
    return struct.pack('<%dI' % len(v), *v)


def ep_ctx(ep_type, mps, ring):
    # interval 0 (1 microframe), CErr 3, TR dequeue pointer with DCS = 1
    return dw(0, 3 << 1 | ep_type << 3 | mps << 16, ring | 1, 0, mps)


def script(ep=3):
    dci = 2 * ep + 1               # EPn IN; DS2490's bulk EP3 IN: 7
    out = []

    def mem(addr, data):
        out.append('write 0x%x 0x%x 0x%s' % (addr, len(data), data.hex()))

    def wl(addr, val):
        out.append('writel 0x%x 0x%x' % (addr, val))

    # PCI: BAR0 (64-bit memory BAR) at 0x10000000, memory space + bus master
    wl(XHCI_CFG + 0x10, BAR)
    wl(XHCI_CFG + 0x14, 0)
    out.append('writew 0x%x 0x6' % (XHCI_CFG + 0x04))

    # all the guest memory up front: the xHCI reads it when the doorbells ring
    mem(DCBAA + 8, struct.pack('<Q', OCTX))         # DCBAA[1]: slot 1
    mem(ERST, dw(EVRING, 0, 16, 0))                 # one 16-TRB segment
    mem(CMDRING, trb(0, 0, CR_ENABLE_SLOT << 10) +
        trb(ICTX_ADDR, 0, CR_ADDRESS_DEVICE << 10 | 1 << 24) +
        trb(ICTX_CFG, 0, CR_CONFIGURE_ENDPOINT << 10 | 1 << 24))
    # Address Device: add slot + EP0; full speed, root hub port 1
    mem(ICTX_ADDR, dw(0, 3))
    mem(ICTX_ADDR + 32, dw(1 << 27 | 1 << 20, 1 << 16, 0, 0))
    mem(ICTX_ADDR + 64, ep_ctx(ET_CONTROL, 64, EP0RING))
    # Configure Endpoint: add the IN endpoint as isochronous IN, whatever
    # the device's descriptor says (bulk on the DS2490)
    mem(ICTX_CFG, dw(0, 1 | 1 << dci))
    mem(ICTX_CFG + 32, dw(dci << 27, 0, 0, 0))
    mem(ICTX_CFG + 32 + 32 * dci, ep_ctx(ET_ISO_IN, 64, EPRING))
    # one IN transfer; Frame ID 0 without SIA: due at once (mfindex 0)
    mem(EPRING, trb(BUF, 64, TR_NORMAL << 10 | TRB_IOC))

    # start the controller: 1 slot, DCBAA, command ring, event ring, run
    wl(OPER + 0x38, 1)                  # CONFIG.MaxSlotsEn
    wl(OPER + 0x30, DCBAA)
    wl(OPER + 0x34, 0)
    wl(OPER + 0x18, CMDRING | 1)        # CRCR, RCS = 1
    wl(OPER + 0x1c, 0)
    wl(IR0 + 0x08, 1)                   # ERSTSZ
    wl(IR0 + 0x18, EVRING)              # ERDP
    wl(IR0 + 0x1c, 0)
    wl(IR0 + 0x10, ERST)                # ERSTBA (the high half applies it)
    wl(IR0 + 0x14, 0)
    wl(OPER + 0x00, 1)                  # USBCMD.RS

    wl(DB, 0)                           # the three commands
    # the 3rd event's status (Configure Endpoint): 0x01000000 = Success
    out.append('readl 0x%x' % (EVRING + 2 * 16 + 8))
    wl(DB + 4, dci)                     # the transfer: NAKed, kept for retry
    wl(DB + 4, dci)                     # retry as iso: assertion -> abort
    return '\n'.join(out) + '\n'


def run(qemu, device, ep, trace):
    cmd = [qemu, '-display', 'none', '-M', 'virt', '-nodefaults',
           '-device', 'qemu-xhci,id=xhci',
           '-device', '%s,bus=xhci.0' % device, '-qtest', 'stdio']
    if trace:
        cmd += ['-trace', 'usb_xhci_*', '-trace', 'usb_ds2490_*']
    print('$ ' + shlex.join(cmd), flush=True)
    try:
        p = subprocess.run(cmd, input=script(ep), capture_output=True,
                           text=True, timeout=60)
    except subprocess.TimeoutExpired:
        print('QEMU did not exit within 60 s: not reproduced')
        return 1
    sys.stdout.write(p.stdout)
    sys.stdout.write(p.stderr)
    hit = p.returncode < 0 and 'packet.status != USB_RET_NAK' in p.stderr
    print('exit status %d: %s' % (p.returncode,
          'REPRODUCED' if hit else 'not reproduced'))
    return 0 if hit else 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--run', metavar='QEMU_BINARY')
    ap.add_argument('--device', default='usb-ds2490',
                    help='the USB device (default usb-ds2490)')
    ap.add_argument('--ep', type=int, default=3,
                    help='the IN endpoint number to make iso (default 3)')
    ap.add_argument('--trace', action='store_true',
                    help='with --run: trace usb_xhci_* and usb_ds2490_*')
    a = ap.parse_args()
    if a.run:
        return run(a.run, a.device, a.ep, a.trace)
    sys.stdout.write(script(a.ep))
    return 0


if __name__ == '__main__':
    sys.exit(main())
