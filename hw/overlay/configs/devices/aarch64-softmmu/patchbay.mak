# SPDX-License-Identifier: GPL-2.0-or-later
# patchbay's device set for qemu-system-aarch64 (--with-devices-aarch64=patchbay).
# ARM_VIRT selects everything the board needs; list the optional pieces.
CONFIG_ARM_VIRT=y
CONFIG_PCIE_PORT=y
CONFIG_VIRTIO_PCI=y
CONFIG_VIRTIO_MMIO=y
CONFIG_VIRTIO_SERIAL=y
CONFIG_VIRTIO_RNG=y
CONFIG_USB_XHCI_PCI=y
CONFIG_USB_DS2490=y
CONFIG_AGPU=y
