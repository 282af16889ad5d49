/// `1 exercise`, `2 exercises`: `count` and `noun`, plural (with an `s`) unless the count is one.
func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
