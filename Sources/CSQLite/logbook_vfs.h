#include <sqlite3.h>
#include <errno.h>
#include <stdint.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

// The VFS "logbook": the system's default VFS (SQLite's "unix"), every call passed through, but
// one: a region of the write-ahead log's index (the `-shm` file, which SQLite maps into memory)
// has its disk blocks allocated when it is mapped, and a region that cannot have them is an
// error SQLite returns, not a crash.
//
// SQLite grows the `-shm` file by writing one byte at the end of each 4 KiB page, which gives a
// whole page its block only where a block is 4 KiB or more. On a file system of 1 KiB blocks (what
// `mkfs.ext4` picks for a small disk) the rest of each page is a hole, and when the disk is full
// the first store into a hole kills the process with SIGBUS: after the log's commit frame, the
// write was kept and the command died without a word (helper-103). `MADV_POPULATE_WRITE` (Linux
// 5.14) faults every page of the region in for writing, which allocates its blocks, and fails
// with EFAULT where that store would have raised SIGBUS. Elsewhere (an older kernel, another
// system) the VFS only passes calls through.
//
// Each file is the system VFS's file, placed right after this header (`szOsFile` is the sum).

/// An open file of the "logbook" VFS: the system VFS's file, behind methods that pass through.
typedef struct LogbookFile {
    sqlite3_file base;
    sqlite3_file *real;
} LogbookFile;

static inline sqlite3_file *logbook_real_file(sqlite3_file *file) { return ((LogbookFile *)file)->real; }
static inline sqlite3_vfs *logbook_real_vfs(sqlite3_vfs *vfs) { return (sqlite3_vfs *)vfs->pAppData; }

static inline int logbook_file_close(sqlite3_file *f) { sqlite3_file *r = logbook_real_file(f); return r->pMethods->xClose(r); }
static inline int logbook_file_read(sqlite3_file *f, void *buffer, int amount, sqlite3_int64 offset) {
    sqlite3_file *r = logbook_real_file(f); return r->pMethods->xRead(r, buffer, amount, offset);
}
static inline int logbook_file_write(sqlite3_file *f, const void *buffer, int amount, sqlite3_int64 offset) {
    sqlite3_file *r = logbook_real_file(f); return r->pMethods->xWrite(r, buffer, amount, offset);
}
static inline int logbook_file_truncate(sqlite3_file *f, sqlite3_int64 size) { sqlite3_file *r = logbook_real_file(f); return r->pMethods->xTruncate(r, size); }
static inline int logbook_file_sync(sqlite3_file *f, int flags) { sqlite3_file *r = logbook_real_file(f); return r->pMethods->xSync(r, flags); }
static inline int logbook_file_size(sqlite3_file *f, sqlite3_int64 *size) { sqlite3_file *r = logbook_real_file(f); return r->pMethods->xFileSize(r, size); }
static inline int logbook_file_lock(sqlite3_file *f, int lock) { sqlite3_file *r = logbook_real_file(f); return r->pMethods->xLock(r, lock); }
static inline int logbook_file_unlock(sqlite3_file *f, int lock) { sqlite3_file *r = logbook_real_file(f); return r->pMethods->xUnlock(r, lock); }
static inline int logbook_file_check_reserved_lock(sqlite3_file *f, int *reserved) {
    sqlite3_file *r = logbook_real_file(f); return r->pMethods->xCheckReservedLock(r, reserved);
}
static inline int logbook_file_control(sqlite3_file *f, int op, void *argument) {
    sqlite3_file *r = logbook_real_file(f); return r->pMethods->xFileControl(r, op, argument);
}
static inline int logbook_file_sector_size(sqlite3_file *f) { sqlite3_file *r = logbook_real_file(f); return r->pMethods->xSectorSize(r); }
static inline int logbook_file_device_characteristics(sqlite3_file *f) {
    sqlite3_file *r = logbook_real_file(f); return r->pMethods->xDeviceCharacteristics(r);
}
static inline int logbook_file_shm_lock(sqlite3_file *f, int offset, int count, int flags) {
    sqlite3_file *r = logbook_real_file(f); return r->pMethods->xShmLock(r, offset, count, flags);
}
static inline void logbook_file_shm_barrier(sqlite3_file *f) { sqlite3_file *r = logbook_real_file(f); r->pMethods->xShmBarrier(r); }
static inline int logbook_file_shm_unmap(sqlite3_file *f, int deleteFile) { sqlite3_file *r = logbook_real_file(f); return r->pMethods->xShmUnmap(r, deleteFile); }
static inline int logbook_file_fetch(sqlite3_file *f, sqlite3_int64 offset, int amount, void **page) {
    sqlite3_file *r = logbook_real_file(f); return r->pMethods->xFetch(r, offset, amount, page);
}
static inline int logbook_file_unfetch(sqlite3_file *f, sqlite3_int64 offset, void *page) {
    sqlite3_file *r = logbook_real_file(f); return r->pMethods->xUnfetch(r, offset, page);
}

/// Maps a region of the log's index as the system VFS does, then has its blocks allocated: a
/// region that cannot have them is not handed to SQLite (it would store into it), and the call
/// fails as SQLite's own failure to grow the file does (SQLITE_IOERR_SHMSIZE, errno ENOSPC: the
/// file system refused the blocks). SQLite maps each region of a connection once, so this runs once
/// per region and connection; a region mapped read-only (SQLITE_READONLY) is left as it is.
static inline int logbook_file_shm_map(sqlite3_file *f, int region, int size, int extend, void volatile **mapped) {
    sqlite3_file *r = logbook_real_file(f);
    int code = r->pMethods->xShmMap(r, region, size, extend, mapped);
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    if (code == SQLITE_OK && *mapped != NULL) {
        // A region can start inside a page where pages are larger than a region (64 KiB pages).
        uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
        uintptr_t start = (uintptr_t)*mapped & ~(page - 1);
        uintptr_t end = (uintptr_t)*mapped + (uintptr_t)size;
        int populated;
        do {
            populated = madvise((void *)start, end - start, MADV_POPULATE_WRITE);
        } while (populated != 0 && errno == EINTR);
        if (populated != 0 && errno == EFAULT) {
            *mapped = NULL;
            errno = ENOSPC;
            return SQLITE_IOERR_SHMSIZE;
        }
        // EINVAL (a kernel before 5.14) and any other answer: SQLite's own behaviour, unchanged.
    }
#endif
    return code;
}

/// The file methods of a version (1 to 3) of `sqlite3_io_methods`: the system VFS's file gives its
/// own version, and SQLite uses the log only where the version is 2 or more.
static inline const sqlite3_io_methods *logbook_file_methods(int version) {
    static const sqlite3_io_methods methods[3] = {
#define LOGBOOK_FILE_METHODS(VERSION) { VERSION, logbook_file_close, logbook_file_read, logbook_file_write, \
        logbook_file_truncate, logbook_file_sync, logbook_file_size, logbook_file_lock, logbook_file_unlock, \
        logbook_file_check_reserved_lock, logbook_file_control, logbook_file_sector_size, \
        logbook_file_device_characteristics, logbook_file_shm_map, logbook_file_shm_lock, logbook_file_shm_barrier, \
        logbook_file_shm_unmap, logbook_file_fetch, logbook_file_unfetch }
        LOGBOOK_FILE_METHODS(1), LOGBOOK_FILE_METHODS(2), LOGBOOK_FILE_METHODS(3)
#undef LOGBOOK_FILE_METHODS
    };
    return &methods[(version < 1 ? 1 : version > 3 ? 3 : version) - 1];
}

static inline int logbook_vfs_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *outFlags) {
    LogbookFile *wrapper = (LogbookFile *)file;
    wrapper->real = (sqlite3_file *)&wrapper[1];
    int code = logbook_real_vfs(vfs)->xOpen(logbook_real_vfs(vfs), name, wrapper->real, flags, outFlags);
    // SQLite closes a file whose methods are set, whether its open succeeded or not.
    wrapper->base.pMethods = wrapper->real->pMethods ? logbook_file_methods(wrapper->real->pMethods->iVersion) : NULL;
    return code;
}
static inline int logbook_vfs_delete(sqlite3_vfs *vfs, const char *name, int syncFolder) {
    return logbook_real_vfs(vfs)->xDelete(logbook_real_vfs(vfs), name, syncFolder);
}
static inline int logbook_vfs_access(sqlite3_vfs *vfs, const char *name, int flags, int *result) {
    return logbook_real_vfs(vfs)->xAccess(logbook_real_vfs(vfs), name, flags, result);
}
static inline int logbook_vfs_full_pathname(sqlite3_vfs *vfs, const char *name, int size, char *out) {
    return logbook_real_vfs(vfs)->xFullPathname(logbook_real_vfs(vfs), name, size, out);
}
static inline void *logbook_vfs_dl_open(sqlite3_vfs *vfs, const char *name) { return logbook_real_vfs(vfs)->xDlOpen(logbook_real_vfs(vfs), name); }
static inline void logbook_vfs_dl_error(sqlite3_vfs *vfs, int size, char *message) { logbook_real_vfs(vfs)->xDlError(logbook_real_vfs(vfs), size, message); }
static inline void (*logbook_vfs_dl_sym(sqlite3_vfs *vfs, void *library, const char *symbol))(void) {
    return logbook_real_vfs(vfs)->xDlSym(logbook_real_vfs(vfs), library, symbol);
}
static inline void logbook_vfs_dl_close(sqlite3_vfs *vfs, void *library) { logbook_real_vfs(vfs)->xDlClose(logbook_real_vfs(vfs), library); }
static inline int logbook_vfs_randomness(sqlite3_vfs *vfs, int size, char *out) {
    return logbook_real_vfs(vfs)->xRandomness(logbook_real_vfs(vfs), size, out);
}
static inline int logbook_vfs_sleep(sqlite3_vfs *vfs, int microseconds) { return logbook_real_vfs(vfs)->xSleep(logbook_real_vfs(vfs), microseconds); }
static inline int logbook_vfs_current_time(sqlite3_vfs *vfs, double *now) { return logbook_real_vfs(vfs)->xCurrentTime(logbook_real_vfs(vfs), now); }
static inline int logbook_vfs_get_last_error(sqlite3_vfs *vfs, int size, char *out) {
    return logbook_real_vfs(vfs)->xGetLastError(logbook_real_vfs(vfs), size, out);
}
static inline int logbook_vfs_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *now) {
    return logbook_real_vfs(vfs)->xCurrentTimeInt64(logbook_real_vfs(vfs), now);
}

/// Registers the VFS "logbook" over the system's default VFS (not as the default: the process's
/// other SQLite users are left as they are) and returns its name, or NULL (then the default VFS
/// is used) when the default VFS is older than version 2. Call it once: Swift's `static let`.
static inline const char *logbook_vfs_register(void) {
    static sqlite3_vfs vfs;
    sqlite3_vfs *real = sqlite3_vfs_find(NULL);
    if (real == NULL || real->iVersion < 2) return NULL;
    vfs = (sqlite3_vfs){
        2, (int)sizeof(LogbookFile) + real->szOsFile, real->mxPathname, NULL, "logbook", real,
        logbook_vfs_open, logbook_vfs_delete, logbook_vfs_access, logbook_vfs_full_pathname,
        logbook_vfs_dl_open, logbook_vfs_dl_error, logbook_vfs_dl_sym, logbook_vfs_dl_close,
        logbook_vfs_randomness, logbook_vfs_sleep, logbook_vfs_current_time, logbook_vfs_get_last_error,
        logbook_vfs_current_time_int64, NULL, NULL, NULL
    };
    return sqlite3_vfs_register(&vfs, 0) == SQLITE_OK ? vfs.zName : NULL;
}
