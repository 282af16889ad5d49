/// Finding, splitting at and replacing one scalar (`"`, `'`, `=`, `/`) wherever it is in a text.
///
/// Swift's `Character` operations (`split(separator:)`, `firstIndex(of:)`, `hasSuffix(_:)`) and
/// Foundation's `replacingOccurrences(of:with:)` see grapheme clusters: a `'` that a combining mark
/// follows, or a `/` that a prepended mark (U+0600) comes before, is part of a larger character
/// and passed over, while SQL, PostgreSQL, the file system and a shell see the scalar itself
/// (helper-61: a quote left single in the PostgreSQL script ran the text after it as SQL). Text
/// that goes to one of them, or that says where one part of an argument ends, is read here, a
/// scalar at a time.
extension String {
    /// This text with every `scalar` replaced by `replacement`.
    package func replacingEvery(_ scalar: Unicode.Scalar, with replacement: String) -> String {
        var result = String.UnicodeScalarView()
        for each in unicodeScalars {
            if each == scalar { result.append(contentsOf: replacement.unicodeScalars) } else { result.append(each) }
        }
        return String(result)
    }

    /// The parts between the `separator` scalars, empty parts kept (`"a//b"`: `a`, ``, `b`).
    package func split(atEvery separator: Unicode.Scalar) -> [String] {
        unicodeScalars.split(separator: separator, omittingEmptySubsequences: false).map { String($0) }
    }

    /// The text before and after the first `separator`; nil without one.
    package func split(atFirst separator: Unicode.Scalar) -> (before: String, after: String)? {
        unicodeScalars.firstIndex(of: separator).map(split(at:))
    }

    /// The text before and after the last `separator`; nil without one.
    package func split(atLast separator: Unicode.Scalar) -> (before: String, after: String)? {
        unicodeScalars.lastIndex(of: separator).map(split(at:))
    }

    /// Whether the first scalar is `scalar` (`"/\u{301}t"` is an absolute path, which
    /// `hasPrefix("/")` denies).
    package func begins(with scalar: Unicode.Scalar) -> Bool { unicodeScalars.first == scalar }

    /// Whether the last scalar is `scalar` (`"a\u{600}/"` ends in `/`, which `hasSuffix` denies).
    package func ends(with scalar: Unicode.Scalar) -> Bool { unicodeScalars.last == scalar }

    private func split(at index: String.UnicodeScalarView.Index) -> (before: String, after: String) {
        (String(unicodeScalars[..<index]), String(unicodeScalars[unicodeScalars.index(after: index)...]))
    }
}
