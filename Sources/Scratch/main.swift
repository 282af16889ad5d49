import Foundation
import Logbook
let tz = TimeZone(identifier: "Pacific/Kiritimati")!
let last = Date(iso8601: "9999-12-31T23:59:59.999999Z")!
print(last.timeIntervalSinceReferenceDate, tz.secondsFromGMT(for: last), CalendarDay(exactly: last, in: tz) as Any)
do { print(try CalendarDay.storable(last, in: tz)) } catch { print("threw", error) }
