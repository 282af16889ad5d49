import Foundation

/// `logbook-bench`'s command line, checked before any work: `--help` prints the usage, and an
/// unknown option, a missing value or one that is not a positive whole number stops the run with
/// exit status 2 (a mistyped `--days` used to run the whole twelve-minute bench at its default
/// size, and `--runs` as the last argument crashed).
struct BenchOptions {
    static let usage = """
        usage: logbook-bench [--quick] [--runs N] [--only-insert | --only-fetches | --only-saves] [--days N] [--fetches N]
               logbook-bench --scale [--sizes 1000000,5000000,10000000]
               logbook-bench --reports FILE [--runs N] [--report NAME]

        Times Logbook's workloads beside a raw C-API engine on Logbook's own schema, in one process,
        and prints one line per workload with the ratio; every workload also checks that both
        engines return the same results (exit 1 if they do not).

          --quick          tiny sizes, once: CI's check that every workload runs and both engines agree
          --runs N         the median of N runs per workload (default 3; 1 with --quick, 2 with --reports)
          --only-insert    stop after the insert (for profiling it)
          --only-fetches   stop after the range fetches, the fetch of everything and the counts
          --only-saves     the insert, then only the saves of one day each
          --days N         the history's size in days, 5 exercises each (default 200000)
          --fetches N      how many range fetches and counts run (default 10000)
          --scale          import and query 1, 5 and 10 million exercises (about 15 minutes)
          --sizes A,B,…    the scale curve's sizes in exercises
          --reports FILE   time each report on an existing logbook
          --report NAME    with --reports, only that report (say "by week")

        Environment: LOGBOOK_BENCH_READERS=N sets the store's read pool (0: reads on the writer);
        LOGBOOK_BENCH_CLOCK=cpu times CPU instead of wall.
        """

    private static let flags: Set<String> = ["--quick", "--only-insert", "--only-fetches", "--only-saves", "--scale"]
    private static let numberOptions: Set<String> = ["--runs", "--days", "--fetches"]
    private static let textOptions: Set<String> = ["--sizes", "--reports", "--report"]

    private var presentFlags: Set<String> = []
    private var numbers: [String: Int] = [:]
    private var texts: [String: String] = [:]

    /// Whether `flag` (say `--quick`) was given.
    func has(_ flag: String) -> Bool { presentFlags.contains(flag) }
    /// The whole number given after `option`, if it was given.
    func number(_ option: String) -> Int? { numbers[option] }
    /// The text given after `option`, if it was given.
    func text(_ option: String) -> String? { texts[option] }

    /// The scale curve's sizes from `--sizes`, if given.
    var sizes: [Int]? {
        get throws {
            guard let list = text("--sizes") else { return nil }
            let sizes = list.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
            guard !sizes.isEmpty, sizes.allSatisfy({ ($0 ?? 0) > 0 }) else {
                throw UsageError(message: "--sizes takes positive whole numbers separated by commas, not \"\(list)\"")
            }
            return sizes.compactMap { $0 }
        }
    }

    /// A mistake in the command line, said in one line.
    struct UsageError: Error { let message: String }

    /// Reads `arguments` (without the program's name); `nil` when `--help` or `-h` asked for the usage.
    init?(_ arguments: [String]) throws {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--help" || argument == "-h" { return nil }
            if Self.flags.contains(argument) {
                presentFlags.insert(argument)
            } else if Self.numberOptions.contains(argument) || Self.textOptions.contains(argument) {
                guard let value = remaining.popFirst() else { throw UsageError(message: "\(argument) needs a value") }
                if Self.numberOptions.contains(argument) {
                    guard let number = Int(value), number > 0 else {
                        throw UsageError(message: "\(argument) takes a positive whole number, not \"\(value)\"")
                    }
                    numbers[argument] = number
                } else {
                    texts[argument] = value
                }
            } else {
                throw UsageError(message: "unknown option \"\(argument)\" (logbook-bench --help lists them)")
            }
        }
        let onlyFlags = ["--only-insert", "--only-fetches", "--only-saves"].filter(presentFlags.contains)
        if onlyFlags.count > 1 { throw UsageError(message: "\(onlyFlags.joined(separator: " and ")) cannot be used together") }
        if texts["--report"] != nil, texts["--reports"] == nil { throw UsageError(message: "--report NAME needs --reports FILE") }
        _ = try sizes
    }
}
