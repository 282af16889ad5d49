import Logbook

/// `backup FILE`: a consistent copy of the live database.
enum BackupCommand {
    static let command = Command(
        spec: CommandSpec(
            name: "backup", abstract: "Write a consistent copy of the database to a file, while others use it.",
            discussion: """
                Copies the database with SQLite's online backup API inside one read transaction: other \
                processes go on reading and writing, and the copy holds every change committed before it \
                began. The copy is written to a temporary file beside FILE, checked (integrity and foreign \
                keys), and only then renamed over FILE, so FILE is never half-written; a copy with a problem \
                the database does not show is refused, and rows another program left that 'repair' puts right \
                (rows of Logbook's tables without their parent, exercises with a position below 1) are copied as they are and \
                named on stderr, so that a copy can be kept before a repair. Refused when FILE is \
                the database itself or one of its files, a folder, in a folder that cannot be written, \
                read-only, or holds something other than an earlier copy of this logbook (another logbook, \
                by its id, is refused; a file from before logbook ids is taken as a copy) or an empty file. \
                Prints the copy's path and size on stderr. The copy is an ordinary Logbook database: use it \
                with --db.
                """,
            positionals: [PositionalSpec(name: "file", help: "Where to write the copy (an earlier copy there is replaced).")],
            examples: ["logbook backup ~/Backups/logbook-$(date +%F).sqlite",
                       "logbook backup /mnt/backup/logbook.sqlite && logbook --db /mnt/backup/logbook.sqlite check"]),
        usesNoCalendarDay: true,
        run: { invocation in
            let path = invocation.arguments.positionals[0]
            guard path != "-" && !path.isEmpty else {
                throw UsageError(message: "backup writes a file: give its path, not '\(path)'", command: "backup")
            }
            let summary = try invocation.readStore().backup(to: path)
            Console.note("logbook: backup written to \(summary.path) (\(summary.bytes) bytes, \(summary.pages) pages)")
            if !summary.problemsOfTheDatabase.isEmpty {
                // Shown under -q too: the copy is not a sound database.
                Console.printError("logbook: the copy holds the database's own problems, rows another program left: "
                             + summary.problemsOfTheDatabase.joined(separator: "; ") + " ('logbook repair' puts them right)")
            }
        })
}
