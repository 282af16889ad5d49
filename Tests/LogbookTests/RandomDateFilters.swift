import Foundation
import LogbookTestSupport
@testable import Logbook

// The date and day atoms of `RandomFilters`: a date field (`submittedAt`, `createdAt`,
// `updatedAt`, `date`) or the `day` field against an instant, a day, a month, an ISO week, a year,
// a list, or another date field, each with the `Predicate` that says what the filter language
// promises (FilterLanguage.md): a day or a range of days compared with a date field is every
// instant a wall calendar in the time zone showed as one of those days (read here with
// Foundation's calendar, record by record), also in a list; nil is before, after and within
// nothing, so only `!=` holds for it. The values are drawn next to the stored records' dates and
// days, and next to the starts of days in zones whose midnights a transition skipped or repeated,
// so that boundaries are hit exactly.

/// How an atom reads a date field of the record: `test` on the date when it is present, and
/// `whenNil` for a record whose optional field is nil.
struct DateField<Context> {
    let name: String
    let read: (_ context: Context, _ whenNil: Bool, _ test: @escaping (Expr<Date>) -> Expr<Bool>) -> Expr<Bool>

    /// A field that always holds a date.
    static func required(_ name: String, _ path: @escaping (Context) -> Expr<Date>) -> DateField {
        DateField(name: name) { context, _, test in test(path(context)) }
    }

    /// An optional field: the test's answer when it holds a date, `whenNil` when it is nil.
    static func optional(_ name: String, _ path: @escaping (Context) -> Expr<Date?>) -> DateField {
        DateField(name: name) { context, whenNil, test in
            Build.coalesce(Build.flatMap(path(context)) { test($0) }, Build.value(whenNil))
        }
    }
}

extension RandomFilters {
    /// UTC, zones whose midnight a transition skipped or repeated (Sao Paulo, Havana, Beirut),
    /// zones that set the clock back across midnight so that an hour of a day comes after the next
    /// day's start (St John's every autumn from 1987 to 2010, Casey in 2010, Guam in 1969), one
    /// that skipped a whole day (Apia, 2011-12-30), a half-hour transition (Lord Howe) and offsets
    /// that are not whole hours (Kathmandu, St John's, Chatham).
    static let timeZones = ["UTC", "America/Sao_Paulo", "America/Havana", "Asia/Beirut", "Pacific/Apia",
                            "Australia/Lord_Howe", "Asia/Kathmandu", "America/St_Johns", "Pacific/Chatham",
                            "Antarctica/Casey", "Pacific/Guam"]

    private static let utc = TimeZone(identifier: "UTC")!

    /// `field` against an instant, whole days or a list of them, or against one of `others`,
    /// with the literal on either side.
    mutating func dateAtom<C>(_ field: DateField<C>, others: [DateField<C>]) -> Term<C, Bool> {
        let op = pick(ComparisonOp.allCases)
        switch random.next() % 7 {
        case 0, 1, 2:
            let (text, date) = instant()
            return ordered(field.name, op, text) { context, op in
                field.read(context, op == .notEqual) { Build.compare($0, op, Build.value(date)) }
            }
        case 3, 4, 5:
            let days = wholeDays()
            let holding = recordDates(op == .notEqual ? .equal : op, days.first, days.last)
            return ordered(field.name, op, days.text) { context, op in
                field.read(context, op == .notEqual) { date in
                    let found = Build.contains(sequence: Build.value(holding), element: date)
                    return op == .notEqual ? Build.not(found) : found
                }
            }
        default:
            if !others.isEmpty && chance(0.5) {
                let other = pick(others)
                return Term("\(field.name) \(op.symbol) \(other.name)") { context in
                    field.read(context, op == .notEqual) { lhs in
                        other.read(context, op == .notEqual) { rhs in Build.compare(lhs, op, rhs) }
                    }
                }
            }
            // In a list, as with `==`: an instant itself, whole days every instant on them.
            let items: [(text: String, dates: [Date])] = (0..<(1 + random.next() % 3)).map { _ in
                if chance(0.5) {
                    let (text, date) = instant()
                    return (text, [date])
                }
                let days = wholeDays()
                return (days.text, recordDates(.equal, days.first, days.last))
            }
            return Term("\(field.name) in [\(items.map(\.text).joined(separator: ", "))]") { context in
                field.read(context, false) { date in
                    Self.anyOf(items.map { Build.contains(sequence: Build.value($0.dates), element: date) })
                }
            }
        }
    }

    /// The `day` field against a day, a month, an ISO week or a year (first day to last day
    /// included), or a list of days.
    mutating func dayFieldAtom<C>(_ path: @escaping (C) -> Expr<CalendarDay>) -> Term<C, Bool> {
        if chance(0.2) {
            let days = (0..<(1 + random.next() % 3)).map { _ in anchorDay() }
            return Term("day in [\(days.map(\.description).joined(separator: ", "))]") { context in
                Self.anyOf(days.map { Build.equal(path(context), Build.value($0)) })
            }
        }
        let op = pick(ComparisonOp.allCases), days = wholeDays()
        return ordered("day", op, days.text) { context, op in
            let day = path(context)
            return Self.within(op, from: Build.compare(day, .greaterOrEqual, Build.value(days.first)),
                               upTo: Build.compare(day, .lessOrEqual, Build.value(days.last)),
                               before: Build.compare(day, .less, Build.value(days.first)),
                               after: Build.compare(day, .greater, Build.value(days.last)))
        }
    }

    /// `field op literal`, or half the time `literal op' field` with the mirrored operator: `make`
    /// builds the expression for the field-first form.
    private mutating func ordered<C>(_ field: String, _ op: ComparisonOp, _ literal: String,
                                     _ make: @escaping (C, ComparisonOp) -> Expr<Bool>) -> Term<C, Bool> {
        guard chance(0.5) else { return Term("\(field) \(op.symbol) \(literal)") { make($0, op) } }
        let mirrored: ComparisonOp = switch op {
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        case .equal, .notEqual: op
        }
        return Term("\(literal) \(mirrored.symbol) \(field)") { make($0, op) }
    }

    /// What a comparison with whole days means, from its four parts: within is from the first day
    /// and up to the end of the last; `<` before the first, `>` after the last.
    private static func within(_ op: ComparisonOp, from: Expr<Bool>, upTo: Expr<Bool>, before: Expr<Bool>,
                               after: Expr<Bool>) -> Expr<Bool> {
        switch op {
        case .equal: Build.and(from, upTo)
        case .notEqual: Build.not(Build.and(from, upTo))
        case .less: before
        case .lessOrEqual: upTo
        case .greater: after
        case .greaterOrEqual: from
        }
    }

    /// The records' dates whose day in the time zone, as Foundation's calendar reads it (what a
    /// wall calendar there showed), is `op` the days `first` to `last`: within them, before the
    /// first, up to the last, after the last, from the first.
    private func recordDates(_ op: ComparisonOp, _ first: CalendarDay, _ last: CalendarDay) -> [Date] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return Set(anchorDates).filter { date in
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            let day = CalendarDay(year: parts.year!, month: parts.month!, day: parts.day!)!
            switch op {
            case .equal: return first <= day && day <= last
            case .notEqual: return !(first <= day && day <= last)
            case .less: return day < first
            case .lessOrEqual: return day <= last
            case .greater: return day > last
            case .greaterOrEqual: return day >= first
            }
        }.sorted()
    }

    /// `tests[0] || tests[1] || …`.
    private static func anyOf(_ tests: [Expr<Bool>]) -> Expr<Bool> {
        var result = tests[0]
        for test in tests.dropFirst() { result = Build.or(result, test) }
        return result
    }

    /// A record's day, the day of a record's date in the time zone (often of one on the edge of
    /// a day: ``RandomFilters/edges``), or a day either side.
    private mutating func anchorDay() -> CalendarDay {
        let day = if !edges.isEmpty && chance(0.5) {
            CalendarDay(pick(edges), in: timeZone)
        } else {
            anchorDays.isEmpty || chance(0.5) ? CalendarDay(pick(anchorDates), in: timeZone) : pick(anchorDays)
        }
        return CalendarDay(dayNumber: day.dayNumber + Int(random.next() % 3) - 1)!
    }

    /// Whole days as the filter language writes them (a day, a month, an ISO week, a year as a
    /// bare number), with their first and last day, worked out here with Foundation's calendars.
    private mutating func wholeDays() -> (text: String, first: CalendarDay, last: CalendarDay) {
        let day = anchorDay()
        switch random.next() % 6 {
        case 0, 4, 5:
            return (day.description, day, day)
        case 1:
            var gregorian = Calendar(identifier: .gregorian)
            gregorian.timeZone = Self.utc
            let month = gregorian.dateInterval(of: .month, for: day.start(in: Self.utc))!
            return (String(format: "%04d-%02d", day.year, day.month), CalendarDay(month.start, in: Self.utc),
                    CalendarDay(month.end.addingTimeInterval(-1), in: Self.utc))
        case 2:
            var iso = Calendar(identifier: .iso8601)
            iso.timeZone = Self.utc
            let start = day.start(in: Self.utc)
            let parts = iso.dateComponents([.yearForWeekOfYear, .weekOfYear], from: start)
            let week = iso.dateInterval(of: .weekOfYear, for: start)!
            return (String(format: "%04d-W%02d", parts.yearForWeekOfYear!, parts.weekOfYear!),
                    CalendarDay(week.start, in: Self.utc), CalendarDay(week.end.addingTimeInterval(-1), in: Self.utc))
        default:
            return (String(format: "%04d", day.year), CalendarDay(year: day.year, month: 1, day: 1)!,
                    CalendarDay(year: day.year, month: 12, day: 31)!)
        }
    }

    /// An instant next to a record's date or a day's start in the time zone (on it, or a step
    /// either side), written in ISO 8601 with `Z` or an offset and 0, 6 or 9 fractional digits;
    /// and the `Date` the text names: the `Double` nearest its decimal seconds since 2001.
    private mutating func instant() -> (text: String, date: Date) {
        let base = chance(0.5) ? pick(anchorDates) : anchorDay().start(in: timeZone)
        let digits = pick([0, 6, 6, 9])
        let step = [0: 1_000_000_000, 6: 1_000, 9: 1][digits]!
        let nanoseconds = (Int((base.timeIntervalSinceReferenceDate * 1e9 / Double(step)).rounded())
            + Int(random.next() % 3) - 1) * step
        let offsetMinutes = pick([0, 0, 345, -210, 840, -720])
        let wall = nanoseconds + offsetMinutes * 60_000_000_000
        let wallSeconds = wall >= 0 ? wall / 1_000_000_000 : -((-wall + 999_999_999) / 1_000_000_000)
        let fraction = wall - wallSeconds * 1_000_000_000
        var text = String(Date(timeIntervalSinceReferenceDate: Double(wallSeconds)).formatted(.iso8601).dropLast())
        if digits > 0 { text += "." + String(String(format: "%09d", fraction).prefix(digits)) }
        if offsetMinutes == 0 && chance(0.7) {
            text += "Z"
        } else {
            text += (offsetMinutes < 0 ? "-" : "+") + String(format: "%02d:%02d", abs(offsetMinutes) / 60, abs(offsetMinutes) % 60)
        }
        let magnitude = abs(nanoseconds)
        let decimal = "\(nanoseconds < 0 ? "-" : "")\(magnitude / 1_000_000_000)." + String(format: "%09d", magnitude % 1_000_000_000)
        return (text, Date(timeIntervalSinceReferenceDate: Double(decimal)!))
    }
}
