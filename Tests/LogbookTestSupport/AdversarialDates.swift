import Foundation

/// Random instants built to break date formatting and parsing: any `Double` of seconds since 2001
/// in a range, with sub-microsecond parts, exact half-microsecond ties, instants next to midnight,
/// tiny and negative values, and the ends of the range.
public enum AdversarialDates {
    /// Seconds since 2001-01-01 in `range` (seconds since 2001 too).
    public static func seconds(in range: ClosedRange<Double>, using random: inout SplitMix64) -> Double {
        let value: Double
        switch random.int(0...8) {
        case 0:
            value = Double.random(in: range, using: &random)
        case 1:
            // Any bit pattern: uniform over exponents, so tiny and sub-microsecond values come up.
            let sign: Double = random.chance(0.5) ? -1 : 1
            value = sign * Double(sign: .plus, exponent: random.int(-1074...37),
                                  significand: Double.random(in: 1..<2, using: &random))
        case 2:
            // Next to a midnight in UTC, a few units in the last place either way.
            let day = Double(random.int(-730_119...2_921_575))  // days since 2001 within years 1 to 9999
            var near = day * 86_400
            for _ in 0..<random.int(0...3) { near = random.chance(0.5) ? near.nextUp : near.nextDown }
            value = near + (random.chance(0.5) ? 0 : Double(random.int(-1_000...1_000)) / 1_000_000)
        case 3:
            // A tie: whole seconds plus an odd number of 1/128 s is exactly half a microsecond off.
            let whole = Double(random.int(-1 << 40...1 << 40))
            value = whole + Double(2 * random.int(0...63) + 1) / 128
        case 4:
            // Whole seconds plus a whole number of microseconds, as a text format writes them.
            value = Double(random.int(-4_000_000_000...4_000_000_000)) + Double(random.int(0...999_999)) / 1_000_000
        case 5:
            // A sub-microsecond part on a recent instant (`Date()` has one).
            value = Double(random.int(0...1_000_000_000)) + Double.random(in: 0..<1, using: &random)
        case 6:
            value = random.pick([0, -0.0, 1e-7, -1e-7, 5e-7, -5e-7, 1.5e-6, .leastNonzeroMagnitude,
                                 -.leastNonzeroMagnitude, 763_936_463.809_804_3, range.lowerBound, range.upperBound,
                                 range.lowerBound.nextUp, range.upperBound.nextDown])
        case 7:
            // The second before 2001 (-1 < s < 0), where the fraction past the whole second,
            // 1 + s, does not fit a Double: often next to a half microsecond, else anywhere in it.
            var near = -(Double(random.int(0...999_999)) + 0.5) / 1_000_000
            for _ in 0..<random.int(0...3) { near = random.chance(0.5) ? near.nextUp : near.nextDown }
            value = random.chance(0.7) ? near : -Double.random(in: 0..<1, using: &random)
        default:
            // Anywhere, as raw bits.
            value = Double(bitPattern: random.next())
        }
        return range.contains(value) ? value : Double.random(in: range, using: &random)
    }
}
