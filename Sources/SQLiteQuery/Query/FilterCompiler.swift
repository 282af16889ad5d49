import Foundation

extension QuerySchema {
    /// Types `filter` against this record's fields and compiles it to the IR. A day compared with a
    /// date field means that whole day in `timeZone` (`==` within it, `<=` up to its end), in a
    /// list (`in [..]`) too: the instants a wall calendar there showed as that day. Throws
    /// ``QueryError`` with the position of the problem.
    public func condition(for filter: FilterExpression, timeZone: TimeZone) throws -> QueryExpression {
        var compiler = FilterCompiler(schema: self, timeZone: timeZone)
        return try compiler.predicate(filter).expression
    }
}

/// Compiles a ``FilterExpression`` into the IR through the same ``QueryOperations`` that
/// `#Predicate` translation uses.
struct FilterCompiler<Record> {
    let schema: QuerySchema<Record>
    let timeZone: TimeZone
    var operations: QueryOperations

    init(schema: QuerySchema<Record>, timeZone: TimeZone) {
        self.schema = schema
        self.timeZone = timeZone
        operations = QueryOperations(rowKey: schema.rowKey)
    }

    /// A boolean expression.
    mutating func predicate(_ filter: FilterExpression) throws -> Operand {
        switch filter {
        case .and(let lhs, let rhs): return operations.and(try predicate(lhs), try predicate(rhs))
        case .or(let lhs, let rhs): return operations.or(try predicate(lhs), try predicate(rhs))
        case .not(let inner, _): return operations.not(try predicate(inner))
        case .binary(let op, let lhs, let rhs, let at): return try binary(op, lhs, rhs, at: at)
        case .literal(.bool(let value), _): return .boolean(value ? .true : .false)
        case .field(let name, let at):
            let (field, operand) = try self.field(name, at: at)
            guard field.kind == .bool else {
                throw QueryError.typeMismatch("'\(name)' is not true/false; compare it with something", position: at)
            }
            return .boolean(.comparison(.equal, operand.expression, .true))
        case .literal(let literal, let at):
            throw QueryError.typeMismatch("\(literal.description) is not a condition", position: at)
        case .list(_, let at):
            throw QueryError.typeMismatch("a list is not a condition", position: at)
        }
    }

    private mutating func binary(_ op: FilterOperator, _ lhs: FilterExpression, _ rhs: FilterExpression,
                                 at: Range<Int>) throws -> Operand {
        switch op {
        case .in:
            guard case .list(let items, _) = rhs else {
                throw QueryError.typeMismatch("'in' needs a list on its right, like [\"1.0\", \"1.1\"]", position: rhs.position)
            }
            let (element, kind, optional) = try scalarOperand(lhs)
            if kind == .day || kind == .date, !items.isEmpty {
                // Each item as `==` takes it: a day, a month or a week is every instant on it. Whole
                // days are merged into runs first, so that a list of consecutive days is one range,
                // and a day field's single days are one `IN` list: SQLite prepares thousands of
                // ranges joined by OR in quadratic time (8,000 days took 20 s).
                var spans: [(first: Int, last: Int)] = [], others: [FilterExpression] = []
                for item in items {
                    if let days = Self.wholeDays(of: item) { spans.append(days) } else { others.append(item) }
                }
                var runs = Self.runs(of: spans), operands: [Operand] = []
                if kind == .day, case let single = runs.filter({ $0.first == $0.last }), !single.isEmpty {
                    runs.removeAll { $0.first == $0.last }
                    let texts = single.map { Operand.value(.text(Self.dayText($0.first))) }
                    operands.append(try operations.contains(Operand(expression: .value(.null), shape: .list(texts), isOptional: false,
                                                                    comparisonKey: nil), element))
                }
                let merged = runs.map { FilterExpression.literal(.days(first: $0.first, last: $0.last), at: rhs.position) }
                return anyOf(operands + (try (merged + others).map { try binary(.equal, lhs, $0, at: $0.position) }))
            }
            let values = try items.map { try value($0, as: kind, optional: optional, for: "in") }
            return try operations.contains(Operand(expression: .value(.null), shape: .list(values), isOptional: false,
                                                   comparisonKey: nil), element)
        case .contains:
            let container = try anyOperand(lhs)
            if case .collection(let collection, _) = container.shape {
                guard case .scalar(let kind, _, _) = collection.element else {
                    throw QueryError.typeMismatch("'contains' on a collection of items; compare its .count or .doneCount instead",
                                                  position: lhs.position)
                }
                return try operations.contains(container, try value(rhs, as: kind, optional: false, for: "contains"))
            }
            return try operations.contains(try text(container, lhs), try value(rhs, as: .text, optional: false, for: "contains"))
        case .icontains:
            let container = try anyOperand(lhs)
            let needle = try value(rhs, as: .text, optional: false, for: "icontains")
            if case .collection = container.shape { return try operations.containsSameLetters(container, needle) }
            return try operations.localizedContains(try text(container, lhs), needle)
        case .hasPrefix:
            let container = try text(try anyOperand(lhs), lhs)
            return try operations.startsWith(container, try value(rhs, as: .text, optional: false, for: "hasPrefix"))
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            if let range = try dayRangeComparison(op, lhs, rhs) { return range }
            let (left, right) = try comparisonOperands(lhs, rhs, op: op)
            if op == .equal || op == .notEqual {
                return try operations.equal(left, right, negated: op == .notEqual)
            }
            if left.kind == .bool {
                throw QueryError.typeMismatch("'\(op.rawValue)' does not apply to true/false values", position: at)
            }
            let sqlOperator: ComparisonOperator = switch op {
            case .less: .less
            case .lessOrEqual: .lessOrEqual
            case .greater: .greater
            default: .greaterOrEqual
            }
            return try presentOnly([lhs, rhs], try operations.order(sqlOperator, left, right, symbol: op.rawValue))
        }
    }

    /// `comparison` made false, not SQL's unknown, where one of the `sides` is an optional field
    /// that is nil: nil is before, after and within nothing, so `!(submittedAt < 2026)` keeps the
    /// drafts never submitted, as `submittedAt >= 2026` leaves them out (SQL's NULL made `!`
    /// leave them out too).
    private mutating func presentOnly(_ sides: [FilterExpression], _ comparison: Operand) throws -> Operand {
        var result = comparison
        for side in sides {
            guard case .field = side, let (field, _, optional) = try? scalarOperand(side), optional else { continue }
            result = operations.and(try operations.equal(field, .value(.null), negated: true), result)
        }
        return result
    }

    /// A day or date field compared with whole days (a month, a week, a year, or a whole number
    /// written with four digits, read as a year; for a date field also a single day): `==` is within them, `<` before the first, `<=` up to the end of the
    /// last, `>` after the last, `>=` from the first; nil is never within them. Nil when the
    /// comparison is not of that shape.
    private mutating func dayRangeComparison(_ written: FilterOperator, _ lhs: FilterExpression,
                                             _ rhs: FilterExpression) throws -> Operand? {
        let fieldSide: FilterExpression, literalSide: FilterExpression, op: FilterOperator
        switch (lhs, rhs) {
        case (.field, .literal): (fieldSide, literalSide, op) = (lhs, rhs, written)
        case (.literal, .field): (fieldSide, literalSide, op) = (rhs, lhs, written.mirrored)
        default: return nil
        }
        guard case .field(let name, let at) = fieldSide, case .literal(let literal, _) = literalSide,
              let kind = schema.field(named: name)?.kind, kind == .day || kind == .date else { return nil }
        // A day field against one day is a plain comparison of its text; a date field against one
        // day means that whole day, as against a range of days.
        if case .day = literal, kind == .day { return nil }
        guard let (first, last) = Self.wholeDays(of: literalSide) else { return nil }
        let (field, _, optional) = try scalarOperand(fieldSide)
        // The days the comparison holds on, from one through another (nil: no bound).
        let days: (from: Int?, through: Int?)
        switch op {
        case .equal, .notEqual: days = (first, last)
        case .less: days = (nil, first - 1)
        case .lessOrEqual: days = (nil, last)
        case .greater: days = (last + 1, nil)
        case .greaterOrEqual: days = (first, nil)
        default:
            throw QueryError.typeMismatch("'\(op.rawValue)' does not apply to \(name) and a range of days", position: at)
        }
        let within = kind == .day ? try dayTexts(field, days.from, through: days.through)
                                  : try instants(field, onDays: days.from, through: days.through)
        if op == .notEqual {
            let outside = operations.not(within)
            return optional ? operations.or(try operations.equal(field, .value(.null), negated: false), outside) : outside
        }
        return try presentOnly([fieldSide], within)
    }

    /// The day numbers, first to last, that a list item of whole days holds (a day, a month, a
    /// week, a year), or nil for any other item.
    private static func wholeDays(of item: FilterExpression) -> (first: Int, last: Int)? {
        guard case .literal(let literal, _) = item else { return nil }
        switch literal {
        case .days(let first, let last): return (first, last)
        case .day(let year, let month, let day):
            let number = ProlepticGregorian.dayNumber(year: year, month: month, day: day)
            return (number, number)
        case .year(let year):
            return (ProlepticGregorian.dayNumber(year: year, month: 1, day: 1), ProlepticGregorian.dayNumber(year: year, month: 12, day: 31))
        default: return nil
        }
    }

    /// Day number `dayNumber` as a day field holds it, `YYYY-MM-DD`.
    private static func dayText(_ dayNumber: Int) -> String {
        let (year, month, day) = ProlepticGregorian.date(ofDayNumber: dayNumber)
        return String(format: "%04d-%02d-%02d", year, month, day)
    }

    /// `spans` sorted and merged where they overlap or touch.
    private static func runs(of spans: [(first: Int, last: Int)]) -> [(first: Int, last: Int)] {
        var runs: [(first: Int, last: Int)] = []
        for span in spans.sorted(by: { $0.first < $1.first }) {
            if let last = runs.last, span.first <= last.last + 1 {
                runs[runs.count - 1].last = max(last.last, span.last)
            } else {
                runs.append(span)
            }
        }
        return runs
    }

    /// `operands[0] || operands[1] || …`; false when there are none.
    private func anyOf(_ operands: [Operand]) -> Operand {
        guard let first = operands.first else { return .boolean(.false) }
        return operands.dropFirst().reduce(first) { operations.or($0, $1) }
    }

    /// A day field from day number `from` through `through` (nil: no bound), by its `YYYY-MM-DD`
    /// text. Days before 0001-01-01 or after 9999-12-31 have no text of a four-digit year (that
    /// of 10000-01-01 sorts before 2026's), so a bound past them is said as nothing or everything.
    private func dayTexts(_ field: Operand, _ from: Int?, through: Int?) throws -> Operand {
        let firstDay = ProlepticGregorian.dayNumber(year: 1, month: 1, day: 1)
        let lastDay = ProlepticGregorian.dayNumber(year: 9999, month: 12, day: 31)
        if let from, from > lastDay { return .boolean(.false) }
        if let through, through < firstDay { return .boolean(.false) }
        func text(_ dayNumber: Int) -> Operand { .value(.text(Self.dayText(dayNumber))) }
        return try bounded(field, from.flatMap { $0 >= firstDay ? (.greaterOrEqual, text($0)) : nil },
                           through.flatMap { $0 <= lastDay ? (.lessOrEqual, text($0)) : nil })
    }

    /// A date field on day numbers `from` through `through` in the time zone (nil: no bound): in
    /// one of the ranges of instants ``ProlepticGregorian/instants(fromDay:throughDay:in:)`` gives.
    private func instants(_ field: Operand, onDays from: Int?, through: Int?) throws -> Operand {
        anyOf(try ProlepticGregorian.instants(fromDay: from, throughDay: through, in: timeZone).map { range in
            try bounded(field, range.from.map { (.greaterOrEqual, .value(.real($0))) }, range.before.map { (.less, .value(.real($0))) })
        })
    }

    /// `field` against a lower and an upper bound, each left out when nil.
    private func bounded(_ field: Operand, _ lower: (ComparisonOperator, Operand)?,
                         _ upper: (ComparisonOperator, Operand)?) throws -> Operand {
        let tests = try [lower, upper].compactMap { $0 }.map { op, bound in
            try operations.order(op, field, bound, symbol: op.rawValue)
        }
        guard let first = tests.first else { return .boolean(.true) }
        return tests.dropFirst().reduce(first) { operations.and($0, $1) }
    }

    /// Both sides of a comparison: at least one must be a field, which types the other.
    private mutating func comparisonOperands(_ lhs: FilterExpression, _ rhs: FilterExpression,
                                             op: FilterOperator) throws -> (Operand, Operand) {
        if case .field = lhs {
            let (left, kind, optional) = try scalarOperand(lhs)
            if case .field = rhs {
                let (right, rightKind, _) = try scalarOperand(rhs)
                guard rightKind == kind else {
                    throw QueryError.typeMismatch("cannot compare \(kind.rawValue) with \(rightKind.rawValue)", position: rhs.position)
                }
                return (left, right)
            }
            return (left, try value(rhs, as: kind, optional: optional, for: op.rawValue))
        }
        if case .field = rhs {
            let (right, kind, optional) = try scalarOperand(rhs)
            return (try value(lhs, as: kind, optional: optional, for: op.rawValue), right)
        }
        throw QueryError.typeMismatch("a comparison needs a field on one side", position: lhs.position)
    }

    private func field(_ name: String, at: Range<Int>) throws -> (QueryField, Operand) {
        guard let field = schema.field(named: name) else {
            throw QueryError.unknownField(name, valid: schema.fieldNames, position: at)
        }
        return (field, .field(field, qualifier: schema.table))
    }

    private func anyOperand(_ filter: FilterExpression) throws -> Operand {
        guard case .field(let name, let at) = filter else {
            throw QueryError.typeMismatch("expected a field name here", position: filter.position)
        }
        return try field(name, at: at).1
    }

    private func scalarOperand(_ filter: FilterExpression) throws -> (Operand, ValueKind, Bool) {
        guard case .field(let name, let at) = filter else {
            throw QueryError.typeMismatch("expected a field name here", position: filter.position)
        }
        let (field, operand) = try self.field(name, at: at)
        guard let kind = field.kind else {
            throw QueryError.typeMismatch("'\(name)' is a collection: use '\(name) contains …' or '\(name).count'", position: at)
        }
        return (operand, kind, field.isOptional)
    }

    private func text(_ operand: Operand, _ filter: FilterExpression) throws -> Operand {
        guard operand.kind == .text else {
            throw QueryError.typeMismatch("this operator needs a text field", position: filter.position)
        }
        return operand
    }

    /// A literal typed as `kind`, or a type mismatch naming what was expected.
    private func value(_ filter: FilterExpression, as kind: ValueKind, optional: Bool, for op: String) throws -> Operand {
        guard case .literal(let literal, let at) = filter else {
            throw QueryError.typeMismatch("expected a value after '\(op)'", position: filter.position)
        }
        func mismatch(_ expected: String) -> QueryError {
            .typeMismatch("expected \(expected), found \(literal.description)", position: at)
        }
        switch (kind, literal) {
        case (_, .null):
            guard optional, op == "==" || op == "!=" else { throw mismatch(optional ? "'==' or '!=' with nil" : "a value (this field is never nil)") }
            return .value(.null)
        case (.text, .string(let text)):
            return .value(.text(text))
        case (.integer, .integer(let number)):
            return .value(.integer(number))
        case (.integer, .year(let number)):
            return .value(.integer(Int64(number)))
        case (.integer, .decimal(let number)):
            // SQLite compares a whole number with a REAL exactly: `exercises.count > 2.5` is 3 and up.
            return .value(.real(number))
        case (.bool, .bool(let flag)):
            return .value(.integer(flag ? 1 : 0))
        case (.date, .date(let date)):
            return .value(.real(date.timeIntervalSinceReferenceDate))
        case (.day, .day(let year, let month, let day)):
            return .value(.text(String(format: "%04d-%02d-%02d", year, month, day)))
        case (.uuid, .string(let text)):
            guard let uuid = UUID(uuidString: text) else { throw mismatch("a UUID") }
            return .value(.text(uuid.uuidString))
        case (.date, .string), (.day, .string):
            // `day == "2026-01-31"`: the text may well be a day; say how to write one.
            throw mismatch(kind == .day ? "a day like 2026-01-31, written without quotes"
                                        : "a date like 2026-01-31 or 2026-01-31T08:30:00Z, written without quotes")
        case (.text, _): throw mismatch("a string in double quotes")
        case (.integer, _): throw mismatch("a whole number")
        case (.bool, _): throw mismatch("true or false")
        case (.date, _): throw mismatch("a date like 2026-01-31 or 2026-01-31T08:30:00Z")
        case (.day, _): throw mismatch("a day like 2026-01-31")
        case (.uuid, _): throw mismatch("a UUID in double quotes")
        }
    }
}
