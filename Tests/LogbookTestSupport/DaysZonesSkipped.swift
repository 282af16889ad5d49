/// Days some zones skipped whole, so that no instant falls on them there: their first instant is
/// the next day's (Samoa and Kiribati's Line Islands crossed the date line westward, Kwajalein too).
public let daysZonesSkipped: [(zone: String, day: String)] = [
    ("Pacific/Apia", "2011-12-30"), ("Pacific/Kiritimati", "1994-12-31"), ("Pacific/Kwajalein", "1993-08-21"),
]
