import Foundation

/// The clock the in-process workloads are timed with: the wall clock, or with
/// `LOGBOOK_BENCH_CLOCK=cpu` the CPU time of the whole process (every thread's), which another
/// guest's load on a shared virtual machine stretches less. For comparing two builds on one
/// single-threaded workload (`--only-insert`); the published ratios are wall-clock.
let benchClock: clockid_t = ProcessInfo.processInfo.environment["LOGBOOK_BENCH_CLOCK"] == "cpu"
    ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC

/// Now on ``benchClock``, in nanoseconds.
func benchNanoseconds() -> UInt64 {
    var time = timespec()
    clock_gettime(benchClock, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Time of `body` on ``benchClock``, in seconds.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = benchNanoseconds()
    try body()
    return Double(benchNanoseconds() - start) / 1e9
}

/// The median of `runs` timings; `setup` runs before each, untimed.
func median(runs: Int, setup: () throws -> Void = {}, _ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<runs {
        try setup()
        times.append(try seconds(body))
    }
    return times.sorted()[times.count / 2]
}

/// The medians of `runs` timings of Logbook's and the raw engine's form of one workload, run
/// alternately, round by round (the raw engine first in the first round, so that it, not Logbook,
/// meets the cold disk and page cache, then the first of each pair alternating): a shared virtual
/// machine's drift, which moved one engine's timings by half over a minute, then stretches both
/// alike. Each `…Setup` runs before its engine's run, untimed.
func pairedMedians(runs: Int, logbookSetup: () throws -> Void = {}, logbook: () throws -> Void,
                   rawSetup: () throws -> Void = {}, raw: () throws -> Void) rethrows -> (logbook: Double, raw: Double) {
    var logbookTimes: [Double] = [], rawTimes: [Double] = []
    for round in 0..<runs {
        for rawTurn in round % 2 == 0 ? [true, false] : [false, true] {
            if rawTurn {
                try rawSetup()
                rawTimes.append(try seconds(raw))
            } else {
                try logbookSetup()
                logbookTimes.append(try seconds(logbook))
            }
        }
    }
    return (logbookTimes.sorted()[runs / 2], rawTimes.sorted()[runs / 2])
}

/// The medians, over `runs` rounds, of the total time of `calls` calls of Logbook's and of the raw
/// engine's form of one workload, run in alternate blocks of `block` calls (the first of each
/// pair of blocks alternating): within a block the caches warm as in a run of its own, and a
/// drift of the machine over seconds, which moved whole 10,000-call runs of one engine by a third
/// between runs of the same build, stretches both engines' blocks alike. Each `…Setup` runs
/// before its engine's calls of a round, untimed.
func interleavedMedians(runs: Int, calls: Int, block: Int = 100, logbookSetup: () throws -> Void = {},
                        logbook: (Int) throws -> Void, rawSetup: () throws -> Void = {},
                        raw: (Int) throws -> Void) rethrows -> (logbook: Double, raw: Double) {
    var logbookTimes: [Double] = [], rawTimes: [Double] = []
    for _ in 0..<runs {
        try logbookSetup()
        try rawSetup()
        var logbookTotal: UInt64 = 0, rawTotal: UInt64 = 0
        for (blockIndex, first) in stride(from: 0, to: calls, by: block).enumerated() {
            let range = first..<min(first + block, calls)
            for rawTurn in blockIndex % 2 == 0 ? [true, false] : [false, true] {
                let start = benchNanoseconds()
                for call in range { if rawTurn { try raw(call) } else { try logbook(call) } }
                let elapsed = benchNanoseconds() - start
                if rawTurn { rawTotal += elapsed } else { logbookTotal += elapsed }
            }
        }
        logbookTimes.append(Double(logbookTotal) / 1e9)
        rawTimes.append(Double(rawTotal) / 1e9)
    }
    return (logbookTimes.sorted()[runs / 2], rawTimes.sorted()[runs / 2])
}

/// The medians, over `runs` rounds, of the total time of `calls` calls of `sync` and of `async`
/// made alternately, call by call, in the calling task (the first of each pair alternating too,
/// so neither always meets the cache the other warmed): a noisy machine's drift then stretches
/// both alike, and both run on the same thread. `setup` runs before each round, untimed.
func alternatingMedians(runs: Int, calls: Int, setup: () throws -> Void = {}, sync: (Int) throws -> Void,
                        async: (Int) async throws -> Void) async rethrows -> (sync: Double, async: Double) {
    var syncTimes: [Double] = [], asyncTimes: [Double] = []
    for _ in 0..<runs {
        try setup()
        var syncTotal: UInt64 = 0, asyncTotal: UInt64 = 0
        for call in 0..<calls {
            for syncFirst in call % 2 == 0 ? [true, false] : [false, true] {
                let start = benchNanoseconds()
                if syncFirst { try sync(call) } else { try await async(call) }
                let elapsed = benchNanoseconds() - start
                if syncFirst { syncTotal += elapsed } else { asyncTotal += elapsed }
            }
        }
        syncTimes.append(Double(syncTotal) / 1e9)
        asyncTimes.append(Double(asyncTotal) / 1e9)
    }
    return (syncTimes.sorted()[runs / 2], asyncTimes.sorted()[runs / 2])
}

/// Runs a program to completion, its stdin and stdout redirected to files, and returns its wall
/// time and peak resident size in KiB. The peak comes from `/usr/bin/time`, which forks the program
/// from its own small process: a child spawned straight from this benchmark would report this
/// process's own peak (Linux carries it across `exec`). 0 when `/usr/bin/time` is missing.
func runProcess(_ path: String, _ arguments: [String], stdin: String? = nil, stdout: String = "/dev/null",
                environment: [String: String] = [:]) -> (seconds: Double, peakKiB: Int, status: Int32) {
    let timer = "/usr/bin/time"
    guard FileManager.default.isExecutableFile(atPath: timer) else {
        let result = spawn(path, arguments, stdin: stdin, stdout: stdout, environment: environment)
        return (result.seconds, 0, result.status)
    }
    let report = FileManager.default.temporaryDirectory.appendingPathComponent("logbook-bench-time-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: report) }
    let result = spawn(timer, ["-f", "%M", "-o", report, path] + arguments, stdin: stdin, stdout: stdout,
                       environment: environment)
    let text = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
    let peak = text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
    return (result.seconds, peak, result.status)
}

/// Runs a program to completion straight from this process (no `/usr/bin/time` in between, for
/// timing start-up): its wall time and exit status.
func spawn(_ path: String, _ arguments: [String], stdin: String? = nil, stdout: String = "/dev/null",
           environment: [String: String] = [:]) -> (seconds: Double, status: Int32) {
    var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin ?? "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    let merged = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
    let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let start = DispatchTime.now().uptimeNanoseconds
    guard posix_spawn(&pid, path, &actions, nil, argv, envp) == 0 else { return (0, -1) }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    return (elapsed, (status >> 8) & 0xFF)
}
