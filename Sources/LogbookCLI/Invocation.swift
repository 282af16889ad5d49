import Foundation
import Logbook
import SQLiteQuery

/// One run of a command: its parsed arguments, the environment, and the shared ways to reach the store.
struct Invocation {
    let arguments: ParsedArguments
    let environment: [String: String]
    /// Those of ``fileVariables`` whose bytes are not UTF-8: ``environment`` holds them with U+FFFD.
    let variablesNotUTF8: Set<String>
    /// ``Command/usesNoCalendarDay`` of the command run.
    let usesNoCalendarDay: Bool
    /// Lines for stderr printed once the command has succeeded (`logbook: created PATH`).
    let notices = Notices()
    /// The database this run creates, if any: removed again if the command fails.
    let created: CreatedDatabase
    /// The store ``readStore()`` opened, so that a command that reads it twice (its filters, then its
    /// records) opens and checks the file once.
    private let opened = OpenedStore()

    /// `--db`, else `$LOGBOOK_DB`, else `$XDG_DATA_HOME/logbook/logbook.sqlite`
    /// (`~/.local/share/logbook/logbook.sqlite`; a relative `$XDG_DATA_HOME` is ignored). An empty
    /// `--db` or `$LOGBOOK_DB` is a usage error, never a silent fall back to the default database.
    func databasePath() throws -> String {
        if let path = try arguments.value(of: GlobalOptions.database) {
            guard !path.isEmpty else { throw UsageError(message: "--db is empty: give the database's path", command: arguments.command) }
            return path
        }
        if let path = try fileVariable("LOGBOOK_DB") {
            guard !path.isEmpty else {
                throw UsageError(message: "$LOGBOOK_DB is set but empty: set it to the database's path, or unset it",
                                 command: arguments.command)
            }
            return path
        }
        // A relative $XDG_DATA_HOME (`data`, `~/data`) is ignored, as the XDG spec says: it would
        // name another file in each folder the command runs from.
        // Folders joined without their trailing slashes (`HOME=/` gave `//.local/…`).
        func folder(_ path: String) -> String { String(path.reversed().drop { $0 == "/" }.reversed()) }
        let dataHome = try fileVariable("XDG_DATA_HOME").flatMap { $0.begins(with: "/") ? $0 : nil } ?? folder(homeFolder()) + "/.local/share"
        return folder(dataHome) + "/logbook/logbook.sqlite"
    }

    /// Whether the terminal takes escape sequences (colour, a line rewritten in place, a screen
    /// cleared): not with `TERM=dumb`, which Emacs' shell and other plain consoles set.
    var terminalTakesEscapes: Bool { environment["TERM"] != "dumb" }

    /// The variables that name the database's file or folder.
    static let fileVariables = ["LOGBOOK_DB", "XDG_DATA_HOME", "HOME"]

    /// `$name`, one of ``fileVariables``; a usage error when its bytes are not UTF-8, since the
    /// path it holds would name another file.
    private func fileVariable(_ name: String) throws -> String? {
        guard !variablesNotUTF8.contains(name) else {
            throw UsageError(message: "$\(name) is not UTF-8 text, so it names no file Logbook can open exactly", command: arguments.command)
        }
        return environment[name]
    }

    /// `$HOME` when it is an absolute path, else the home folder of the user's account; a usage
    /// error when neither names one (an empty `$HOME` put the database under `/.local`).
    private func homeFolder() throws -> String {
        if let home = try fileVariable("HOME"), home.begins(with: "/") { return home }
        if let entry = getpwuid(getuid()), let folder = entry.pointee.pw_dir.map({ String(cString: $0) }), folder.begins(with: "/") {
            return folder
        }
        throw UsageError(message: "cannot tell your home folder ($HOME is not an absolute path): give the database with --db or $LOGBOOK_DB",
                         command: arguments.command)
    }

    /// ``databasePath()`` for opening: refused when something other than a regular file is there
    /// (a folder, a device such as `/dev/null`, a FIFO), which SQLite would fail on with an
    /// input/output error or wait on, or when the path names no file at all (``DatabasePath``).
    private func databaseFilePath() throws -> String {
        let path = try databasePath()
        var status = stat()
        guard stat(path, &status) != 0 || status.st_mode & S_IFMT == S_IFREG else {
            let kind = switch status.st_mode & S_IFMT {
            case S_IFDIR: "a folder"
            case S_IFCHR, S_IFBLK: "a device"
            case S_IFIFO: "a FIFO"
            case S_IFSOCK: "a socket"
            default: "not a regular file"
            }
            throw CommandFailure("\(path) is \(kind), not a Logbook database file; give a file's path with --db")
        }
        if let refusal = DatabasePath.refusal(of: path) {
            throw CommandFailure("\(path): \(refusal); give a file's path with --db")
        }
        // A link Logbook cannot follow by name (to a path that is not UTF-8, or a loop): SQLite
        // would, so a failed command left behind the new file it could not call its own (helper-78).
        do {
            _ = try SymbolicLink.finalTarget(of: path)
        } catch LogbookError.cannotWrite(_, let reason) {
            throw CommandFailure("\(path): \(reason); give the file's own path with --db")
        }
        return path
    }

    /// `--time-zone`, else `$TZ`, else the system's. A name must be a zone of the tz database
    /// (``TimeZoneDatabase``): an abbreviation or an offset that Foundation reads otherwise than
    /// `date` is refused. `$TZ` set but empty (or `:` alone) is UTC, as the C library and `date`
    /// read it; a path (`:/etc/localtime`, `/usr/share/zoneinfo/Europe/Paris`) is the zone whose
    /// file it names, links followed, in the tz database's folder; a POSIX rule that no zone file
    /// is named like (`UTC0`, `<+0530>-5:30`) is its fixed offset, read with POSIX's sign (one
    /// with daylight saving time is refused).
    func timeZone() throws -> TimeZone {
        if let given = try arguments.value(of: GlobalOptions.timeZone) {
            let name = TimeZoneDatabase.outsidePosixFolder(given)
            guard let zone = TimeZone(identifier: name), TimeZoneDatabase.holds(name) else {
                throw UsageError(message: "unknown time zone '\(given)' for '--time-zone <tz>'\(Self.whyNotAZone(name)) "
                                    + "(use an IANA name such as Europe/Paris)",
                                 command: arguments.command)
            }
            return zone
        }
        if let name = environment["TZ"] {
            var identifier = name.hasPrefix(":") ? String(name.dropFirst()) : name
            if identifier.isEmpty { return TimeZone(identifier: "UTC") ?? .gmt }
            let isPath = identifier.hasPrefix("/")
            // As `date` reads it, in `$TZDIR` too: `posix/Europe/Paris` there, not `Europe/Paris`.
            let tzdirName = identifier
            if !isPath { identifier = TimeZoneDatabase.outsidePosixFolder(identifier) }
            if isPath {
                guard let zoneName = TimeZoneDatabase.name(ofZoneFileAt: identifier) else {
                    throw CommandFailure("$TZ '\(name)' names no zone file in the tz database (\(TimeZoneDatabase.folder)), so Logbook "
                                         + "cannot tell which zone it is; use an IANA name such as Europe/Paris, or --time-zone")
                }
                identifier = zoneName
            }
            // A POSIX rule, which the C library reads when no zone file has that name.
            if !name.hasPrefix(":"), !isPath, !TimeZoneDatabase.holds(identifier), let rule = PosixTimeZoneRule(identifier) {
                if let other = TimeZoneDatabase.tzdirFolder(holdingZoneFile: tzdirName, environment: environment) {
                    throw CommandFailure("$TZ '\(name)' names a zone file in $TZDIR (\(other)), which 'date' reads, and Logbook "
                                         + "reads \(TimeZoneDatabase.folder) only; unset TZDIR, or give --time-zone")
                }
                return try Self.zone(following: rule, givenAs: name)
            }
            let zone = TimeZone(identifier: identifier)
            // POSIX reads TZ=GMT+14 as 14 hours behind UTC (as `date` does), Foundation as ahead:
            // either reading would store days other programs in the same shell disagree with.
            if identifier.hasPrefix("GMT") || identifier.hasPrefix("UTC"), let zone, zone.secondsFromGMT() != 0,
               !TimeZoneDatabase.holds(identifier) {
                let etc = "Etc/GMT" + identifier.dropFirst(3)
                let posix = TimeZone(identifier: etc) != nil ? " ('\(etc)' is POSIX's reading)" : ""
                throw CommandFailure("$TZ '\(name)' is an offset that POSIX (and 'date') reads with the opposite sign to "
                                     + "Foundation; use an IANA name\(posix), or --time-zone")
            }
            guard let zone, TimeZoneDatabase.holds(identifier) else {
                throw CommandFailure("unknown time zone '\(name)' in $TZ\(Self.whyNotAZone(identifier)) (use an IANA name such as Europe/Paris)")
            }
            // (A path is read from that file whatever $TZDIR says.)
            if !isPath, let other = TimeZoneDatabase.otherDefinition(of: tzdirName, environment: environment) {
                throw CommandFailure("$TZ '\(name)' is defined otherwise in $TZDIR (\(other)), which 'date' reads, than in "
                                     + "\(TimeZoneDatabase.folder), which Logbook reads; unset TZDIR, or give --time-zone")
            }
            return zone
        }
        return TimeZone.current
    }

    /// The zone of `$TZ` set to the POSIX `rule` (`name`): UTC, or a fixed offset, as `date`
    /// reads it; a rule with daylight saving time is refused, as Foundation has no zone for it.
    private static func zone(following rule: PosixTimeZoneRule, givenAs name: String) throws -> TimeZone {
        switch rule {
        case .fixed(let seconds):
            if seconds == 0, let utc = TimeZone(identifier: "UTC") { return utc }
            if let zone = TimeZone(secondsFromGMT: seconds) { return zone }
            throw CommandFailure("$TZ '\(name)' is an offset of more than 18 hours from UTC, which Foundation has no zone for; "
                                 + "use --time-zone")
        case .daylightSaving:
            throw CommandFailure("$TZ '\(name)' is a POSIX rule with daylight saving time, which Logbook cannot follow "
                                 + "(Foundation reads zones by name); use the zone's IANA name, such as America/New_York, or --time-zone")
        }
    }

    /// The zone a store opens with: ``timeZone()``, or UTC for a command that uses no calendar
    /// day when `$TZ` names no zone Logbook can read (a rule with daylight saving time, an
    /// abbreviation): it has no day to misfile, so a machine's `$TZ` does not stop a `query`, a
    /// `backup` or a `check`. A `--time-zone` given is read, and refused when it names no zone.
    private func storeTimeZone() throws -> TimeZone {
        guard usesNoCalendarDay, try arguments.value(of: GlobalOptions.timeZone) == nil else { return try timeZone() }
        return (try? timeZone()) ?? TimeZone(identifier: "UTC") ?? .gmt
    }

    /// Why a name Foundation reads is refused (it is no zone of the tz database), or "" for a
    /// name Foundation does not know either.
    private static func whyNotAZone(_ name: String) -> String {
        TimeZone(identifier: name) == nil ? ""
            : ": no zone of that name in the tz database (\(TimeZoneDatabase.folder)); an abbreviation or offset, 'date' reads it otherwise"
    }

    /// For commands that change data: opens the database, migrating it, and creating it (and its
    /// folder) when there is no file, which is said on stderr when the command succeeds, and
    /// removed again when it fails (``CreatedDatabase``). An existing empty file is
    /// refused unless `creatingInEmptyFile` (`init`): no command writes into a file that is not a
    /// Logbook database.
    func writeStore(creatingInEmptyFile: Bool = false) throws -> Logbook {
        let path = try databaseFilePath()
        let timeZone = try storeTimeZone(), options = try connectionOptions()
        try Self.refuseAClockOutsideTheCalendar()
        // Made here, exclusively, so that only the run that made the file counts it as its own.
        let isCreated = Logbook.isMissing(path) && created.create(path)
        if !isCreated && !creatingInEmptyFile && Self.staysEmpty(path) {
            throw CommandFailure("\(path) is an empty file, not a Logbook database; run 'logbook init' to create one there")
        }
        let store = try Logbook(path: path, timeZone: timeZone, options: options)
        if isCreated { notices.lines.append("logbook: created \(path)") }
        return store
    }

    /// Refuses to write while the system clock reads outside years 0001 to 9999: every write
    /// stamps its change-log entry, a migration or a draft with the time, which SQLite gives as
    /// NULL past 9999 (a delete failed with "NOT NULL constraint failed: change_log.at"), and
    /// which no reader could show before year 1 (helper-77).
    private static func refuseAClockOutsideTheCalendar() throws {
        let now = Date()
        guard now.isSupported else {
            throw CommandFailure("the system clock reads \(now.textForMessages), outside \(CalendarDay.supportedYearsText), "
                                 + "which Logbook stores; nothing was written (set the clock right first)")
        }
    }

    /// Whether the regular file at `path` is empty and stays so for a second: a file that another
    /// process is creating right now is empty only until its first transaction commits.
    private static func staysEmpty(_ path: String) -> Bool {
        // Timed by a clock the wall clock's steps do not move (helper-77).
        let deadline = ContinuousClock.now + .seconds(1)
        while true {
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size == 0,
                  !holdsBytes(path) else { return false }
            if ContinuousClock.now > deadline { return true }
            usleep(20_000)
        }
    }

    /// Whether a byte can be read from `path`: a file that says it has size 0 may still hold some
    /// (`/proc/self/status`).
    private static func holdsBytes(_ path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var byte: UInt8 = 0
        return read(descriptor, &byte, 1) == 1
    }

    /// For commands that only read: an existing database with every migration applied. Nothing is
    /// created, migrated or written.
    func readStore() throws -> Logbook {
        if let store = opened.store { return store }
        let store = try Logbook.openForReading(path: try databaseFilePath(), timeZone: try storeTimeZone(), options: try connectionOptions())
        opened.store = store
        return store
    }

    /// For `import --dry-run` and `repair --dry-run`, which write inside a transaction they roll
    /// back: the database as it is, refused as the commands that read refuse it (pending
    /// migrations, another schema, text stored as UTF-16), never created or migrated (with no
    /// file, an empty temporary database of SQLite's: in the page cache, and beyond it in a file
    /// SQLite deletes when the command ends, so that memory stays flat however large the import).
    func dryRunStore() throws -> Logbook {
        let path = try databaseFilePath()
        try Self.refuseAClockOutsideTheCalendar()
        guard !Logbook.isMissing(path) else {
            return try Logbook(path: "", timeZone: try storeTimeZone(), options: try connectionOptions())
        }
        return try Logbook.openForReading(path: path, timeZone: try storeTimeZone(), options: try connectionOptions())
    }

    /// Opens an existing database without changing it, whatever its migration history (`check`,
    /// `migrate --status`).
    func inspectStore() throws -> Logbook {
        try Logbook.inspect(path: try databaseFilePath(), timeZone: try storeTimeZone())
    }

    /// `$LOGBOOK_CACHE_KIB` sets SQLite's page cache (default 2 MiB, 64 MiB in an import, and a quarter
    /// of that for the import's temporary tables), the bound on the memory it holds for the file.
    private func connectionOptions() throws -> Connection.Options {
        var options = Connection.Options()
        // One command runs one thing at a time: a second connection for its reads would only cost an open.
        options.maximumReaders = 0
        if arguments.isSet(Watch.flag) { options.stopsWaiting = Watch.stopsWaiting }
        if let text = environment["LOGBOOK_CACHE_KIB"] {
            guard let kib = Int(text), kib > 0 else {
                throw CommandFailure("invalid $LOGBOOK_CACHE_KIB '\(text)': expected a whole number of KiB")
            }
            options.cacheSizeKiB = kib
            options.bulkWriteCacheSizeKiB = kib
        }
        return options
    }
}

/// What a command has to say on stderr once it has succeeded, and what it does then.
final class Notices {
    var lines: [String] = []
    /// Work to do once the output is complete: written, flushed and, with `-o`, in place
    /// (`changes --state` records its token only then).
    var afterOutput: [() throws -> Void] = []
}

/// The read store of one invocation, once opened.
final class OpenedStore {
    var store: Logbook?
}

/// A failure the CLI itself detects: one `logbook: error:` line, exit status 1.
struct CommandFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
