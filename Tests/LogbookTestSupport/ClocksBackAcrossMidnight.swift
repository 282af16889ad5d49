/// Moments a zone set its clock back from after midnight to before it, so that the last hour (or
/// two) of a day came after the next day's first instant: St John's 00:01 to 23:01 in 1987 and
/// 2010, and to 22:01 in 1988; Casey 02:00 to 23:00 in 2010; Guam 00:01 to 23:01 in 1969; Arizona
/// 00:01 to 23:01 on 1944-01-01. Each zone with the transition's instant in seconds since 1970.
public let clocksBackAcrossMidnight: [(zone: String, unixTime: Double)] = [
    ("America/St_Johns", 562_127_460), ("America/St_Johns", 594_178_260), ("America/St_Johns", 1_289_097_060),
    ("Antarctica/Casey", 1_267_714_800), ("Pacific/Guam", -29_415_540), ("America/Phoenix", -820_519_140),
]
