/*
 * outlock: one run at a time per output folder, as git keeps one
 * index.lock per repository.
 *
 * Invariants:
 *  - the lock of OUT is the file ".BASE" GS_OUTLOCK_SUFFIX beside it (in
 *    OUT's parent folder, BASE OUT's last component: OUT itself is swapped
 *    whole, outfile.h), created with O_CREAT|O_EXCL|O_NOFOLLOW and holding
 *    "gpusheet-lock PID START\n" (START: the process's start time in clock
 *    ticks since boot, /proc/PID/stat, so that a reused PID is not taken
 *    for the run that died; 0 where unknown);
 *  - it is held from gs_outlock_take to gs_outlock_release (or the
 *    process's exit): the whole run, the stat cache beside OUT included; a
 *    stage (gs_outfile_stage_begin) takes it when its caller has not, and
 *    a call for an OUT whose parent folder does not exist yet takes it when
 *    the stage has made that folder;
 *  - a second run into the same OUT is refused with a message naming the
 *    holder, or with wait set waits for it (a message once, then a check
 *    every 100 ms);
 *  - a lock whose process is gone (killed, or its PID now another
 *    process's) is stale: taken over. What looks at the lock and replaces
 *    a stale one does it under an flock of the parent folder, so two runs
 *    never both take it;
 *  - a lock path that is not a lock gpusheet wrote (a FIFO, a link, a
 *    folder, a file over 64 bytes or of other text) is refused with the
 *    reason, never opened for writing nor removed.
 */
#ifndef GS_OUTLOCK_H
#define GS_OUTLOCK_H

#include "error.h"

#define GS_OUTLOCK_SUFFIX ".gpusheet-lock"

/*
 * Takes the lock of out for this process (one at a time: a second call for
 * the same out is a no-op; for another one a GS_BUG). cmd names the command
 * in the waiting message ("gpusheet CMD: ..."); wait: 1 waits for another
 * run to end, 0 refuses. 0, or -1 with a message in err.
 */
int gs_outlock_take(const char *out, const char *cmd, int wait, gs_error *err);
/*
 * For the stage of out (outfile.c), once its parent folder exists: takes
 * the lock if this process asked for it before the folder existed or holds
 * none. 1 when the stage took it (gs_outlock_release when freed), 0 when
 * held already, -1 with a message in err.
 */
int gs_outlock_ensure(const char *out, gs_error *err);
/* Removes the lock this process holds, if any. */
void gs_outlock_release(void);

#endif
