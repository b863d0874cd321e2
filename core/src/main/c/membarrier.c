#include "pmx_export.h"
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * The asymmetric fence of the handles' in-call guard (dev.panamax.core.memory.CallGuard): threads
 * publish what they pass to C with plain stores and no fence; the closing thread calls
 * pmx_membarrier(), which makes every running thread of the process execute a full memory barrier
 * before it returns (userspace RCU's sys_membarrier scheme).
 */

/* Registers the process for MEMBARRIER_CMD_PRIVATE_EXPEDITED; 1 when it can be used, 0 when not. */
PMX_EXPORT int pmx_membarrier_init(void) {
    long commands = syscall(__NR_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (commands < 0 || !(commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED)) return 0;
    return syscall(__NR_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
}

/* A full memory barrier on every running thread of the process; 0 on success. */
PMX_EXPORT int pmx_membarrier(void) {
    return (int) syscall(__NR_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
}
