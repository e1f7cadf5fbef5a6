#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write the seed corpus of scripts/qemu-fuzz (fuzz/qemu/corpus/TARGET/).

The inputs are programs for QEMU's generic-fuzz target
(tests/qtest/fuzz/generic_fuzz.c): commands separated by "FUZZ", each an
opcode byte (modulo 10) and its operands, memcpy()d into the op's struct
(natural alignment, so with padding). The MMIO ops name a region by its
index among the matched MemoryRegions in address order:

  ds2490 (qemu-xhci's BAR0, mapped at 0x10000000 by generic-fuzz):
    0 capabilities, 1 operational, 2-9 the ports, 10 runtime,
    11 doorbell, 12 msix-table, 13 msix-pba
  agpu: 0 the register window (0xc000000)

Every DMA read the device makes is filled from the list of DMA patterns,
one pattern per read, in turn; a pattern shorter than the read repeats.
The xHCI seeds lay the patterns out in the order hcd-xhci.c reads its
structures (TRBs twice: xhci_ring_chain_length() and xhci_ring_fetch()),
so that the xHCI enables a slot, addresses the DS2490, configures its
endpoints and carries control, interrupt and bulk transfers to it.
"""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from owcrc import crc8  # noqa: E402 (fuzz/owcrc.py)

HERE = os.path.dirname(os.path.abspath(__file__))
SEP = b'FUZZ'
OP_READ, OP_WRITE, OP_PCI_READ, OP_PCI_WRITE = 2, 3, 4, 5
OP_ADD_DMA, OP_CLEAR_DMA, OP_CLOCK_STEP = 7, 8, 9
BYTE, WORD, LONG, QUAD = 0, 1, 2, 3


def write(base, offset, value, size=LONG):
    return bytes([OP_WRITE]) + struct.pack('<BBxxIQ', size, base, offset,
                                           value)


def read(base, offset, size=LONG):
    return bytes([OP_READ]) + struct.pack('<BBxxI', size, base, offset)


def dma(data, index=0, stride=0):
    return bytes([OP_ADD_DMA, index, stride]) + data


def clear():
    return bytes([OP_CLEAR_DMA])


def step():
    return bytes([OP_CLOCK_STEP])


def program(*cmds):
    out = []
    for c in cmds:
        if isinstance(c, (list, tuple)):
            out.extend(c)
        else:
            out.append(c)
    for c in out:
        assert SEP not in c, c
    return SEP.join(out)


def put(target, name, data):
    d = os.path.join(HERE, 'corpus', target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


# ---- ds2490: qemu-xhci ----
CAP, OPER, RT, DB = 0, 1, 10, 11
RAM = 0x40000000
DCBAA, CMDRING, ERST, EVRING = RAM + 0x100000, RAM + 0x200000, \
    RAM + 0x310000, RAM + 0x300000
ICTX, OCTX = RAM + 0x400000, RAM + 0x500000
EP0RING, BUF = RAM + 0x600000, RAM + 0x700000
TRB_C = 1
CR_ENABLE_SLOT, CR_ADDRESS_DEVICE, CR_CONFIGURE_ENDPOINT = 9, 11, 12
TR_NORMAL, TR_SETUP, TR_DATA, TR_STATUS = 1, 2, 3, 4
ZERO_TRB = bytes(16)
EPCTX = bytes(20)          # xhci_set_ep_state() reads and writes it back


def trb(param, status, control):
    return struct.pack('<QII', param, status, control | TRB_C)


def dw(*v):
    return struct.pack('<%dI' % len(v), *v)


def xhci_start():
    """the driver's xhci_init() and xhci_run(), condensed"""
    return [write(OPER, 0x38, 1),                     # CONFIG: 1 slot
            write(OPER, 0x30, DCBAA), write(OPER, 0x34, 0),
            write(OPER, 0x18, CMDRING | 1), write(OPER, 0x1c, 0),
            write(RT, 0x28, 1),                       # ERSTSZ
            write(RT, 0x38, EVRING), write(RT, 0x3c, 0),  # ERDP
            write(RT, 0x30, ERST),                    # ERSTBA low
            clear(), dma(dw(EVRING, 0, 4096, 0)),     # the ERST entry
            write(RT, 0x34, 0),                       # ERSTBA high: read it
            write(RT, 0x20, 2),                       # IMAN.IE
            write(OPER, 0x00, 1 | 4)]                 # USBCMD: RS, INTE


def command(*patterns):
    """ring the command doorbell; the TRB and what it reads, then the end"""
    return [clear()] + [dma(p) for p in patterns] + [dma(ZERO_TRB),
                                                      write(DB, 0, 0)]


def enable_and_address():
    return (command(trb(0, 0, CR_ENABLE_SLOT << 10)) +
            command(trb(ICTX, 0, CR_ADDRESS_DEVICE << 10 | 1 << 24),
                    struct.pack('<Q', OCTX),            # DCBAA[1]
                    dw(0, 3, 0, 0, 0, 0, 0, 0),          # drop 0, add slot+ep0
                    dw(1 << 27 | 2 << 20, 1 << 16, 0, 0),  # 1 entry, FS, port 1
                    dw(0, 3 << 1 | 4 << 3 | 16 << 16,   # CErr 3, control, mps 16
                       EP0RING | 1, 0, 8)))


def control(bm, req, value, index, length, data_in=True, slot=1):
    """a control transfer on EP0: Setup, Data (when length), Status"""
    setup = bm | req << 8 | value << 16 | index << 32 | length << 48
    trt = 0 if not length else (3 if data_in else 2)
    tds = [trb(setup, 8, TR_SETUP << 10 | 1 << 6 | trt << 16)]
    if length:
        tds.append(trb(BUF, length, TR_DATA << 10 | int(data_in) << 16))
    tds.append(trb(0, 0, TR_STATUS << 10 | 1 << 5 |
                   int(not (length and data_in)) << 16))
    # xhci_kick_epctx(): the EP context (xhci_set_ep_state()), the TD for
    # xhci_ring_chain_length() and again for xhci_ring_fetch(), the EP
    # context once more when the transfer completes, the end of the ring
    pats = [EPCTX] + tds + tds + [EPCTX, ZERO_TRB]
    return [clear()] + [dma(p) for p in pats] + [write(DB, 4 * slot, 1)]


def vendor(req, value, index):
    return control(0x40, req, value, index, 0)


def configure_endpoints(ep3_type=6):
    """EP1 interrupt IN (DCI 3), EP2 bulk OUT (DCI 4), EP3 bulk IN (DCI 7)"""
    def ep(kind, mps, ring):
        return dw(0, 3 << 1 | kind << 3 | mps << 16, ring | 1, 0, mps)
    return command(trb(ICTX, 0, CR_CONFIGURE_ENDPOINT << 10 | 1 << 24),
                   dw(0, 1 | 1 << 3 | 1 << 4 | 1 << 7),   # ictl: add
                   dw(7 << 27, 1 << 16, 0, 0),             # input slot
                   dw(0, 0, 0, 2 << 27 | 1),               # output: addressed
                   ep(7, 32, RAM + 0x610000),              # DCI 3
                   ep(2, 64, RAM + 0x620000),              # DCI 4
                   ep(ep3_type, 64, RAM + 0x630000))       # DCI 7


def normal(dci, length, data=None, slot=1):
    """a Normal TRB on DCI; an OUT transfer's data comes from the pattern
    after the TRBs"""
    t = trb(BUF, length, TR_NORMAL << 10 | 1 << 5)
    pats = [EPCTX, t, t] + ([data] if data is not None else []) + \
        [EPCTX, ZERO_TRB]
    return [clear()] + [dma(p) for p in pats] + [write(DB, 4 * slot, dci)]


def gen_ds2490():
    enum = xhci_start() + enable_and_address()
    put('ds2490', 'xhci-address', program(enum))
    desc = (control(0x80, 6, 0x0100, 0, 18) +          # GET_DESCRIPTOR device
            control(0x80, 6, 0x0200, 0, 39) +          # configuration
            control(0x00, 9, 1, 0, 0))                 # SET_CONFIGURATION 1
    put('ds2490', 'xhci-descriptors', program(enum, desc))
    # ds2490_probe(): RESET_DEVICE, PULSE_EN; a 1-Wire reset, a byte
    # (MATCH ROM) through COMM BYTE_IO, GET_COMM_CMDS (vendor IN)
    probe = (vendor(0, 0, 0) + vendor(2, 0, 2) + vendor(1, 0x0043, 0) +
             vendor(1, 0x0053, 0xCC) + control(0xC0, 0, 0, 0, 16))
    put('ds2490', 'xhci-vendor', program(enum, desc, probe))
    # with the endpoints: the status on EP1, 8 bytes on EP2, a search
    # (K_COMM_SEARCH) and its ids on EP3
    search = (configure_endpoints() + vendor(0, 0, 0) + vendor(2, 0, 2) +
              normal(3, 32) + normal(4, 8, bytes(8)) +
              vendor(1, 0x49FD, 0xF0 | 64 << 8) + normal(3, 32) +
              normal(7, 64) + normal(7, 64) + [step()] + normal(3, 32))
    put('ds2490', 'xhci-search', program(enum, desc, search))
    # w1_therm on the first DS18B20: MATCH ROM block, CONVERT, READ
    rom = bytes([0x28, 0x3d, 0x2c, 0x1b, 0x0a, 0, 0])
    rom += bytes([crc8(rom)])
    therm = (configure_endpoints() + vendor(0, 0, 0) + vendor(1, 0x0043, 0) +
             normal(4, 9, bytes([0x55]) + rom) + vendor(1, 0x0075, 9) +
             normal(7, 64) + vendor(1, 0x0053, 0x44) + [step()] +
             vendor(1, 0x0043, 0) + normal(4, 9, bytes([0x55]) + rom) +
             vendor(1, 0x0075, 9) + normal(7, 64) + vendor(1, 0x0053, 0xBE) +
             normal(4, 9, bytes([0xff] * 9)) + vendor(1, 0x0075, 9) +
             normal(7, 64) + normal(3, 32))
    put('ds2490', 'xhci-therm', program(enum, desc, therm))


# ---- agpu ----
GPU = 0
REG = dict(RBBM_SOFT_RESET=0x003c, RBBM_INT_CNTL=0x03b4, MH_MMU_CONFIG=0x40,
           MH_MMU_VA_RANGE=0x41, MH_MMU_PT_BASE=0x42, MH_MMU_MPU_BASE=0x46,
           MH_MMU_MPU_END=0x47, MH_INTERRUPT_MASK=0xa42,
           CP_PFP_UCODE_ADDR=0xc0, CP_PFP_UCODE_DATA=0xc1, CP_RB_BASE=0x1c0,
           CP_RB_CNTL=0x1c1, CP_RB_RPTR_ADDR=0x1c3, CP_RB_WPTR=0x1c5,
           CP_INT_CNTL=0x1f2, CP_ME_CNTL=0x1f6, CP_ME_RAM_WADDR=0x1f8,
           CP_ME_RAM_DATA=0x1fa, RBBM_INT_ACK=0x3b6, RBBM_INT_STATUS=0x3b5,
           CP_RB_RPTR=0x1c4, RBBM_STATUS=0x5d0)
FW_MAGIC = 0x52444151


def wr(reg, v):
    return write(GPU, REG[reg] * 4, v)


def rd(reg):
    return read(GPU, REG[reg] * 4)


def pkt3(op, n):
    return 0xc0000000 | (n - 1) << 16 | op << 8


def pkt0(reg, n):
    return (n - 1) << 16 | reg


ME_INIT = [pkt3(0x48, 18), 0x3ff, 0, 0, 0, 0x80, 0x100, 0x180, 0x200, 0x280,
           0x300, 0x380, 0x80000180, 1, 0, 0, 0x200001f2, 0, 0,
           pkt3(0x5f, 1), 1]


def boot(mmu, ring):
    # the MPU window bounds the GPU's physical accesses with the MMU off
    cmds = [wr('CP_ME_CNTL', 1 << 28), wr('RBBM_SOFT_RESET', 0xffffffff),
            wr('RBBM_SOFT_RESET', 0), wr('MH_MMU_MPU_BASE', 0),
            wr('MH_MMU_MPU_END', 0xfffff000)]
    if mmu:
        cmds += [wr('MH_MMU_CONFIG', 0x01555551),
                 wr('MH_MMU_VA_RANGE', 0x01000000 | 1),
                 wr('MH_MMU_PT_BASE', RAM)]
    cmds += [wr('RBBM_INT_CNTL', 1), wr('CP_INT_CNTL', 0xcf800000),
             wr('MH_INTERRUPT_MASK', 7), wr('CP_RB_CNTL', 0x08000000 | 9),
             wr('CP_RB_BASE', ring), wr('CP_ME_RAM_WADDR', 0),
             wr('CP_ME_RAM_DATA', 0x00200001), wr('CP_ME_RAM_DATA', FW_MAGIC),
             wr('CP_PFP_UCODE_ADDR', 0), wr('CP_PFP_UCODE_DATA', FW_MAGIC),
             wr('CP_ME_CNTL', 0)]
    return cmds


def ring_kick(wptr, *patterns, index=0, stride=0):
    return [clear()] + [dma(p, index, stride) for p in patterns] + \
        [wr('CP_RB_WPTR', wptr), step(), rd('CP_RB_RPTR'),
         rd('RBBM_INT_STATUS'), wr('RBBM_INT_ACK', 0xffffffff)]


def gen_agpu():
    # physical addressing (MMU off): the ring at 0x40010000
    me_init = dw(*ME_INIT)
    put('agpu', 'boot-me-init', program(boot(False, RAM + 0x10000),
                                        ring_kick(len(ME_INIT), me_init)))
    # the MMU on: the page table read from a pattern whose PTEs count up
    # (byte 2 += 1 per PTE: VA page n -> 0x40010000 + n * 64 KiB)
    memptrs = 0x01000000 + 15 * 4096
    submit = [pkt0(0x578, 1), 0xffffff01, pkt3(0x26, 1), 0,
              pkt3(0x46, 3), 4, memptrs + 4, 0xffffff01,
              pkt3(0x40, 1), 0x80000000]
    ib = [pkt3(0x3d, 2), memptrs + 8, 0xcafe, pkt3(0x10, 2), 0, 0,
          0x80000000]
    put('agpu', 'mmu-submit',
        program(boot(True, 0x01000000),
                ring_kick(len(ME_INIT), dw(0x40010003), me_init, index=2,
                          stride=1),
                ring_kick(len(ME_INIT) + 13, dw(0x40010003),
                          dw(pkt3(0x37, 2), 0x01000000 + 4096, len(ib)) +
                          dw(*submit), dw(*ib), index=2, stride=1)))
    # an IB that calls itself, a CP_WAIT_REG_MEM, a soft reset
    put('agpu', 'hostile',
        program(boot(False, RAM + 0x10000),
                ring_kick(len(ME_INIT), me_init),
                ring_kick(len(ME_INIT) + 3,
                          dw(pkt3(0x37, 2), RAM + 0x20000, 3)),
                ring_kick(len(ME_INIT) + 9,
                          dw(pkt3(0x3c, 5), 0x13, RAM + 0x30000, 1,
                             0xffffffff, 16)),
                [step(), step(), wr('RBBM_SOFT_RESET', 1),
                 wr('RBBM_SOFT_RESET', 0), rd('RBBM_STATUS')]))
    # unbooted: register writes and reads only
    put('agpu', 'unbooted-regs',
        program([wr('CP_RB_CNTL', 9), wr('CP_RB_BASE', RAM),
                 wr('CP_RB_WPTR', 4), wr('CP_ME_CNTL', 0), rd('CP_RB_RPTR'),
                 rd('RBBM_STATUS'), write(GPU, 0x1fffc, 1, QUAD)]))


def gen_crashes():
    """hand-made reproducers of the campaigns' findings"""
    d = os.path.join(HERE, 'crashes', 'ds2490')
    os.makedirs(d, exist_ok=True)
    # hcd-xhci.c:1925 assert(xfer->packet.status != USB_RET_NAK): the guest
    # configures the DS2490's bulk EP3 as isochronous IN (type 5); an IN
    # transfer while EP3 is empty is NAKed (as bulk IN should be); the
    # next doorbell retries it, and the xHCI's iso retry asserts that a
    # device never NAKs
    data = program(xhci_start(), enable_and_address(),
                   configure_endpoints(ep3_type=5), normal(7, 64),
                   [write(DB, 4, 7)])           # the doorbell again: retry
    with open(os.path.join(d, 'xhci-iso-nak-minimal'), 'wb') as f:
        f.write(data)


if __name__ == '__main__':
    which = sys.argv[1:] or ['ds2490', 'agpu']
    if 'ds2490' in which:
        gen_ds2490()
    if 'agpu' in which:
        gen_agpu()
    if 'crashes' in which:
        gen_crashes()
