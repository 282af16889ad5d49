import Foundation
import LogbookTestSupport
import XCTest
@testable import Logbook

final class DraftRepositoryTests: XCTestCase {
    func testSaveStoresEveryFieldAsGivenAndEditsStampUpdatedAt() throws {
        let clock = TestClock(instant("2026-01-01T10:00:00Z"))
        let test = try TestStore(now: { clock.now })
        let drafts = test.store.drafts
        let items = (1...40).map { ChecklistItem(title: "Step \($0)", isDone: $0 % 3 == 0) }
        // A draft moved in from an app keeps its dates, new or replacing (issue 14, case 7).
        let old = ReleaseDraft(version: "2.0", whatsNew: "Notes", checklist: items,
                               createdAt: instant("2019-05-01T08:00:00.123456Z"), updatedAt: instant("2020-02-02T02:02:02Z"))
        let saved = try drafts.save(old)
        XCTAssertEqual(saved, old)
        XCTAssertEqual(try drafts.fetch(id: saved.id), old)

        clock.advance(by: 3600)
        var changed = saved
        changed.checklist = Array(items.reversed().prefix(5))
        changed.version = "2.0.1"
        changed.createdAt = instant("2018-01-01T00:00:00Z")
        let updated = try drafts.save(changed)
        XCTAssertEqual(updated, changed)
        XCTAssertEqual(try drafts.fetch(id: saved.id)?.createdAt, instant("2018-01-01T00:00:00Z"))
        let edited = try drafts.edit(saved.id.uuidString, whatsNew: "More notes")
        XCTAssertEqual(edited.updatedAt, instant("2026-01-01T11:00:00Z"), "edits stamp the store's clock")
        XCTAssertEqual(edited.createdAt, instant("2018-01-01T00:00:00Z"))
        let fetched = try XCTUnwrap(drafts.fetch(id: saved.id))
        XCTAssertEqual(fetched.checklist, Array(items.reversed().prefix(5)))
        XCTAssertEqual(fetched.version, "2.0.1")
        XCTAssertEqual(try drafts.count(), 1)
    }

    func testItemIdsMayRepeatAcrossAndWithinDrafts() throws {
        let test = try TestStore()
        let item = ChecklistItem(title: "Shared", isDone: true)
        let first = try test.store.drafts.save(ReleaseDraft(version: "1", checklist: [item, item]))
        let second = try test.store.drafts.save(ReleaseDraft(version: "2", checklist: [item]))
        XCTAssertEqual(try test.store.drafts.fetch(id: first.id)?.checklist, [item, item])
        XCTAssertEqual(try test.store.drafts.fetch(id: second.id)?.checklist, [item])
    }

    func testChecklistOperations() throws {
        let test = try TestStore()
        let drafts = test.store.drafts
        let draft = try drafts.save(ReleaseDraft(version: "3.1"))
        let reference = draft.id.uuidString
        try drafts.addItems(["A", "B", "C"], to: reference)
        try drafts.setItem(at: 2, done: true, in: reference)
        try drafts.moveItem(from: 3, to: 1, in: reference)
        XCTAssertEqual(try drafts.fetch(id: draft.id)?.checklist.map(\.title), ["C", "A", "B"])
        try drafts.removeItem(at: 1, from: reference)
        let final = try XCTUnwrap(drafts.fetch(id: draft.id))
        XCTAssertEqual(final.checklist.map(\.title), ["A", "B"])
        XCTAssertEqual(final.summary, "1 of 2 done")
        XCTAssertEqual(try drafts.setItem(at: 2, done: false, in: reference).summary, "0 of 2 done")

        XCTAssertThrowsError(try drafts.setItem(at: 3, done: true, in: reference)) { error in
            XCTAssertEqual(error as? LogbookError, .itemPositionOutOfRange(position: 3, count: 2, draft: draft.id))
        }
        XCTAssertThrowsError(try drafts.moveItem(from: 1, to: 0, in: reference))
    }

    func testDraftsAndItemsAreAddressedByTypedIds() throws {
        let test = try TestStore()
        let drafts = test.store.drafts
        let items = ["Screenshots", "Notes", "Tag"].map { ChecklistItem(title: $0) }
        let draft = try drafts.save(ReleaseDraft(version: "2.5.0", checklist: items))
        // A version that is another draft's id in text is still that draft's version, not an id.
        let lookalike = try drafts.save(ReleaseDraft(version: draft.id.uuidString))

        XCTAssertEqual(try drafts.setItem(items[1].id, done: true, in: draft.id).checklist.map(\.isDone), [false, true, false])
        XCTAssertEqual(try drafts.moveItem(items[2].id, to: 1, in: draft.id).checklist.map(\.title), ["Tag", "Screenshots", "Notes"])
        XCTAssertEqual(try drafts.removeItem(items[0].id, from: draft.id).checklist.map(\.title), ["Tag", "Notes"])
        XCTAssertEqual(try drafts.edit(draft.id, whatsNew: "Faster").whatsNew, "Faster")
        XCTAssertEqual(try drafts.resolve(DraftReference.id(draft.id)).id, draft.id)
        XCTAssertEqual(try drafts.resolve(lookalike.id).id, lookalike.id)

        let before = try drafts.fetchAll()
        XCTAssertThrowsError(try drafts.setItem(UUID(), done: true, in: draft.id)) { error in
            guard case LogbookError.itemNotFound(_, let owner) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(owner, draft.id)
        }
        XCTAssertThrowsError(try drafts.submit(UUID())) { error in
            guard case LogbookError.draftNotFound = error else { return XCTFail("\(error)") }
        }
        // An id two items share (a file may repeat one) names neither: refused with both positions.
        var repeated = ReleaseDraft(version: "2.6.0", checklist: [ChecklistItem(title: "A"), ChecklistItem(title: "B")])
        repeated.checklist.append(ChecklistItem(id: repeated.checklist[0].id, title: "A again"))
        repeated = try drafts.save(repeated)
        let beforeRepeated = try drafts.fetchAll()
        XCTAssertThrowsError(try drafts.removeItem(repeated.checklist[0].id, from: repeated.id)) { error in
            XCTAssertEqual(error as? LogbookError, .ambiguousItem(id: repeated.checklist[0].id, positions: [1, 3], draft: repeated.id))
            XCTAssertTrue("\(error)".contains("is at positions 1, 3; name it by its position"), "\(error)")
        }
        XCTAssertEqual(try drafts.fetchAll(), beforeRepeated, "refusals change nothing")
        XCTAssertEqual(try drafts.setItem(repeated.checklist[1].id, done: true, in: repeated.id).checklist.map(\.isDone),
                       [false, true, false])
        _ = try drafts.delete(repeated.id)

        XCTAssertEqual(try drafts.fetchAll(), before, "refusals change nothing")
        XCTAssertEqual(try drafts.delete(draft.id).id, draft.id)
        XCTAssertNil(try drafts.fetch(id: draft.id))
    }

    func testSubmitRefusesEmptyVersionAndWritesNothing() throws {
        let test = try TestStore()
        let draft = try test.store.drafts.save(ReleaseDraft(version: "", checklist: [ChecklistItem(title: "x")]))
        XCTAssertThrowsError(try test.store.drafts.submit(draft.id.uuidString)) { error in
            XCTAssertEqual(error as? LogbookError, .emptyVersionOnSubmit(id: draft.id))
            XCTAssertTrue("\(error)".contains("Refusing to submit: no version set"))
        }
        XCTAssertEqual(try test.store.drafts.fetch(id: draft.id), draft)

        try test.store.drafts.edit(draft.id.uuidString, version: "4.0")
        let submitted = try test.store.drafts.submit("4.0", at: instant("2026-05-01T12:00:00.123456Z"))
        XCTAssertEqual(submitted.submittedAt, instant("2026-05-01T12:00:00.123456Z"))
        XCTAssertTrue(try XCTUnwrap(test.store.drafts.fetch(id: draft.id)).isSubmitted)
    }

    /// What a reference names, as the README says: a whole id first, then a version (as Swift's
    /// `==` compares strings), then a unique prefix of an id (ASCII hex digits and dashes, any
    /// case); several drafts for a version or a prefix are ambiguous.
    private enum Resolution: Equatable { case draft(UUID), ambiguous(Set<UUID>), notFound }

    private func documentedResolution(of reference: String, among drafts: [ReleaseDraft]) -> Resolution {
        if let id = UUID(uuidString: reference), drafts.contains(where: { $0.id == id }) { return .draft(id) }
        let byVersion = drafts.filter { $0.version == reference }
        if byVersion.count == 1 { return .draft(byVersion[0].id) }
        if byVersion.count > 1 { return .ambiguous(Set(byVersion.map(\.id))) }
        let isPrefix = !reference.isEmpty && reference.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isASCIIHexDigit || $0 == "-") }
        let byPrefix = isPrefix ? drafts.filter { $0.id.uuidString.hasPrefix(reference.uppercased()) } : []
        if byPrefix.count == 1 { return .draft(byPrefix[0].id) }
        if byPrefix.count > 1 { return .ambiguous(Set(byPrefix.map(\.id))) }
        return .notFound
    }

    /// References resolve as documented under a seeded mix (`LOGBOOK_RESOLVE_SEED`), where a
    /// mistake sends `drafts delete` or `submit` to another draft: ids that share their first
    /// characters; versions that are hex digits, prefixes of other drafts' ids in either case,
    /// whole ids of other drafts, NFC/NFD twins, case variants, the newest combining marks, the
    /// ligature U+FB00 (`uppercased()` makes it FF) and empty; and references drawn from those
    /// versions, from the ids' prefixes of 1 to 36 characters in either case, and whole ids.
    func testReferencesResolveAsDocumentedUnderASeededMix() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_RESOLVE_SEED", default: 0x5E5017E)
        var random = SplitMix64(seed: seed)
        for round in 0..<PropertyTestSettings.scaled(12, by: "LOGBOOK_PROPERTY_SCALE") {
            let test = try TestStore()
            let ids = (0..<12).map { _ in
                let hex = random.pick(["AB", "AC", "A0", "FF"]) + (0..<30).map { _ in String(random.int(0...15), radix: 16, uppercase: true) }.joined()
                let groups = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(Array(hex)[$0]) }
                return UUID(uuidString: groups.joined(separator: "-"))!
            }
            var versions = ["1", "12", "A", "a", "AB", "ab", "ac", "Café", "Cafe\u{301}", "1.0", "\u{FB00}", "ff", "", "\u{1E94A}\u{1E94B}"]
            versions += ids.prefix(3).map { random.chance(0.5) ? String($0.uuidString.prefix(random.int(1...8))).lowercased() : $0.uuidString }
            var drafts: [ReleaseDraft] = []
            for id in ids {
                drafts.append(try test.store.drafts.save(ReleaseDraft(id: id, version: random.pick(versions))))
            }
            var references = versions
            for _ in 0..<30 {
                let id = random.pick(ids).uuidString
                let prefix = String(id.prefix(random.int(1...36)))
                references.append(random.chance(0.5) ? prefix.lowercased() : prefix)
            }
            for reference in references {
                let expected = documentedResolution(of: reference, among: drafts)
                let found: Resolution
                do {
                    found = .draft(try test.store.drafts.resolve(reference).id)
                } catch LogbookError.ambiguousDraft(_, let ids) {
                    found = .ambiguous(Set(ids))
                } catch LogbookError.draftNotFound {
                    found = .notFound
                }
                XCTAssertEqual(found, expected, "seed \(seed), round \(round): \(reference.debugDescription) among "
                               + "\(drafts.map { "\($0.id.uuidString.prefix(8)) \($0.version.debugDescription)" })")
            }
        }
    }

    func testResolveByIdPrefixAndVersion() throws {
        let test = try TestStore()
        let drafts = test.store.drafts
        let a = try drafts.save(ReleaseDraft(id: UUID(uuidString: "AAAAAAAA-0000-0000-0000-000000000001")!, version: "1.0"))
        let b = try drafts.save(ReleaseDraft(id: UUID(uuidString: "AAAAAAAA-0000-0000-0000-000000000002")!, version: "1.0"))
        let c = try drafts.save(ReleaseDraft(id: UUID(uuidString: "BBBBBBBB-0000-0000-0000-000000000003")!, version: "2.0"))
        XCTAssertEqual(try drafts.resolve(a.id.uuidString).id, a.id)
        XCTAssertEqual(try drafts.resolve("bbbb").id, c.id)
        XCTAssertEqual(try drafts.resolve("2.0").id, c.id)
        XCTAssertThrowsError(try drafts.resolve("1.0")) { error in
            XCTAssertEqual(error as? LogbookError, .ambiguousDraft("1.0", ids: [a.id, b.id]))
        }
        XCTAssertThrowsError(try drafts.resolve("AAAA")) { error in
            XCTAssertEqual(error as? LogbookError, .ambiguousDraft("AAAA", ids: [a.id, b.id]))
        }
        XCTAssertThrowsError(try drafts.resolve("")) { XCTAssertEqual($0 as? LogbookError, .draftNotFound("")) }
        XCTAssertThrowsError(try drafts.resolve("3.0")) { XCTAssertEqual($0 as? LogbookError, .draftNotFound("3.0")) }
        // Only ASCII hex digits are an id's prefix: the ligature U+FB00 uppercases to FF, and is none.
        let f = try drafts.save(ReleaseDraft(id: UUID(uuidString: "FF000000-0000-0000-0000-000000000004")!, version: "4.0"))
        XCTAssertEqual(try drafts.resolve("ff").id, f.id)
        XCTAssertThrowsError(try drafts.resolve("\u{FB00}")) { XCTAssertEqual($0 as? LogbookError, .draftNotFound("\u{FB00}")) }
    }

    func testTextIsStoredByteForByteAndVersionsCompareAsSwiftDoes() throws {
        let test = try TestStore()
        let nfd = "Re\u{301}sume\u{301} 🎉\r\n\0tab\t"
        let draft = try test.store.drafts.save(ReleaseDraft(version: "v\u{E9}", whatsNew: nfd))
        let fetched = try XCTUnwrap(test.store.drafts.fetch(id: draft.id))
        XCTAssertEqual(Array(fetched.whatsNew.utf8), Array(nfd.utf8))
        XCTAssertEqual(try test.store.drafts.fetch(version: "ve\u{301}").map(\.id), [draft.id])
        XCTAssertEqual(Array(try XCTUnwrap(test.store.drafts.fetch(version: "ve\u{301}").first).version.utf8),
                       Array("v\u{E9}".utf8))
    }

    func testDeleteRemovesChecklist() throws {
        let test = try TestStore()
        let draft = try test.store.drafts.save(ReleaseDraft(version: "9", checklist: [ChecklistItem(title: "a")]))
        XCTAssertEqual(try test.store.drafts.delete("9").id, draft.id)
        XCTAssertNil(try test.store.drafts.fetch(id: draft.id))
        let orphans = try test.store.database.read {
            try $0.scalar("SELECT count(*) FROM checklist_items", as: Int.self)
        }
        XCTAssertEqual(orphans, 0)
        XCTAssertThrowsError(try test.store.drafts.delete("9"))
    }

    func testDatesRoundTripExactly() throws {
        let test = try TestStore()
        let submitted = Date(timeIntervalSinceReferenceDate: 753_549_105.502_176_3)
        let draft = try test.store.drafts.save(ReleaseDraft(version: "1", submittedAt: submitted))
        XCTAssertEqual(try test.store.drafts.fetch(id: draft.id)?.submittedAt?.timeIntervalSinceReferenceDate.bitPattern,
                       submitted.timeIntervalSinceReferenceDate.bitPattern)
        XCTAssertThrowsError(try test.store.drafts.save(ReleaseDraft(version: "x", submittedAt: .init(timeIntervalSince1970: 1e15))))
    }

    /// An editing call whose change leaves the draft's stored values as they are (an item checked
    /// again, moved onto its own place, a text set to its own bytes, no items added) writes
    /// nothing: the file and its log byte for byte, `updatedAt` kept (it was stamped, and the
    /// change logged for the feed). A text set to its NFC/NFD twin, which Swift's `==` calls equal,
    /// is a change, stored byte for byte. The oracle compares the drafts' JSON encodings, which
    /// keep every text's bytes and every date's `Double`. Seeded (`LOGBOOK_NO_OP_DRAFT_SEED`).
    func testAnEditingCallThatChangesNothingWritesNothing() throws {
        let seed = PropertyTestSettings.seed("LOGBOOK_NO_OP_DRAFT_SEED", default: 0xD7AF_7)
        var random = SplitMix64(seed: seed)
        let clock = TestClock(instant("2026-01-01T10:00:00Z"))
        let test = try TestStore(now: { clock.now })
        let drafts = test.store.drafts
        let files = [test.store.path, test.store.path + "-wal"]
        let snapshot = { files.map { FileManager.default.contents(atPath: $0) } }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = { (random: inout SplitMix64) in AdversarialText.string(using: &random, maxPieces: 3) }
        var draft = try drafts.save(ReleaseDraft(version: "1.0", whatsNew: text(&random),
                                                 checklist: (0..<4).map { _ in ChecklistItem(title: text(&random), isDone: random.chance(0.5)) }))
        var unchanged = 0, changed = 0
        for step in 0..<PropertyTestSettings.scaled(120, by: "LOGBOOK_PROPERTY_SCALE") {
            clock.advance(by: 1)
            var expected = draft
            let count = draft.checklist.count, position = random.int(1...count), other = random.int(1...count)
            let pick = { (random: inout SplitMix64, current: String) in
                [current, AdversarialText.twin(of: current), text(&random)][random.int(0...2)]
            }
            let call: String
            let edit: () throws -> ReleaseDraft
            switch random.int(0...5) {
            case 0:
                expected.version = pick(&random, draft.version)
                call = "edit(version:)"
                edit = { [expected] in try drafts.edit(draft.id, version: expected.version) }
            case 1:
                expected.whatsNew = pick(&random, draft.whatsNew)
                call = "edit(whatsNew:)"
                edit = { [expected] in try drafts.edit(draft.id, whatsNew: expected.whatsNew) }
            case 2:
                let done = random.chance(0.5)
                expected.checklist[position - 1].isDone = done
                call = "setItem(at: \(position), done: \(done))"
                edit = { try drafts.setItem(at: position, done: done, in: draft.id) }
            case 3:
                let item = expected.checklist.remove(at: position - 1)
                expected.checklist.insert(item, at: other - 1)
                call = "moveItem(from: \(position), to: \(other))"
                edit = { try drafts.moveItem(from: position, to: other, in: draft.id) }
            case 4:
                let done = random.chance(0.5)
                expected.checklist[position - 1].isDone = done
                call = "setItem(id, done: \(done))"
                edit = { try drafts.setItem(draft.checklist[position - 1].id, done: done, in: draft.id) }
            default:
                let item = expected.checklist.remove(at: position - 1)
                expected.checklist.insert(item, at: other - 1)
                call = "moveItem(id, to: \(other))"
                edit = { try drafts.moveItem(draft.checklist[position - 1].id, to: other, in: draft.id) }
            }
            let context = "seed \(seed), step \(step): \(call)"
            let before = snapshot()
            let returned = try edit()
            let stored = try XCTUnwrap(drafts.fetch(id: draft.id))
            XCTAssertEqual(try encoder.encode(returned), try encoder.encode(stored), context)
            if try encoder.encode(expected) == encoder.encode(draft) {
                unchanged += 1
                XCTAssertEqual(try encoder.encode(stored), try encoder.encode(draft), "\(context): a change that changes nothing")
                XCTAssertTrue(snapshot() == before, "\(context): a change that changes nothing wrote to the file")
            } else {
                changed += 1
                expected.updatedAt = clock.now
                XCTAssertEqual(try encoder.encode(stored), try encoder.encode(expected), context)
            }
            draft = stored
        }
        XCTAssertGreaterThan(unchanged, 10)
        XCTAssertGreaterThan(changed, 10)
        print("DraftRepositoryTests (LOGBOOK_NO_OP_DRAFT_SEED=\(seed)): \(unchanged) calls that changed nothing, \(changed) that did")
    }
}
