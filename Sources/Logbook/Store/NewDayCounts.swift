import SQLiteQuery

/// The exercises of new days (days with no record before the writing transaction, and the days
/// that waited for it to be tallied: ``TalliedThrough``) counted in memory per week, month and
/// year and per name key, for ``ExerciseTallies`` to write to the derived tables in batches.
///
/// Names are interned (by UTF-8 bytes, as SQLite compares text), so that a day costs one hash of
/// each name and the rest is arithmetic on indexes. Days that share their week, month and year
/// are counted together first, one tally per name (the ``segment``), and each kind of period keeps
/// the one it is counting open, by name index in a plain array, gaining a segment when a day of
/// another week or month comes, and added to ``tallies`` when a day of another period comes: days
/// in order, as a bulk import brings them, cost one tally update per name, not one per name and
/// period, and no dictionary look-up. Days in any order count the same.
struct NewDayCounts {
    /// One name key's count in one period.
    struct Tally {
        /// The smallest spelling (in UTF-8 byte order, as SQLite's `min()`), by its index in ``spellings``.
        var spelling: Int
        var exercises: Int
        /// The days of the period the name was done on, the first and the last of them.
        var days: Int
        var firstDay: CalendarDay
        var lastDay: CalendarDay

        /// No count: what a name not done in a period has in ``PeriodCounts/tallies``.
        static let none = Tally(spelling: 0, exercises: 0, days: 0, firstDay: .first, lastDay: .first)

        /// Adds `other`, a count of the same name key (its spellings' indexes in `spellings`).
        mutating func add(_ other: Tally, spellings: [String]) {
            if other.spelling != spelling { spelling = NewDayCounts.smaller(spelling, other.spelling, in: spellings) }
            exercises += other.exercises
            days += other.days
            if other.firstDay < firstDay { firstDay = other.firstDay }
            if other.lastDay > lastDay { lastDay = other.lastDay }
        }
    }

    /// A period and a name key, by its index in ``keys``.
    struct Key: Hashable {
        let period: PeriodStart
        let name: Int

        func hash(into hasher: inout Hasher) {
            // One word instead of five: a bulk import looks up a key per name and closed period.
            hasher.combine(name << 32 | period.packed)
        }
    }

    /// The totals of one new day, a row of `exercise_day_totals`.
    struct DayTotals {
        let day: CalendarDay
        let exercises: Int
        let distinctExercises: Int
        let topExercise: String

        init(day: CalendarDay, exercises: Int, distinctExercises: Int, topExercise: String) {
            self.day = day
            self.exercises = exercises
            self.distinctExercises = distinctExercises
            self.topExercise = topExercise
        }

        /// The totals of `day`, whose exercises are `names` (one entry per name key, as
        /// ``DistinctNames`` counts them); nil for none.
        init?(day: CalendarDay, names: [ExerciseTallies.DistinctName]) {
            guard let top = ExerciseTallies.mostDone(names) else { return nil }
            self.init(day: day, exercises: names.reduce(0) { $0 + $1.count }, distinctExercises: names.count, topExercise: top.name)
        }
    }

    /// The name keys counted, each once.
    private(set) var keys: [String] = []
    /// The spellings counted, each once (by UTF-8 bytes).
    private(set) var spellings: [String] = []
    /// The counts of the closed months and years; see ``closeOpenPeriods()``.
    private(set) var tallies: [Key: Tally] = [:]
    /// How many days with an exercise each closed period gained.
    private(set) var activeDays: [PeriodStart: Int] = [:]
    /// The totals of each closed week counted in one visit (its new days one after another, as in
    /// a bulk import in order). A week's names are not kept, so a week whose days came apart has
    /// none here, and is recounted from its rows.
    private(set) var weekTotals: [PeriodStart: PeriodTotals.Row] = [:]

    private var keyIndexes: [ExactText: Int] = [:]
    private var spellingIndexes: [ExactText: Int] = [:]
    /// By a cheap hash of a spelling's UTF-8 bytes (``recentSlot(of:)``), the index of the spelling
    /// last interned there, -1 for none: a history repeats a few names, found here by one byte
    /// comparison instead of a look-up in ``spellingIndexes`` (hashing the name with `Hasher`,
    /// about 650 instructions a name).
    private var recentSpellings = [Int](repeating: -1, count: NewDayCounts.recentSlots)
    private static let recentSlots = 64
    /// The index in ``keys`` of each spelling's name key.
    private var keyOfSpelling: [Int] = []
    /// The period of each kind being counted: a week, a month, a year.
    private var open = ReportPeriod.totalled.map(OpenPeriod.init)
    /// The days being counted that share one week, month and year, not yet added to ``open``.
    private var segment = Segment()
    /// The distinct names of the day being added (kept to reuse its storage), and where each key is among them.
    private var dayNames: [DayName] = []
    private var dayNamePositions = PositionIndex<Int>()

    private struct DayName {
        let key: Int
        var spelling: Int
        var count: Int
    }

    private struct OpenPeriod {
        let kind: ReportPeriod
        var start: CalendarDay?
        var counts = PeriodCounts()

        init(kind: ReportPeriod) { self.kind = kind }
    }

    /// Days that share one week, month and year (``days``: the days of those periods that they may
    /// be, nil for none), counted together.
    private struct Segment {
        var days: ClosedRange<CalendarDay>?
        var counts = PeriodCounts()
    }

    /// The counts of some days, by name.
    private struct PeriodCounts {
        var days = 0
        /// By name key index; ``Tally/none`` (no days) for a name not done on those days.
        var tallies: [Tally] = []
        /// The name key indexes with a tally, in the order first done.
        var touched: [Int] = []

        /// Adds `tally`, the count of the name with key index `key`; `keyCount` is how many keys
        /// there are, `spellings` the spellings the tallies' indexes name.
        mutating func add(_ tally: Tally, key: Int, keyCount: Int, spellings: [String]) {
            if tallies.count < keyCount { tallies.append(contentsOf: repeatElement(.none, count: keyCount - tallies.count)) }
            if tallies[key].days > 0 {
                tallies[key].add(tally, spellings: spellings)
            } else {
                tallies[key] = tally
                touched.append(key)
            }
        }

        /// Forgets the counts, keeping the storage.
        mutating func removeAll() {
            for key in touched { tallies[key] = .none }
            touched.removeAll(keepingCapacity: true)
            days = 0
        }
    }

    /// Counts a new day on which `exercises` were done, and returns its totals (nil for none).
    mutating func add(_ exercises: [String], on day: CalendarDay) -> DayTotals? {
        dayNames.removeAll(keepingCapacity: true)
        dayNamePositions.removeAll()
        for name in exercises {
            let spelling = intern(name)
            let key = keyOfSpelling[spelling]
            if let position = dayNamePositions.position(of: key) {
                dayNames[position].count += 1
                dayNames[position].spelling = Self.smaller(spelling, dayNames[position].spelling, in: spellings)
            } else {
                dayNames.append(DayName(key: key, spelling: spelling, count: 1))
                dayNamePositions.append(key)
            }
        }
        let keys = self.keys
        guard let top = ExerciseTallies.mostDone(dayNames, count: \.count, key: { keys[$0.key] }) else { return nil }
        if !(segment.days?.contains(day) ?? false) {
            addSegment()
            segment.days = Self.daysSharingPeriods(with: day)
        }
        segment.counts.days += 1
        for name in dayNames {
            segment.counts.add(Tally(spelling: name.spelling, exercises: name.count, days: 1, firstDay: day, lastDay: day),
                               key: name.key, keyCount: keys.count, spellings: spellings)
        }
        return DayTotals(day: day, exercises: exercises.count, distinctExercises: dayNames.count, topExercise: spellings[top.spelling])
    }

    /// Adds the periods being counted to ``tallies`` and ``activeDays``, which then hold every count.
    mutating func closeOpenPeriods() {
        addSegment()
        for kind in open.indices { close(kind) }
    }

    /// The days that share `day`'s week, month and year.
    private static func daysSharingPeriods(with day: CalendarDay) -> ClosedRange<CalendarDay> {
        let (week, month) = (ReportPeriod.week.start(of: day), ReportPeriod.month.start(of: day))
        return max(week, month)...min(ReportPeriod.week.end(ofPeriodStartingOn: week), ReportPeriod.month.end(ofPeriodStartingOn: month))
    }

    /// Adds the segment's counts to the open week, month and year (closing any that it is not in), and empties it.
    private mutating func addSegment() {
        guard let days = segment.days else { return }
        segment.days = nil
        guard segment.counts.days > 0 else { return }
        for kind in open.indices {
            let start = open[kind].kind.start(of: days.lowerBound)
            if open[kind].start != start {
                close(kind)
                open[kind].start = start
            }
            open[kind].counts.days += segment.counts.days
            for name in segment.counts.touched {
                open[kind].counts.add(segment.counts.tallies[name], key: name, keyCount: keys.count, spellings: spellings)
            }
        }
        segment.counts.removeAll()
    }

    /// Forgets everything counted.
    mutating func removeAll() {
        closeOpenPeriods()
        keys.removeAll(keepingCapacity: true)
        spellings.removeAll(keepingCapacity: true)
        tallies.removeAll(keepingCapacity: true)
        activeDays.removeAll(keepingCapacity: true)
        weekTotals.removeAll(keepingCapacity: true)
        keyIndexes.removeAll(keepingCapacity: true)
        spellingIndexes.removeAll(keepingCapacity: true)
        for slot in recentSpellings.indices { recentSpellings[slot] = -1 }
        keyOfSpelling.removeAll(keepingCapacity: true)
        for kind in open.indices { open[kind].counts.tallies.removeAll(keepingCapacity: true) }
        segment.counts.tallies.removeAll(keepingCapacity: true)
    }

    /// The index of `name` in ``spellings``, added with its name key when new.
    private mutating func intern(_ name: String) -> Int {
        let slot = Self.recentSlot(of: name)
        let recent = recentSpellings[slot]
        if recent >= 0, spellings[recent].hasSameUTF8(as: name) { return recent }
        let index = spellingIndex(of: name)
        recentSpellings[slot] = index
        return index
    }

    /// FNV-1a of `name`'s UTF-8 bytes, as a slot of ``recentSpellings``.
    static func recentSlot(of name: String) -> Int {
        var name = name
        return Int(name.withUTF8 { FNV1a.hash($0) } % UInt32(recentSlots))
    }

    /// The index of `name` in ``spellings`` by its bytes, added with its name key when new.
    private mutating func spellingIndex(of name: String) -> Int {
        if let index = spellingIndexes[ExactText(name)] { return index }
        let key = name.comparisonKey
        let keyIndex: Int
        if let index = keyIndexes[ExactText(key)] {
            keyIndex = index
        } else {
            keyIndex = keys.count
            keys.append(key)
            keyIndexes[ExactText(key)] = keyIndex
        }
        spellings.append(name)
        keyOfSpelling.append(keyIndex)
        spellingIndexes[ExactText(name)] = spellings.count - 1
        return spellings.count - 1
    }

    /// Of two spellings of one name key (indexes in `spellings`), the one first in UTF-8 byte order.
    private static func smaller(_ spelling: Int, _ other: Int, in spellings: [String]) -> Int {
        spelling == other || !spellings[spelling].precedesInUTF8(spellings[other]) ? other : spelling
    }

    /// Adds the open period of `kind` to ``tallies`` (a month or year, merged with what an earlier
    /// visit to it counted) or ``weekTotals`` (a week's first visit), and to ``activeDays``.
    private mutating func close(_ kind: Int) {
        guard let start = open[kind].start else { return }
        let period = PeriodStart(period: open[kind].kind, start: start)
        let isFirstVisit = activeDays[period] == nil
        activeDays[period, default: 0] += open[kind].counts.days
        if period.period == .week {
            weekTotals[period] = isFirstVisit ? openWeekTotals(kind, period) : nil
        } else {
            for name in open[kind].counts.touched {
                let tally = open[kind].counts.tallies[name]
                let key = Key(period: period, name: name)
                if let position = tallies.index(forKey: key) {
                    tallies.values[position].add(tally, spellings: spellings)
                } else {
                    tallies[key] = tally
                }
            }
        }
        open[kind].counts.removeAll()
        open[kind].start = nil
    }

    /// The totals of the open week of `kind`, `period`.
    private func openWeekTotals(_ kind: Int, _ period: PeriodStart) -> PeriodTotals.Row? {
        var summary = NameSummary()
        for name in open[kind].counts.touched { summary.add(open[kind].counts.tallies[name], key: name, keys: keys) }
        return summary.totals(of: period, activeDays: open[kind].counts.days, spellings: spellings)
    }

    /// The names counted for one period, summed as a row of `exercise_period_totals` needs them.
    struct NameSummary {
        var exercises = 0
        var distinctExercises = 0
        /// The top exercise so far (``ExerciseTallies/isDoneMore(_:key:than:key:)``): its count,
        /// name key index and spelling index.
        private(set) var top: (count: Int, key: Int, spelling: Int)?

        /// Adds the tally of the name key with index `key` in `keys`.
        mutating func add(_ tally: Tally, key: Int, keys: [String]) {
            exercises += tally.exercises
            distinctExercises += 1
            if let top, !ExerciseTallies.isDoneMore(tally.exercises, key: keys[key], than: top.count, key: keys[top.key]) { return }
            top = (tally.exercises, key, tally.spelling)
        }

        /// The row of `exercise_period_totals` of `period`, its names summed here, done on
        /// `activeDays` days; nil when no name was added.
        func totals(of period: PeriodStart, activeDays: Int, spellings: [String]) -> PeriodTotals.Row? {
            guard let top else { return nil }
            return PeriodTotals.Row(period: period, activeDays: activeDays, exercises: exercises,
                                    distinctExercises: distinctExercises, topExercise: spellings[top.spelling])
        }
    }
}
