import Foundation
import SQLiteQuery

/// The `--where` language: a hand-written tokenizer and recursive-descent parser into
/// `FilterExpression` (SQLiteQuery). Grammar, loosest binding first:
///
///     or     := and ("||" and)*
///     and    := unary ("&&" unary)*
///     unary  := "!" unary | compare
///     compare:= operand (OP operand)?        OP: == != < <= > >= contains icontains hasPrefix in
///     operand:= "(" or ")" | "[" (value ("," value)*)? "]" | field | value
///     value  := "string" | 12 | 1.5 | true | false | nil | date
///     date   := any form of ``DateExpression`` without spaces: 2026-01-31, 2026-11, 2026-W47,
///               2026-01-31T08:30:00Z, today, yesterday, monday, 7d, … (a 4-digit whole number
///               compared with a day or date field is a year)
public struct FilterParser {
    /// A syntax error at a character position of the text.
    public struct SyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
        /// What is wrong, without the position: `expected ')'`,
        /// `number '99999999999999999999' is out of range`.
        public let message: String
        /// Character offsets into the text, for a caret under the problem.
        public let position: Range<Int>

        /// The message alone; ``FilterParser/SyntaxError/position`` says where.
        public var description: String { message }
    }

    private enum Token: Equatable {
        case word(String)          // field names and keywords
        case string(String)
        case number(String)
        case temporal(String)      // a day or a date
        case symbol(String)        // operators and punctuation
        case end
    }

    /// How deep an expression may nest: parentheses, lists and `!` each add a level, and so does
    /// each `&&`, `||` and comparison. Deeper input would overflow the stack of the recursive
    /// parser and of the compiler that walks the tree.
    static let maximumDepth = 64

    private var tokens: [(token: Token, at: Range<Int>)] = []
    private var index = 0
    private var nesting = 0
    /// The clock and the time zone that relative dates (`today`, `7d`) and wall-clock times are read with.
    private let now: Date
    private let timeZone: TimeZone

    private init(now: Date, timeZone: TimeZone) {
        self.now = now
        self.timeZone = timeZone
    }

    /// Parses `text`, reading relative dates (`today`, `monday`, `7d`) at `now` in `timeZone`;
    /// throws ``SyntaxError``.
    public static func parse(_ text: String, now: Date = Date(), timeZone: TimeZone = .current) throws -> FilterExpression {
        var parser = FilterParser(now: now, timeZone: timeZone)
        parser.tokens = try tokenize(text)
        let expression = try parser.parseOr()
        guard case .end = parser.current.token else {
            throw SyntaxError(message: "unexpected \(parser.describe(parser.current.token))", position: parser.current.at)
        }
        return expression
    }

    // MARK: Parsing

    private var current: (token: Token, at: Range<Int>) { tokens[index] }

    private mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    private mutating func take(_ symbol: String) -> Range<Int>? {
        guard current.token == .symbol(symbol) else { return nil }
        defer { advance() }
        return current.at
    }

    private mutating func parseOr() throws -> FilterExpression {
        var expression = try parseAnd()
        while let at = take("||") { expression = try bounded(.or(expression, try parseAnd()), at: at) }
        return expression
    }

    private mutating func parseAnd() throws -> FilterExpression {
        var expression = try parseUnary()
        while let at = take("&&") { expression = try bounded(.and(expression, try parseUnary()), at: at) }
        return expression
    }

    private mutating func parseUnary() throws -> FilterExpression {
        if let at = take("!") {
            try enter(at)
            defer { nesting -= 1 }
            return try bounded(.not(try parseUnary(), at: at), at: at)
        }
        return try parseComparison()
    }

    private mutating func parseComparison() throws -> FilterExpression {
        let lhs = try parseOperand()
        let (token, at) = current
        let op: FilterOperator?
        switch token {
        case .symbol(let symbol): op = FilterOperator(rawValue: symbol)
        case .word(let word): op = FilterOperator.allCases.first { $0.rawValue == word && word.first?.isLetter == true }
        default: op = nil
        }
        guard let op else { return lhs }
        advance()
        if case .end = current.token {
            throw SyntaxError(message: "expected a value after '\(op.rawValue)'", position: current.at)
        }
        return try bounded(.binary(op, lhs, try parseOperand(), at: at), at: at)
    }

    /// Counts one more level of recursion for the token at `position`, refusing more than ``maximumDepth``.
    private mutating func enter(_ position: Range<Int>) throws {
        nesting += 1
        if nesting > Self.maximumDepth { throw tooDeep(position) }
    }

    /// Returns `expression`, or refuses it when its tree is deeper than ``maximumDepth``.
    private func bounded(_ expression: FilterExpression, at position: Range<Int>) throws -> FilterExpression {
        guard Self.depth(of: expression) <= Self.maximumDepth else { throw tooDeep(position) }
        return expression
    }

    private func tooDeep(_ position: Range<Int>) -> SyntaxError {
        SyntaxError(message: "the expression nests deeper than \(Self.maximumDepth) levels (each condition of a chain of && or || "
                    + "is a level of its own, so a chain joins at most \(Self.maximumDepth - 1); a list with 'in' joins any number)",
                    position: position)
    }

    private static func depth(of expression: FilterExpression) -> Int {
        switch expression {
        case .field, .literal: 1
        case .list(let items, _): 1 + (items.map(depth(of:)).max() ?? 0)
        case .not(let inner, _): 1 + depth(of: inner)
        case .and(let lhs, let rhs), .or(let lhs, let rhs), .binary(_, let lhs, let rhs, _):
            1 + max(depth(of: lhs), depth(of: rhs))
        }
    }

    private mutating func parseOperand() throws -> FilterExpression {
        let (token, at) = current
        switch token {
        case .symbol("("):
            try enter(at)
            defer { nesting -= 1 }
            advance()
            let inner = try parseOr()
            guard take(")") != nil else { throw SyntaxError(message: "expected ')'", position: current.at) }
            return inner
        case .symbol("["):
            try enter(at)
            defer { nesting -= 1 }
            advance()
            var items: [FilterExpression] = []
            if take("]") == nil {
                repeat {
                    let item = try parseOperand()
                    guard case .literal = item else { throw SyntaxError(message: "a list holds values only", position: item.position) }
                    items.append(item)
                } while take(",") != nil
                guard take("]") != nil else { throw SyntaxError(message: "expected ',' or ']'", position: current.at) }
            }
            return .list(items, at: at.lowerBound..<tokens[index - 1].at.upperBound)
        case .string(let text):
            advance()
            return .literal(.string(text), at: at)
        case .number(let text):
            advance()
            if let integer = Int64(text) {
                // Four digits are a year beside a day or date field (`day >= 2026`); `day == 15`
                // is no year, and is refused as no day.
                let isYear = text.utf8.count == 4 && text.utf8.allSatisfy { (0x30...0x39).contains($0) } && integer > 0
                return .literal(isYear ? .year(Int(integer)) : .integer(integer), at: at)
            }
            // A whole number past Int64 is out of range (as a decimal it was named `1e+20`).
            let isWhole = text.drop { $0 == "-" }.allSatisfy { $0.isASCII && $0.isNumber }
            if !isWhole, let decimal = Double(text), decimal.isFinite {
                // A fraction so close to a whole number that the nearest Double is that number
                // would compare as it (`count >= 2.0000000000000000001` as `count >= 2`).
                if decimal.rounded() == decimal && !Self.isWholeNumber(text) {
                    throw SyntaxError(message: "'\(text)' is too close to a whole number to compare exactly: write fewer digits", position: at)
                }
                return .literal(.decimal(decimal), at: at)
            }
            if isWhole || Double(text) != nil {
                throw SyntaxError(message: "number '\(text)' is out of range", position: at)
            }
            // Five digits or more, then a date's punctuation: a year past 9999.
            let year = text.prefix { $0.isASCII && $0.isNumber }
            if year.count >= 5, let next = text.dropFirst(year.count).first, "-:T".contains(next) {
                throw SyntaxError(message: "'\(text)' is no date Logbook reads: days run from 0001-01-01 to 9999-12-31", position: at)
            }
            throw SyntaxError(message: "'\(text)' is neither a number nor a date", position: at)
        case .temporal(let text):
            advance()
            return .literal(try dateLiteral(text, at: at), at: at)
        case .word(let word) where DateExpression.words.contains(word.lowercased()):
            advance()
            return .literal(try dateLiteral(word, at: at), at: at)
        case .word("true"), .word("false"):
            advance()
            return .literal(.bool(token == .word("true")), at: at)
        case .word("nil"):
            advance()
            return .literal(.null, at: at)
        case .word(let name) where !FilterOperator.allCases.contains(where: { $0.rawValue == name }):
            advance()
            return .field(name, at: at)
        case .end:
            throw SyntaxError(message: "expected a field or a value, found the end of the expression", position: at)
        default:
            throw SyntaxError(message: "expected a field or a value, found \(describe(token))", position: at)
        }
    }

    /// A date as ``DateExpression`` reads it, at the parser's clock and time zone.
    private func dateLiteral(_ text: String, at: Range<Int>) throws -> FilterLiteral {
        guard let expression = DateExpression(text) else {
            throw SyntaxError(message: "invalid date '\(text)': \(DateExpression.problem(reading: text))", position: at)
        }
        let resolved: DateExpression.Resolved
        do {
            resolved = try expression.resolved(now: now, in: timeZone)
        } catch {
            throw SyntaxError(message: "\(error)", position: at)
        }
        switch resolved {
        case .instant(let date):
            return .date(date)
        case .days(let days) where days.lowerBound == days.upperBound:
            return .day(year: days.lowerBound.year, month: days.lowerBound.month, day: days.lowerBound.day)
        case .days(let days):
            return .days(first: days.lowerBound.dayNumber, last: days.upperBound.dayNumber)
        }
    }

    private func describe(_ token: Token) -> String {
        switch token {
        case .word(let word): "'\(word)'"
        case .string(let text): "\"\(text)\""
        case .number(let text), .temporal(let text), .symbol(let text): "'\(text)'"
        case .end: "the end of the expression"
        }
    }

    // MARK: Tokens

    private static let symbols = ["==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "(", ")", "[", "]", ","]

    /// Splits `text` into tokens, scanning it scalar by scalar: a quote or a backslash followed by
    /// a combining mark is one `Character` with it, and must still open, close or escape (so that a
    /// text starting with a combining mark can be written). Token positions are `Character` offsets,
    /// for the caret.
    private static func tokenize(_ text: String) throws -> [(token: Token, at: Range<Int>)] {
        let characters = Array(text)
        let scalars = Array(text.unicodeScalars)
        // The Character offset of each scalar, and of the end.
        var offsets: [Int] = []
        offsets.reserveCapacity(scalars.count + 1)
        for (offset, character) in characters.enumerated() {
            offsets.append(contentsOf: repeatElement(offset, count: character.unicodeScalars.count))
        }
        offsets.append(characters.count)
        func at(_ start: Int, _ end: Int) -> Range<Int> { offsets[start]..<max(offsets[end], offsets[start] + 1) }
        func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
        func isLetter(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isAlphabetic || scalar == "_" }
        func word(_ range: Range<Int>) -> String {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[range])
            return String(view)
        }

        var tokens: [(token: Token, at: Range<Int>)] = []
        var position = 0
        while position < scalars.count {
            let scalar = scalars[position]
            let start = position
            if scalar.properties.isWhitespace {
                position += 1
                continue
            }
            if scalar == "\"" {
                var literal = String.UnicodeScalarView()
                position += 1
                var closed = false
                while position < scalars.count {
                    let next = scalars[position]
                    position += 1
                    if next == "\"" { closed = true; break }
                    if next == "\\" {
                        guard position < scalars.count else { break }
                        let escaped = scalars[position]
                        position += 1
                        switch escaped {
                        case "\"", "\\": literal.append(escaped)
                        case "n": literal.append("\n")
                        case "t": literal.append("\t")
                        default:
                            throw SyntaxError(message: "unknown escape '\\\(Character(escaped))' (use \\\" \\\\ \\n or \\t)",
                                              position: at(position - 2, position))
                        }
                        continue
                    }
                    literal.append(next)
                }
                guard closed else { throw SyntaxError(message: "unterminated string", position: at(start, scalars.count)) }
                tokens.append((.string(String(literal)), at(start, position)))
                continue
            }
            if isDigit(scalar) || (scalar == "-" && position + 1 < scalars.count && isDigit(scalars[position + 1])) {
                position += 1
                while position < scalars.count, isDigit(scalars[position]) { position += 1 }
                // `7d`, `2w`, `3m`, `1y`: a count of days, weeks, months or years before today.
                if position < scalars.count, "dwmy".unicodeScalars.contains(scalars[position]), isDigit(scalars[start]),
                   position + 1 == scalars.count || !(isLetter(scalars[position + 1]) || scalars[position + 1].properties.numericType != nil) {
                    position += 1
                    tokens.append((.temporal(word(start..<position)), at(start, position)))
                    continue
                }
                while position < scalars.count, isDigit(scalars[position]) || ".:-+TZtzWw".unicodeScalars.contains(scalars[position]) {
                    position += 1
                }
                let text = word(start..<position)
                // 2026-11, 2026-W47, 2026-11-19 and instants; a bare 2026 stays a number (a year only beside a day field).
                let isTemporal = text.count >= 7 && text.dropFirst(4).first == "-" && !text.hasPrefix("-")
                tokens.append((isTemporal ? .temporal(text) : .number(text), at(start, position)))
                continue
            }
            if isLetter(scalar) {
                while position < scalars.count, isLetter(scalars[position]) || scalars[position].properties.numericType != nil
                        || scalars[position] == "." {
                    position += 1
                }
                tokens.append((.word(word(start..<position)), at(start, position)))
                continue
            }
            guard let symbol = symbols.first(where: { $0.unicodeScalars.elementsEqual(scalars[position..<min(position + $0.unicodeScalars.count, scalars.count)]) }) else {
                throw SyntaxError(message: "unexpected character '\(characters[offsets[start]])'", position: at(start, start + 1))
            }
            position += symbol.unicodeScalars.count
            tokens.append((.symbol(symbol), at(start, position)))
        }
        tokens.append((.end, characters.count..<(characters.count + 1)))
        return tokens
    }
}

extension FilterParser {
    /// Whether a number's text (`2.50`, `-0.0`, `7`) names a whole number: every digit after its
    /// point is zero.
    static func isWholeNumber(_ text: String) -> Bool {
        text.split(separator: ".", maxSplits: 1).dropFirst().first?.allSatisfy { $0 == "0" } ?? true
    }
}
