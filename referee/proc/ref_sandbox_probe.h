/*
 * ref_sandbox_probe.h - the sandbox this machine gives bots, found once per
 * referee process and mode (ref_sandbox_probe.c); the layers themselves
 * are described in ref_sandbox.h.
 */
#ifndef REF_SANDBOX_PROBE_H
#define REF_SANDBOX_PROBE_H

#include <stddef.h>
#include "ref_sandbox.h"

/* The sandbox for this process in this mode, probed on first use and kept
 * (a worker plays many matches). In auto mode, the first call that finds
 * something missing says so once on stderr. Returns NULL with a message
 * in err only in strict mode when a layer is missing. */
const ref_sandbox *ref_sandbox_get(ref_sandbox_mode mode, char *err, size_t size);

#endif /* REF_SANDBOX_PROBE_H */
