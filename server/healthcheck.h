/* healthcheck.h -- `puzzled --healthcheck`: a built-in probe for container
 * HEALTHCHECKs, so the runtime image needs no curl. */
#ifndef PUZZLED_HEALTHCHECK_H
#define PUZZLED_HEALTHCHECK_H

#include "server/config.h"

/* GETs /healthz on the configured port (via 127.0.0.1, or ::1 / the bound
 * address when it is not a wildcard) with a 3 s timeout.  Returns 0 when the
 * answer is 200, 1 otherwise (the process exit status). */
int healthcheck_run(const config_t *cfg);

#endif
