import Foundation

/// Calendar arithmetic in the proleptic Gregorian calendar: the Gregorian rules extended to every
/// year, before 1582 too, as ISO 8601 and SQLite's date functions count. Foundation's `.gregorian`
/// calendar switches to the Julian calendar before 1582-10-15, so none of it is used here.
///
/// Days are numbered from 1970-01-01 (day 0), after Howard Hinnant's `days_from_civil` and
/// `civil_from_days`: exact and free of allocation for every year.
public enum ProlepticGregorian {
    /// Seconds in a calendar day without a time-zone transition.
    public static let secondsPerDay = 86_400

    /// The number of the day `year`-`month`-`day` (no range checks: month 1…12, day 1…31).
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year, month and day of day `number`.
    public static func date(ofDayNumber number: Int) -> (year: Int, month: Int, day: Int) {
        let z = number + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Whether `year` has 366 days: divisible by 4 but not by 100, or by 400 (year 0, 1 BC, is one).
    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in `month` (1…12) of `year`. No range check: any other month number gives 31.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The number of the day on which `date` falls in `timeZone`: what a wall calendar there showed.
    ///
    /// Computed on whole seconds, exactly: offsets are whole seconds, so the fraction of a second
    /// never moves an instant to another day (adding the offset in floating point rounded the last
    /// `Double` before midnight up to midnight). `date` must be finite; instants beyond about three
    /// million years give day numbers outside every calendar.
    public static func dayNumber(of date: Date, in timeZone: TimeZone) -> Int {
        let seconds = date.timeIntervalSinceReferenceDate.rounded(.down)
        guard abs(seconds) < 1e14 else { return seconds < 0 ? Int.min / 2 : Int.max / 2 }
        return dayNumber(ofLocalSeconds: Int(seconds) + referenceDateUnixTime + timeZone.secondsFromGMT(for: date))
    }

    /// The number of the day a local time falls on, given in seconds since 1970-01-01 00:00 on
    /// that clock (floor division: a negative time belongs to the day before day 0).
    private static func dayNumber(ofLocalSeconds local: Int) -> Int {
        let (quotient, remainder) = local.quotientAndRemainder(dividingBy: secondsPerDay)
        return remainder < 0 ? quotient - 1 : quotient
    }

    /// The offset of `timeZone` from UTC, in seconds, at the Unix time `unixSeconds`.
    private static func offset(at unixSeconds: Int, in timeZone: TimeZone) -> Int {
        timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(unixSeconds)))
    }

    /// Seconds between 1970-01-01 and 2001-01-01, Foundation's reference date.
    public static let referenceDateUnixTime = 978_307_200

    /// The first instant of day `number` in `timeZone`: its midnight, or, where a transition skips
    /// midnight, the first instant after the gap; where midnight happens twice, the earlier one.
    public static func startOfDay(_ number: Int, in timeZone: TimeZone) -> Date {
        let midnight = number * secondsPerDay  // as if in UTC; offsets move it by less than a day
        func offset(_ unixSeconds: Int) -> Int { Self.offset(at: unixSeconds, in: timeZone) }
        func localTime(_ unixSeconds: Int) -> Int { unixSeconds + offset(unixSeconds) }
        // Every offset in force within a day of midnight; an instant whose local time is midnight
        // is midnight minus one of them.
        var offsets: [Int] = []
        for probe in stride(from: midnight - secondsPerDay, through: midnight + secondsPerDay, by: secondsPerDay / 4) {
            let candidate = offset(probe)
            if !offsets.contains(candidate) { offsets.append(candidate) }
        }
        let exact = offsets.map { midnight - $0 }.filter { localTime($0) == midnight }
        if let earliest = exact.min() { return Date(timeIntervalSince1970: Double(earliest)) }
        // Midnight was skipped: find the transition, the first instant whose local time is past it.
        guard let largest = offsets.max(), let smallest = offsets.min() else {
            return Date(timeIntervalSince1970: Double(midnight))
        }
        var before = midnight - largest, after = midnight - smallest
        guard localTime(before) < midnight, localTime(after) > midnight else {
            return Date(timeIntervalSince1970: Double(after))
        }
        while after - before > 1 {
            let middle = before + (after - before) / 2
            if localTime(middle) >= midnight { after = middle } else { before = middle }
        }
        return Date(timeIntervalSince1970: Double(after))
    }

    /// The instants whose day in `timeZone` (``dayNumber(of:in:)``, what a wall calendar there
    /// showed) is from day number `first` through day number `last` (nil: no bound), as sorted,
    /// disjoint half-open ranges of seconds since 2001, whole numbers (nil: unbounded). Empty when
    /// `first` is after `last`.
    ///
    /// Usually one range, from the first day's ``startOfDay(_:in:)`` to the start of the day after
    /// the last. But where a transition set the clock back from after midnight to before it (the
    /// end of summer time in St John's from 1987 to 2010, 00:01 back to 23:01; Casey in 2010,
    /// 02:00 back to 23:00), that last hour of the earlier day comes after the next day's first
    /// instant: near each end the days are read off the clock, stretch by stretch between the
    /// transitions and midnights there.
    public static func instants(fromDay first: Int?, throughDay last: Int?,
                                in timeZone: TimeZone) -> [(from: Double?, before: Double?)] {
        if let first, let last, first > last { return [] }
        if first == nil && last == nil { return [(nil, nil)] }
        func offset(_ unixSeconds: Int) -> Int { Self.offset(at: unixSeconds, in: timeZone) }
        func isInside(_ unixSeconds: Int) -> Bool {
            let day = dayNumber(ofLocalSeconds: unixSeconds + offset(unixSeconds))
            return first.map { day >= $0 } ?? true && last.map { day <= $0 } ?? true
        }
        // Offsets stay within ±26 hours, so three days from either end's midnight in UTC the day is
        // surely inside or outside; only nearer can the clock run back across midnight.
        let margin = 3 * secondsPerDay
        let ends = [first.map { $0 * secondsPerDay }, last.map { ($0 + 1) * secondsPerDay }].compactMap { $0 }
        var windows: [(from: Int, to: Int)] = []
        for end in ends {
            if let previous = windows.last, previous.to >= end - margin {
                windows[windows.count - 1].to = end + margin
            } else {
                windows.append((end - margin, end + margin))
            }
        }
        // Each stretch with its day read at its start: before, between and after the windows one
        // stretch each; within a window, one from each transition or midnight to the next.
        var stretches: [(from: Int?, inside: Bool)] = [(nil, isInside(windows[0].from - 1))]
        for window in windows {
            for start in breakpoints(from: window.from, to: window.to, offset: offset) {
                stretches.append((start, isInside(start)))
            }
            stretches.append((window.to, isInside(window.to)))
        }
        var ranges: [(from: Double?, before: Double?)] = []
        for (index, stretch) in stretches.enumerated() where stretch.inside {
            let from = stretch.from.map { Double($0 - referenceDateUnixTime) }
            let before = index + 1 < stretches.count ? stretches[index + 1].from.map { Double($0 - referenceDateUnixTime) } : nil
            if let last = ranges.last, last.before != nil, last.before == from {
                ranges[ranges.count - 1].before = before
            } else {
                ranges.append((from, before))
            }
        }
        return ranges
    }

    /// `from`, then every instant in `from ..< to` where the offset changes or the local time is
    /// midnight, in order: between two of them the day on the clock stays the same. Transitions
    /// are found by reading the offset every 3 hours and bisecting to the second, so two of them
    /// less than 3 hours apart would pass for none (tzdata's closest are four days apart).
    private static func breakpoints(from: Int, to: Int, offset: (Int) -> Int) -> [Int] {
        var changes = [from], probe = from, current = offset(from)
        while probe < to {
            let next = min(probe + 3 * 3_600, to), nextOffset = offset(next)
            if nextOffset != current {
                var (before, after) = (probe, next)
                while after - before > 1 {
                    let middle = before + (after - before) / 2
                    if offset(middle) == current { before = middle } else { after = middle }
                }
                changes.append(after)
                current = nextOffset
            }
            probe = next
        }
        var points = Set(changes)
        for (index, start) in changes.enumerated() {
            let end = index + 1 < changes.count ? changes[index + 1] : to
            let local = offset(start)
            // The first instant from `start` on whose local time is a midnight, then one a day.
            var midnight = (dayNumber(ofLocalSeconds: start + local - 1) + 1) * secondsPerDay - local
            while midnight < end {
                points.insert(midnight)
                midnight += secondsPerDay
            }
        }
        return points.filter { $0 < to }.sorted()
    }
}
