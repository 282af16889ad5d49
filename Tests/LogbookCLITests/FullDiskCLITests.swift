import Foundation
import Logbook
import LogbookTestSupport
import SQLiteQuery
import XCTest

/// Every command that writes, run on a disk that is full or nearly full (a small tmpfs, filled
/// to a seeded number of free bytes): it succeeds, leaving the state a run with room leaves, or
/// fails with exit status 1 and one error line that says the disk is full, leaving the records
/// exactly as they were, `check` passing, and no file behind but the database's own. A copy
/// (`backup`, `export -o`) is whole or absent. Needs root to mount the tmpfs; skipped otherwise,
/// saying so. Seeded (`LOGBOOK_FULL_DISK_SEED`); `LOGBOOK_FULL_DISK_LEVELS` free-space levels
/// per command.
final class FullDiskCLITests: XCTestCase {
    private var mountPoints: [URL] = []
    /// The files holding the file systems of `mountSmallBlockDisk`, removed once unmounted.
    private var images: [URL] = []

    override func tearDownWithError() throws {
        for mountPoint in mountPoints {
            _ = try? ExternalProgram.output(of: "/bin/umount", [mountPoint.path])
            try? FileManager.default.removeItem(at: mountPoint)
        }
        for image in images { try? FileManager.default.removeItem(at: image) }
    }

    /// A tmpfs of `bytes` mounted in a new folder.
    private func mountSmallDisk(bytes: Int) throws -> URL {
        let folder = try newMountPoint()
        do {
            _ = try ExternalProgram.output(of: "/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", folder.path])
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw XCTSkip("mounting a tmpfs for a full disk needs root (mount said: \(error))")
        }
        mountPoints.append(folder)
        return folder
    }

    /// An ext4 file system of `bytes` with 1 KiB blocks and none reserved (what `mkfs.ext4` makes
    /// of a small disk), in a file mounted on a new folder: SQLite gives each 4 KiB page of the
    /// log's index one block, and the rest of the page is a hole.
    private func mountSmallBlockDisk(bytes: Int) throws -> URL {
        let folder = try newMountPoint()
        let image = folder.appendingPathExtension("ext4")
        do {
            FileManager.default.createFile(atPath: image.path, contents: nil)
            try FileHandle(forWritingTo: image).truncate(atOffset: UInt64(bytes))
            _ = try ExternalProgram.output(of: "/sbin/mkfs.ext4", ["-q", "-F", "-m", "0", "-b", "1024", image.path])
            _ = try ExternalProgram.output(of: "/bin/mount", ["-o", "loop", image.path, folder.path])
            // Its own folder out of the way: the tests compare the files on the disk.
            try FileManager.default.removeItem(at: folder.appendingPathComponent("lost+found"))
        } catch {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: image)
            throw XCTSkip("an ext4 disk of 1 KiB blocks needs mkfs.ext4, a loop device and root (\(error))")
        }
        mountPoints.append(folder)
        images.append(image)
        return folder
    }

    private func newMountPoint() throws -> URL {
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("logbook-full-disk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Fills the disk holding `folder` up to `free` bytes left, with a file named `fill`: written
    /// until the disk takes no more (a file system's blocks that map a file's blocks grow with it,
    /// so the free space `statvfs` gives is more than a file can have), then cut by `free` bytes.
    private func fill(_ folder: URL, leaving free: Int) throws -> URL {
        let file = folder.appendingPathComponent("fill")
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let zeros = [UInt8](repeating: 0, count: 1 << 16)
        var written = 0
        // Smaller pieces once a piece is refused: a file system that reserves its blocks when
        // written to (ext4) refuses a piece whole, not in part.
        for piece in [1 << 16, 1 << 12, 1 << 9, 1] {
            while case let count = zeros.withUnsafeBytes({ write(descriptor, $0.baseAddress, piece) }), count > 0 {
                written += count
            }
            XCTAssertEqual(errno, ENOSPC, "filling \(folder.path)")
        }
        XCTAssertEqual(ftruncate(descriptor, off_t(max(0, written - free))), 0)
        return file
    }

    func testEveryWriteOnAFullDiskSucceedsWholeOrFailsClearlyChangingNothing() throws {
        try everyWriteSucceedsWholeOrFailsClearly(mount: mountSmallDisk, room: 6 << 20) { random in
            // No room at all, then a few pages, then up to a megabyte.
            [0, 4_096 * Int(1 + random.next() % 16), Int(random.next() % (1 << 20))]
        }
    }

    /// The same on a file system of 1 KiB blocks. SQLite grows the log's index by writing a byte
    /// at the end of each 4 KiB page, which there gives only the page's last block; with the disk
    /// full, the first store into the rest of the page killed the command with SIGBUS (exit 135, no
    /// message), after the commit with 28 to 57 KiB free: a script that tried again wrote twice
    /// (helper-103). Logbook's VFS has the index's blocks allocated when it is mapped.
    func testEveryWriteOnAFullDiskOfSmallBlocksSucceedsWholeOrFailsClearly() throws {
        try everyWriteSucceedsWholeOrFailsClearly(mount: mountSmallBlockDisk, room: 8 << 20) { random in
            // No room at all, then up to 64 KiB by the kibibyte (where SIGBUS struck), then up to a megabyte.
            [0, 1_024 * Int(1 + random.next() % 64), Int(random.next() % (1 << 20))]
        }
    }

    /// Runs every writing command (and the copies) once with room, then on the disk `mount` makes
    /// filled to each of `freeSpace`'s levels in turn: it succeeds as it did with room, or fails
    /// with exit status 1 and one line saying the disk is full, changing nothing.
    private func everyWriteSucceedsWholeOrFailsClearly(mount: (Int) throws -> URL, room: Int,
                                                       freeSpace: (inout SplitMix64) -> [Int]) throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_FULL_DISK_SEED", default: 0x4655_4C4C)
        let levels = Reliability.setting("LOGBOOK_FULL_DISK_LEVELS", default: 3)
        var random = SplitMix64(seed: seed)
        let cli = try CLIHarness()
        let writes = try WritingCommands(in: cli)
        let disk = try mount(writes.base.count + room)
        let database = disk.appendingPathComponent("logbook.sqlite")
        let copy = disk.appendingPathComponent("copy.sqlite"), exported = disk.appendingPathComponent("history.json")
        let copies: [WritingCommands.Command] = [
            WritingCommands.Command(arguments: ["backup", copy.path], damaged: false),
            WritingCommands.Command(arguments: ["export", "history", "--format", "json", "-o", exported.path], damaged: false),
        ]
        var outcomes: [String: Int] = [:]
        for command in writes.commands + copies {
            let run = { try cli.run(["--db", database.path] + command.arguments, useDatabase: false) }
            try writes.prepare(command, at: database)
            let before = try WritingCommands.state(cli, of: database)
            let roomy = try run()
            XCTAssertEqual(roomy.status, 0, "\(command.arguments): \(roomy.stderr)")
            let after = try WritingCommands.state(cli, of: database)
            let copied = try? Data(contentsOf: exported)
            for target in [copy, exported] { try? FileManager.default.removeItem(at: target) }

            for level in 0..<levels {
                let free = freeSpace(&random)[level % 3]
                let context = "seed \(seed): \(command.arguments) with \(free) bytes free"
                try writes.prepare(command, at: database)
                let filler = try fill(disk, leaving: free)
                let result = try run()
                // A first write into a new logbook on the same full disk: done, or failed leaving
                // neither the file nor the folder it made.
                let newFolder = disk.appendingPathComponent("new")
                let first = try cli.run(["--db", newFolder.appendingPathComponent("fresh.sqlite").path, "history", "add", "Squat"],
                                        useDatabase: false)
                if first.status == 0 {
                    try FileManager.default.removeItem(at: newFolder)
                } else {
                    XCTAssertFalse(FileManager.default.fileExists(atPath: newFolder.path), "\(context): a failed first write left \(first.stderr)")
                }
                try FileManager.default.removeItem(at: filler)
                let left = try FileManager.default.contentsOfDirectory(atPath: disk.path).sorted()
                let state = try WritingCommands.state(cli, of: database)
                if result.status == 0 {
                    XCTAssertEqual(state, after, "\(context): succeeded, but not as a run with room")
                    if command.arguments[0] == "export" { XCTAssertEqual(try? Data(contentsOf: exported), copied, context) }
                    if command.arguments[0] == "backup" { XCTAssertEqual(try Reliability.integrity(of: copy), ["ok"], context) }
                    outcomes["\(command.name): done", default: 0] += 1
                } else {
                    XCTAssertEqual(result.status, 1, "\(context): \(result.stderr)")
                    XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(context): \(result.stderr)")
                    XCTAssertTrue(result.stderr.contains("No space left on device") || result.stderr.contains("disk is full"),
                                  "\(context): \(result.stderr)")
                    XCTAssertEqual(state, before, "\(context): failed, and changed the records")
                    XCTAssertFalse(left.contains(copy.lastPathComponent) || left.contains(exported.lastPathComponent),
                                   "\(context): a copy was left: \(left)")
                    outcomes["\(command.name): refused", default: 0] += 1
                }
                let name = database.lastPathComponent
                let own = [name, name + "-wal", name + "-shm", copy.lastPathComponent, exported.lastPathComponent]
                XCTAssertEqual(left.filter { !own.contains($0) }, [], "\(context): files left behind")
                if state == after || !command.damaged {
                    let check = try cli.run(["--db", database.path, "check"], useDatabase: false)
                    XCTAssertEqual(check.status, 0, "\(context): \(check.stdout)\(check.stderr)")
                }
                for target in [copy, exported] { try? FileManager.default.removeItem(at: target) }
            }
        }
        print("\(name) (LOGBOOK_FULL_DISK_SEED=\(seed)): \(levels) levels of free space for each of "
              + "\(writes.commands.count + copies.count) commands: "
              + outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }

    /// A reading command on a full disk of small blocks reads, beside another program that holds
    /// the file open, and a writing one fails saying so, changing nothing: the other program's
    /// `-shm`, made by SQLite's default VFS, has holes, and the first form of Logbook's VFS, which
    /// had every region it mapped given its blocks, refused the read for them (helper-105).
    func testAFullDiskOfSmallBlocksBesideAnotherProgramStillReads() throws {
        let cli = try CLIHarness()
        let disk = try mountSmallBlockDisk(bytes: 8 << 20)
        let database = disk.appendingPathComponent("logbook.sqlite").path
        XCTAssertEqual(try cli.run(["--db", database, "history", "add", "Squat", "--at", "2026-01-01T10:00:00Z"], useDatabase: false).status, 0)
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [database]
        let input = Pipe(), output = Pipe()
        shell.standardInput = input
        shell.standardOutput = output
        try shell.run()
        defer {
            try? input.fileHandleForWriting.close()
            shell.waitUntilExit()
        }
        // The shell opens the file and its log, and holds them while Logbook runs.
        try input.fileHandleForWriting.write(contentsOf: Data("SELECT count(*) FROM exercise_days;\n".utf8))
        XCTAssertEqual(String(decoding: output.fileHandleForReading.availableData, as: UTF8.self), "1\n")
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        let filler = try fill(disk, leaving: 0)
        let listed = try cli.run(["--db", database, "history", "list", "--format", "csv"], useDatabase: false)
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stdout.contains(",Squat"), listed.stdout)
        let added = try cli.run(["--db", database, "history", "add", "Row"], useDatabase: false)
        XCTAssertEqual(added.status, 1, added.stderr)
        XCTAssertTrue(added.stderr.contains("No space left on device") || added.stderr.contains("disk is full"), added.stderr)
        try FileManager.default.removeItem(at: filler)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: database)), before)
        XCTAssertEqual(try cli.run(["--db", database, "count", "history", "--where", "exercises contains \"Row\""],
                                   useDatabase: false).stdout, "0\n")
    }

    /// A backup onto an earlier copy on a full disk fails saying so, with the earlier copy byte for
    /// byte as it was and nothing beside it, and the next backup with room replaces it. (The look
    /// at whether the target is a Logbook database opened it as a store, which left a `-wal` and a
    /// `-shm` beside it when the disk was full, called it "something other than a Logbook
    /// database", and refused every later backup to the path; helper-51.) Seeded
    /// (`LOGBOOK_FULL_DISK_SEED`): the free space.
    func testABackupOntoAnEarlierCopyOnAFullDiskLeavesItAndNothingElse() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_FULL_DISK_SEED", default: 0x4655_4C4C)
        var random = SplitMix64(seed: seed)
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["import", CLIHarness.fixture("history.plist").path]).status, 0)
        let disk = try mountSmallDisk(bytes: 2 << 20)
        let copy = disk.appendingPathComponent("copy.sqlite")
        XCTAssertEqual(try cli.run(["backup", copy.path]).status, 0)
        XCTAssertEqual(try cli.run(["history", "add", "Squat"]).status, 0)
        var refused = 0
        for level in 0..<6 {
            let free = [0, 4_096 * random.int(1...8), random.int(0...(64 << 10))][level % 3]
            let earlier = try Data(contentsOf: copy)
            let filler = try fill(disk, leaving: free)
            let result = try cli.run(["backup", copy.path])
            try FileManager.default.removeItem(at: filler)
            let context = "seed \(seed), \(free) bytes free"
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: disk.path), ["copy.sqlite"], context)
            if result.status != 0 {
                XCTAssertFailure(result, status: 1, mentioning: "disk is full")
                XCTAssertEqual(try Data(contentsOf: copy), earlier, "\(context): the earlier copy changed")
                refused += 1
            }
            XCTAssertEqual(try cli.run(["backup", copy.path]).status, 0, "\(context): the next backup with room")
        }
        XCTAssertGreaterThan(refused, 0, "seed \(seed): no backup met a full disk")
    }

    /// Migrating a file of an earlier version needs room for a copy of what a migration rebuilds
    /// (0017: the exercises table and its index, in the write-ahead log until it commits). On a
    /// disk without it, `logbook migrate` fails with one line that says the disk is full, the file
    /// byte for byte as it was and nothing left beside it; with room it then migrates, every
    /// exercise row as it was. A file several versions behind (schema 5, the first release's, and
    /// 16) is left as it was too: the pending migrations are one transaction (the disk filling in a
    /// later one left it at schema 8, 16 or 17; helper-1). Seeded (`LOGBOOK_FULL_DISK_SEED`): the
    /// history and the free space.
    func testMigratingOnAFullDiskFailsClearlyChangingNothing() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_FULL_DISK_SEED", default: 0x4655_4C4C)
        var random = SplitMix64(seed: seed)
        let cli = try CLIHarness()
        for start in ["0006_", "0017_"] {
            let older = cli.folder.appendingPathComponent("older-\(start).sqlite")
            try Reliability.writeOlderLogbook(at: older, before: start, days: 2_000 + Int(random.next() % 6_000))
            let rowsBefore = try Reliability.exerciseRows(in: older)
            let bytes = try Data(contentsOf: older)
            let disk = try mountSmallDisk(bytes: bytes.count * 2 + 4 << 20)
            let database = disk.appendingPathComponent("logbook.sqlite")
            for level in 0..<3 {
                let free = [0, 4_096 * Int(1 + random.next() % 16), Int(random.next() % UInt64(bytes.count / 4))][level]
                let context = "seed \(seed): migrating \(bytes.count) bytes before \(start) with \(free) bytes free"
                try? FileManager.default.removeItem(at: database)
                try bytes.write(to: database)
                let filler = try fill(disk, leaving: free)
                let result = try cli.run(["--db", database.path, "migrate"], useDatabase: false)
                try FileManager.default.removeItem(at: filler)
                XCTAssertEqual(result.status, 1, "\(context): \(result.stdout)\(result.stderr)")
                XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(context): \(result.stderr)")
                XCTAssertTrue(result.stderr.contains("disk is full") || result.stderr.contains("No space left on device"),
                              "\(context): \(result.stderr)")
                XCTAssertEqual(try Data(contentsOf: database), bytes, "\(context): the file changed")
                let left = try FileManager.default.contentsOfDirectory(atPath: disk.path).sorted()
                XCTAssertEqual(left.filter { !["logbook.sqlite", "logbook.sqlite-wal", "logbook.sqlite-shm"].contains($0) }, [], "\(context): \(left)")
            }
            let roomy = try cli.run(["--db", database.path, "migrate"], useDatabase: false)
            XCTAssertEqual(roomy.status, 0, "seed \(seed): \(roomy.stderr)")
            XCTAssertEqual(try Reliability.exerciseRows(in: database), rowsBefore, "seed \(seed), before \(start)")
            try? FileManager.default.removeItem(at: database)
        }
    }
    /// The first release's file, migrated with free space from none to plenty in steps of a page:
    /// at every level `migrate` either succeeds, the file migrated and sound, or fails with one
    /// line, the file byte for byte as it was. Between the two (98 to 101 KB free) the migrations
    /// committed and the comparison keys' refresh, a transaction of its own, then failed: exit 1
    /// with the file migrated (helper-6). A sweep, not seeded: every level is tried.
    func testMigratingTheFirstReleasesFileIsWholeOrNothingAtEveryFreeSpace() throws {
        let cli = try CLIHarness()
        let bytes = try Data(contentsOf: CLIHarness.fixture("logbook-0.1.sqlite3"))
        let disk = try mountSmallDisk(bytes: bytes.count * 4 + 1 << 20)
        let database = disk.appendingPathComponent("logbook.sqlite")
        var outcomes: [String: Int] = [:]
        for free in stride(from: 0, through: 240 << 10, by: 4_096) {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
            try bytes.write(to: database)
            let filler = try fill(disk, leaving: free)
            let result = try cli.run(["--db", database.path, "migrate"], useDatabase: false)
            try FileManager.default.removeItem(at: filler)
            let context = "\(free) bytes free"
            if result.status == 0 {
                outcomes["migrated", default: 0] += 1
                XCTAssertEqual(try cli.run(["--db", database.path, "check"], useDatabase: false).status, 0, context)
            } else {
                outcomes["refused", default: 0] += 1
                XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(context): \(result.stderr)")
                XCTAssertEqual(try Data(contentsOf: database), bytes, "\(context): failed, and the file changed")
            }
        }
        print("FullDiskCLITests: the first release's file migrated at each free space: \(outcomes)")
        XCTAssertGreaterThan(outcomes["migrated", default: 0], 0)
        XCTAssertGreaterThan(outcomes["refused", default: 0], 0)
    }

    /// An import of 10,000 days (large enough that it refreshes the planner's statistics) into a
    /// small logbook, with free space stepped a page at a time around the least it needs: at every
    /// level it succeeds with every day stored, or fails with one line and the logbook's one day
    /// as it was. The statistics were a transaction of their own after the import's commit: just
    /// below what the import needed with them, it failed (exit 1, "disk is full") with every record
    /// saved (helper-10). The least free space that succeeds is found by bisection first.
    func testAnImportThatRefreshesStatisticsIsWholeOrNothingAtEveryFreeSpace() throws {
        let cli = try CLIHarness()
        let first = try XCTUnwrap(CalendarDay("1990-01-01"))
        let records = (0..<10_000).map { index in
            let id = String(format: "00000000-0000-4000-8000-%012X", index)
            return #"{"id":"\#(id)","day":"\#(first.adding(days: index)!)","exercises":["Squat","Row"]}"#
        }.joined(separator: "\n") + "\n"
        let file = cli.folder.appendingPathComponent("days.ndjson")
        try Data(records.utf8).write(to: file)
        let small = cli.folder.appendingPathComponent("small.sqlite")
        XCTAssertEqual(try cli.run(["--db", small.path, "--time-zone", "UTC", "history", "add", "--at", "2026-01-01 10:00", "Squat"],
                                   useDatabase: false).status, 0)
        let bytes = try Data(contentsOf: small)
        let disk = try mountSmallDisk(bytes: 16 << 20)
        let database = disk.appendingPathComponent("logbook.sqlite")
        func importWith(free: Int) throws -> (status: Int32, stderr: String, days: Int) {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
            try bytes.write(to: database)
            let filler = try fill(disk, leaving: free)
            let result = try cli.run(["--db", database.path, "--time-zone", "UTC", "import", file.path], useDatabase: false)
            try FileManager.default.removeItem(at: filler)
            let count = try cli.run(["--db", database.path, "count", "history"], useDatabase: false)
            return (result.status, result.stderr, Int(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1)
        }
        var (fails, fits) = (0, 8 << 20)
        XCTAssertEqual(try importWith(free: fits).status, 0, "the import fits in 8 MiB")
        while fits - fails > 4_096 {
            let middle = (fails + fits) / 2
            if try importWith(free: middle).status == 0 { fits = middle } else { fails = middle }
        }
        var outcomes: [String: Int] = [:]
        for free in stride(from: max(0, fits - 160 << 10), through: fits + 16 << 10, by: 4_096) {
            let result = try importWith(free: free)
            let context = "\(free) bytes free (the least that fits: about \(fits))"
            if result.status == 0 {
                outcomes["imported", default: 0] += 1
                XCTAssertEqual(result.days, 10_001, context)
            } else {
                outcomes["refused", default: 0] += 1
                XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(context): \(result.stderr)")
                XCTAssertEqual(result.days, 1, "\(context): failed (\(result.stderr)), and the days were saved")
            }
        }
        print("FullDiskCLITests: an import of 10,000 days at each free space: \(outcomes)")
        XCTAssertGreaterThan(outcomes["refused", default: 0], 0)
    }

    /// SQLite writes its temporary files (here an import's counts of records without ids, past
    /// the 100,000 contents it counts in memory and past a 1 MiB page cache) to a folder of its
    /// own, `SQLITE_TMPDIR` first. With that folder on a full disk and the database's disk roomy,
    /// the import fails with one line that names the folder, where it came from and what to
    /// set, not only "database or disk is full", which sent a user to the database's disk; so
    /// does the import through a symbolic link that lies on the full disk (the database's disk
    /// is the real file's, as SQLite follows the link), and a dry run into a new file, whose
    /// temporary database is in that folder. The records are as they were each time. The same
    /// import with the folder left to SQLite succeeds; and when the database's own disk is the
    /// full one, or a backup's copy is on a full disk, the message is SQLite's alone, with no
    /// advice about the temporary folder (helper-73 found the link and the full database's disk
    /// misnamed and the dry run unnamed, helper-74 the backup misnamed). A sort that spills to
    /// the full folder, which SQLite gives back as the statement fails, names it too.
    func testAFullTemporaryFolderIsNamedWhenTheDatabasesDiskHasRoom() throws {
        let cli = try CLIHarness()
        XCTAssertEqual(try cli.run(["history", "add", "--at", "2026-01-01 10:00", "Row"]).status, 0)
        var text = "day,exercise\n"
        // Days 1 to 28 of every month from the year 1000 on: 336 a year.
        for index in 0..<150_000 {
            text += String(format: "%04d-%02d-%02d,Squat\n", 1000 + index / 336, index % 336 / 28 + 1, index % 28 + 1)
        }
        let file = cli.folder.appendingPathComponent("days.csv")
        try Data(text.utf8).write(to: file)
        let temporary = try mountSmallDisk(bytes: 128 << 10)
        let link = temporary.appendingPathComponent("link.sqlite")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: cli.database)
        let before = try WritingCommands.state(cli, of: cli.database)
        let smallTemporaryFolder = ["LOGBOOK_CACHE_KIB": "1024", "SQLITE_TMPDIR": temporary.path]

        for database in [cli.database, link] {
            let refused = try cli.run(["--db", database.path, "-q", "import", file.path], environment: smallTemporaryFolder,
                                      useDatabase: false)
            XCTAssertFailure(refused, status: 1, mentioning: "disk is full", "the database's disk has",
                             "temporary files to \(temporary.path) (from SQLITE_TMPDIR), another disk", "set SQLITE_TMPDIR to a folder with room")
            XCTAssertEqual(try WritingCommands.state(cli, of: cli.database), before, "\(database.path): the records as they were")
        }
        let newFile = cli.folder.appendingPathComponent("new.sqlite")
        let dryRun = try cli.run(["--db", newFile.path, "-q", "import", "--dry-run", file.path], environment: smallTemporaryFolder,
                                 useDatabase: false)
        XCTAssertFailure(dryRun, status: 1, mentioning: "disk is full", "temporary database in \(temporary.path) (from SQLITE_TMPDIR)",
                         "set SQLITE_TMPDIR to a folder with room")
        XCTAssertFalse(FileManager.default.fileExists(atPath: newFile.path), "a dry run creates no file")

        let roomy = try cli.run(["-q", "import", file.path], environment: ["LOGBOOK_CACHE_KIB": "1024"])
        XCTAssertEqual(roomy.status, 0, roomy.stderr)
        XCTAssertEqual(try cli.run(["count", "history"]).stdout, "150001\n")

        // A sort that spills to the full folder, whose files SQLite gives back as the statement
        // fails: the database's disk has room, so the folder is named all the same.
        let sort = try cli.run(["query", "SELECT day || name AS v FROM exercises JOIN exercise_days ON day_pk = exercise_days.pk ORDER BY v DESC",
                                "--format", "csv", "-o", "sorted.csv"], environment: smallTemporaryFolder)
        XCTAssertFailure(sort, status: 1, mentioning: "disk is full", "temporary files to \(temporary.path) (from SQLITE_TMPDIR)")
        // A backup onto a full disk is the copy's disk: no word of the temporary folder.
        let copy = try mountSmallDisk(bytes: 1 << 20).appendingPathComponent("copy.sqlite")
        let backup = try cli.run(["backup", copy.path], environment: smallTemporaryFolder)
        XCTAssertFailure(backup, status: 1, mentioning: "disk is full")
        XCTAssertFalse(backup.stderr.contains("SQLITE_TMPDIR"), backup.stderr)

        // The database on a full disk of its own, SQLite's temporary folder (from TMPDIR) on a roomy one.
        let full = try mountSmallDisk(bytes: 1 << 20).appendingPathComponent("full.sqlite")
        XCTAssertEqual(try cli.run(["--db", full.path, "init"], useDatabase: false).status, 0)
        let roomyTemporary = cli.folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: roomyTemporary, withIntermediateDirectories: true)
        let fullDatabase = try cli.run(["--db", full.path, "-q", "import", file.path], environment: ["TMPDIR": roomyTemporary.path],
                                       useDatabase: false)
        XCTAssertFailure(fullDatabase, status: 1, mentioning: "disk is full")
        XCTAssertFalse(fullDatabase.stderr.contains("SQLITE_TMPDIR"), "the database's own disk is the full one: \(fullDatabase.stderr)")
    }

    /// A migration of a large first-release file that fills the database's own disk, and gives
    /// its room back as it rolls back, fails with SQLite's words alone: it was blamed on SQLite's
    /// temporary folder, already on a disk with gigabytes free ("set SQLITE_TMPDIR to a folder
    /// with room"), since the database's disk had room again when the message was made
    /// (helper-85). Seeded (`LOGBOOK_FULL_DISK_SEED`): the room the disk has beyond the file.
    func testAMigrationThatFillsTheDatabasesDiskIsNotBlamedOnTheTemporaryFolder() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_FULL_DISK_SEED", default: 0x4655_4C4C)
        var random = SplitMix64(seed: seed)
        let cli = try CLIHarness()
        let older = cli.folder.appendingPathComponent("first-release.sqlite")
        try FileManager.default.copyItem(at: CLIHarness.fixture("logbook-0.1.sqlite3"), to: older)
        try Connection(path: older.path).execute("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 60000)
            INSERT INTO exercise_days (id, day, date)
                SELECT printf('%08X-0000-4000-8000-%012X', i, i), date('1801-01-01', '+' || i || ' days'), (i - 73000) * 86400.0 FROM n;
            WITH RECURSIVE p(j) AS (SELECT 1 UNION ALL SELECT j + 1 FROM p WHERE j < 5)
            INSERT INTO exercises (day_pk, position, name, name_key)
                SELECT pk, j, 'Exercise ' || ((pk * 7 + j) % 23), 'Exercise ' || ((pk * 7 + j) % 23)
                FROM exercise_days, p WHERE day < '1990-01-01';
            """)
        let bytes = try Data(contentsOf: older)
        let roomy = cli.folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: roomy, withIntermediateDirectories: true)
        let room = Int(6 + random.next() % 19) << 20
        let disk = try mountSmallDisk(bytes: bytes.count + room)
        let database = disk.appendingPathComponent("logbook.sqlite")
        try bytes.write(to: database)
        let context = "seed \(seed): migrating \(bytes.count) bytes with \(room >> 20) MiB more on the disk"
        let result = try cli.run(["--db", database.path, "migrate"], environment: ["SQLITE_TMPDIR": roomy.path], useDatabase: false)
        XCTAssertFailure(result, status: 1, mentioning: "disk is full")
        XCTAssertFalse(result.stderr.contains("SQLITE_TMPDIR"), "\(context): the database's own disk is the full one: \(result.stderr)")
        XCTAssertEqual(try Data(contentsOf: database), bytes, "\(context): the file changed")
    }

    /// A logbook whose change log holds 100,000 expired entries, on a disk with little room: a
    /// small write succeeds, the day saved, and so does the next; the prune that follows each
    /// (in a transaction of its own) may fail for want of room without touching them. Inside the
    /// write, the prune's pages failed it with "the transaction was rolled back before it could
    /// commit", and every later write the same way (helper-12).
    func testAnExpiredChangeLogOnAFullDiskNeverFailsASmallWrite() throws {
        guard let shell = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("the sqlite3 shell is not installed (Debian package sqlite3)")
        }
        let cli = try CLIHarness()
        let prepared = cli.folder.appendingPathComponent("expired.sqlite")
        XCTAssertEqual(try cli.run(["--db", prepared.path, "history", "add", "--at", "2024-01-01 10:00", "Squat"], useDatabase: false).status, 0)
        let filled = try ExternalProgram.run(shell, [prepared.path, """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
            INSERT INTO change_log (kind, pk, id, at) SELECT 'day', i, printf('%036d', i), 0 FROM n;
            UPDATE change_log SET at = 0; PRAGMA wal_checkpoint(TRUNCATE);
            """])
        XCTAssertEqual(filled.status, 0, filled.errors)
        let bytes = try Data(contentsOf: prepared)
        let disk = try mountSmallDisk(bytes: bytes.count + 8 << 20)
        let database = disk.appendingPathComponent("logbook.sqlite")
        for free in [64 << 10, 256 << 10, 1 << 20] {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
            try bytes.write(to: database)
            let filler = try fill(disk, leaving: free)
            let first = try cli.run(["--db", database.path, "history", "add", "--at", "2024-02-01 10:00", "Row"], useDatabase: false)
            let second = try cli.run(["--db", database.path, "history", "add", "--at", "2024-02-02 10:00", "Row"], useDatabase: false)
            try FileManager.default.removeItem(at: filler)
            let days = try cli.run(["--db", database.path, "count", "history"], useDatabase: false).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let context = "\(free) bytes free"
            XCTAssertFalse((first.stderr + second.stderr).contains("rolled back before it could commit"), "\(context): \(first.stderr)\(second.stderr)")
            for result in [first, second] where result.status != 0 {
                XCTAssertTrue(result.stderr.contains("full"), "\(context): \(result.stderr)")
            }
            XCTAssertEqual(days, String(1 + [first, second].filter { $0.status == 0 }.count), context)
            if free >= 256 << 10 { XCTAssertEqual([first.status, second.status], [0, 0], "\(context): \(first.stderr)\(second.stderr)") }
        }
    }

    /// `drafts add` prints the id of a draft it committed, and no other: on a disk that fills at
    /// every free space from none to 96 KiB, a success prints the id of the draft that is there, a
    /// failure leaves no draft and stdout empty. (The id went out before the draft's pages, and the
    /// commit's last frame, had their room on the disk, and a script read the id of no draft, exit 1:
    /// helper-95.)
    func testDraftsAddPrintsTheIdOfTheDraftItCommittedAndOfNoOther() throws {
        let cli = try CLIHarness()
        let disk = try mountSmallDisk(bytes: 2 << 20)
        let database = disk.appendingPathComponent("logbook.sqlite")
        XCTAssertEqual(try cli.run(["--db", database.path, "history", "add", "Squat"], useDatabase: false).status, 0)
        var outcomes = (done: 0, refused: 0)
        for free in stride(from: 0, through: 96 << 10, by: 4 << 10) {
            let before = try cli.run(["--db", database.path, "drafts", "list", "--format", "ndjson"], useDatabase: false).lines
            let filler = try fill(disk, leaving: free)
            let added = try cli.run(["--db", database.path, "drafts", "add", "--version", "\(free)", "--item", "Tag"], useDatabase: false)
            try FileManager.default.removeItem(at: filler)
            let after = try cli.run(["--db", database.path, "drafts", "list", "--format", "ndjson"], useDatabase: false).lines
            let context = "\(free) bytes free: \(added.stderr)"
            if added.status == 0 {
                let id = added.stdout.trimmingCharacters(in: .newlines)
                XCTAssertEqual(after.count, before.count + 1, context)
                XCTAssertTrue(after.contains { $0.contains("\"id\":\"\(id)\"") }, "\(context): printed \(id), stored \(after)")
                outcomes.done += 1
            } else {
                XCTAssertEqual(added.stdout, "", "\(context): an id of no draft on stdout")
                XCTAssertEqual(after, before, context)
                outcomes.refused += 1
            }
        }
        XCTAssertGreaterThan(outcomes.refused, 0, "the disk never refused the draft: the test tested nothing")
        print("FullDiskCLITests: drafts add at 25 levels of free space: \(outcomes.done) done, \(outcomes.refused) refused")
    }
}
