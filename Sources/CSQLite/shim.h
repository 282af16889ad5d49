#include <sqlite3.h>

/// sqlite3_db_config for the options that take an int and report the new value: Swift cannot
/// call the variadic C function itself.
static inline int logbook_sqlite3_db_config_int(sqlite3 *db, int option, int value) {
    int current = 0;
    return sqlite3_db_config(db, option, value, &current);
}

/// sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on): whether SQLite counts the memory it uses, for the
/// whole process, before its first connection (Swift cannot call the variadic function itself).
static inline int logbook_sqlite3_config_memstatus(int on) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}
