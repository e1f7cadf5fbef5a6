/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mesa_trace.h - the DRM ioctls of the Mesa child, as diagnostics
 * (mesa_trace.c).
 */
#ifndef PATCHBAY_MESA_TRACE_H
#define PATCHBAY_MESA_TRACE_H

/* From now on every DRM ioctl of the process is traced. */
void trace_start(void);

/* Stop tracing; the count per ioctl as diagnostics. */
void trace_stop(void);

#endif /* PATCHBAY_MESA_TRACE_H */
