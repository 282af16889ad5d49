#include <sqlite3.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

// The VFS "logbook": the system's default VFS (SQLite's "unix"), every call passed through, but
// the write-ahead log's index (the `-shm` file, which SQLite maps into memory) has its disk blocks
// allocated before SQLite stores into it, and a part that cannot have them is an error SQLite
// returns, not a crash.
//
// SQLite grows the `-shm` file by writing one byte at the end of each 4 KiB page, which gives a
// whole page its block only where a block is 4 KiB or more. On a file system of 1 KiB blocks (what
// `mkfs.ext4` picks for a small disk) the rest of each page is a hole, and when the disk is full
// the first store into a hole kills the process with SIGBUS: after the log's commit frame, the
// write was kept and the command died without a word (helper-103). `MADV_POPULATE_WRITE` (Linux
// 5.14) faults every page of a range in for writing, which allocates its blocks, and fails with
// EFAULT where a store would have raised SIGBUS. It runs where a store is coming: a region mapped
// for writing, and an exclusive lock (`logbook_file_shm_lock`). One store is not covered: a commit
// whose frames reach a new region maps it after the log's commit frame is written, so a disk that
// fills right then fails the command with the write kept, as SQLite's own failure to grow the file
// does. Elsewhere (an older kernel, another system) the VFS only passes calls through.
//
// Each file is the system VFS's file, placed right after this header (`szOsFile` is the sum).

/// An open file of the "logbook" VFS: the system VFS's file, behind methods that pass through.
typedef struct LogbookFile {
    sqlite3_file base;
    sqlite3_file *real;
    /// The lock this connection holds on the file (SQLITE_LOCK_NONE to SQLITE_LOCK_EXCLUSIVE).
    int lock;
    /// Whether the file's log index is open (mapped since it was last unmapped).
    int mapsIndex;
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
static inline int logbook_file_unlock(sqlite3_file *f, int lock) {
    LogbookFile *file = (LogbookFile *)f;
    int code = file->real->pMethods->xUnlock(file->real, lock);
    if (code == SQLITE_OK) file->lock = lock;
    return code;
}
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
static inline void logbook_file_shm_barrier(sqlite3_file *f) { sqlite3_file *r = logbook_real_file(f); r->pMethods->xShmBarrier(r); }
static inline int logbook_file_shm_unmap(sqlite3_file *f, int deleteFile) {
    LogbookFile *file = (LogbookFile *)f;
    file->mapsIndex = 0;
    return file->real->pMethods->xShmUnmap(file->real, deleteFile);
}
static inline int logbook_file_fetch(sqlite3_file *f, sqlite3_int64 offset, int amount, void **page) {
    sqlite3_file *r = logbook_real_file(f); return r->pMethods->xFetch(r, offset, amount, page);
}
static inline int logbook_file_unfetch(sqlite3_file *f, sqlite3_int64 offset, void *page) {
    sqlite3_file *r = logbook_real_file(f); return r->pMethods->xUnfetch(r, offset, page);
}

/// Has the blocks of a mapped region of the log's index allocated: 0 when the file system cannot
/// give them (where a store would raise SIGBUS), else 1 (done, or not possible here: a kernel
/// before 5.14 answers EINVAL, and SQLite's own behaviour stands).
static inline int logbook_populate(void volatile *mapped, int size) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    // A region can start inside a page where pages are larger than a region (64 KiB pages).
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t start = (uintptr_t)mapped & ~(page - 1);
    uintptr_t end = (uintptr_t)mapped + (uintptr_t)size;
    int populated;
    do {
        populated = madvise((void *)start, end - start, MADV_POPULATE_WRITE);
    } while (populated != 0 && errno == EINTR);
    if (populated != 0 && errno == EFAULT) return 0;
#endif
    return 1;
}

/// The size of a region of the log's index: SQLite's `WALINDEX_PGSZ`, the same for every file.
enum { LOGBOOK_INDEX_REGION = 32768 };

/// Has the blocks of the first `regions` regions of the index that exist allocated (of each,
/// the first `size` bytes): 0 when the disk cannot hold them, else 1.
static inline int logbook_populate_index(sqlite3_file *real, int regions, int size) {
    for (int region = 0; region < regions; region++) {
        void volatile *mapped = NULL;
        // Without extending: the regions the file has; SQLITE_READONLY: an index never written.
        if (real->pMethods->xShmMap(real, region, LOGBOOK_INDEX_REGION, 0, &mapped) != SQLITE_OK || mapped == NULL) return 1;
        if (!logbook_populate(mapped, size)) return 0;
    }
    return 1;
}

/// Maps a region of the log's index as the system VFS does. A region mapped by a connection that
/// will store into it (`extend`: it holds the log's write lock or rebuilds the index; or it holds
/// the file's exclusive lock, as when the last connection checkpoints as it closes, where SQLite
/// takes no lock of the index) has its blocks allocated first, and one that cannot have them is
/// not handed to SQLite: the call fails as SQLite's own failure to grow the file does
/// (SQLITE_IOERR_SHMSIZE, errno ENOSPC). A reader's map is left as it is: another program's
/// `-shm` has holes too, and a read on a full disk must not fail for them (helper-105).
static inline int logbook_file_shm_map(sqlite3_file *f, int region, int size, int extend, void volatile **mapped) {
    LogbookFile *file = (LogbookFile *)f;
    int code = file->real->pMethods->xShmMap(file->real, region, size, extend, mapped);
    file->mapsIndex = 1;
    int writes = extend || file->lock >= SQLITE_LOCK_RESERVED;
    if (code == SQLITE_OK && *mapped != NULL && writes && !logbook_populate(*mapped, size)) {
        *mapped = NULL;
        errno = ENOSPC;
        return SQLITE_IOERR_SHMSIZE;
    }
    return code;
}

/// Locks the file as the system VFS does. The exclusive lock of a file whose log index is open
/// comes before stores into every region of the index SQLite mapped before it (the last
/// connection's checkpoint as it closes, a connection in exclusive locking mode), so it is taken
/// only once they have their blocks, and is given back, failing as `logbook_file_shm_map` does,
/// when the disk cannot hold them.
static inline int logbook_file_lock(sqlite3_file *f, int lock) {
    LogbookFile *file = (LogbookFile *)f;
    int held = file->lock;
    int code = file->real->pMethods->xLock(file->real, lock);
    if (code != SQLITE_OK) return code;
    file->lock = lock;
    if (lock != SQLITE_LOCK_EXCLUSIVE || !file->mapsIndex || logbook_populate_index(file->real, INT_MAX, LOGBOOK_INDEX_REGION)) return code;
    file->real->pMethods->xUnlock(file->real, held);
    file->lock = held;
    errno = ENOSPC;
    return SQLITE_IOERR_SHMSIZE;
}

/// Takes or releases locks of the log's index as the system VFS does. An exclusive lock comes
/// before a store into the index: lock 0 (the log's write lock: a write, a checkpoint that resets
/// the log, a rebuild of the index) into any region, so it is taken only once every region the
/// index has has its blocks (a writer stores into the regions it mapped as a reader); the others
/// (a reader's mark, a checkpoint's progress) into the header, so its page gets them. When the
/// disk cannot hold them the lock is given back and the call fails as `logbook_file_shm_map`
/// does, before the store (and before a write puts anything in the log).
static inline int logbook_file_shm_lock(sqlite3_file *f, int offset, int count, int flags) {
    sqlite3_file *r = logbook_real_file(f);
    int code = r->pMethods->xShmLock(r, offset, count, flags);
    if (code != SQLITE_OK || flags != (SQLITE_SHM_LOCK | SQLITE_SHM_EXCLUSIVE)) return code;
    int page = (int)sysconf(_SC_PAGESIZE);
    int header = page > LOGBOOK_INDEX_REGION ? LOGBOOK_INDEX_REGION : page;
    if (offset == 0 ? logbook_populate_index(r, INT_MAX, LOGBOOK_INDEX_REGION) : logbook_populate_index(r, 1, header)) return code;
    r->pMethods->xShmLock(r, offset, count, SQLITE_SHM_UNLOCK | SQLITE_SHM_EXCLUSIVE);
    errno = ENOSPC;
    return SQLITE_IOERR_SHMSIZE;
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
    wrapper->lock = SQLITE_LOCK_NONE;
    wrapper->mapsIndex = 0;
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
