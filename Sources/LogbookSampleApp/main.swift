import Foundation
import Logbook
import Observation
import SQLiteQuery

// logbook-sample-app [--data FOLDER] [--history-plist FILE]
//
// What an iOS app does with Logbook, as a command-line program that uses only the public API: it
// opens its store at launch, imports the app's old history.plist once, keeps a live list of the
// open drafts on screen (printed each time it changes), adds, edits, checks off and deletes
// drafts, and shows a weekly report. Its own record type (the files it imported) lives in the same
// file through its own migration set.

/// A file the app imported once, remembered in the app's own table.
struct ImportedFile: Sendable, Codable {
    var name: String
    var importedAt: Date
}

let importedFiles = TableDescription<ImportedFile>(
    "sample_imported_files", identity: .column("name", \.name), columns: [.column("imported_at", \.importedAt)],
    decode: { ImportedFile(name: try $0.column(0), importedAt: try $0.column(1)) })

let appMigrations = try Migrator(migrations: [
    Migration(version: 1, name: "create_imported_files", sql: """
        CREATE TABLE sample_imported_files (pk INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, imported_at REAL NOT NULL);
        """),
], set: "sample-app")

/// The screen's model: what the list of open drafts shows.
@Observable @MainActor final class OpenDraftsModel {
    let drafts: LiveQuery<[ReleaseDraft]>
    init(store: Logbook) {
        drafts = store.drafts.liveQuery(FetchDescriptor(predicate: #Predicate { $0.submittedAt == nil },
                                                        sortBy: [SortDescriptor(\.version)]))
    }
}

/// The "view": prints the list whenever the model's value changes, as SwiftUI would redraw it.
@MainActor final class OpenDraftsView {
    let model: OpenDraftsModel
    private(set) var renders = 0
    /// How many open drafts the last render printed.
    private var shown: Int?
    init(model: OpenDraftsModel) { self.model = model }

    func render() {
        renders += 1
        shown = model.drafts.value.count
        let rows = model.drafts.value.map { draft in
            "  \(draft.version.isEmpty ? "(no version)" : draft.version)  \(draft.checklist.filter(\.isDone).count)/\(draft.checklist.count) done"
        }
        print("open drafts:" + (rows.isEmpty ? " none" : "\n" + rows.joined(separator: "\n")))
        withObservationTracking { _ = model.drafts.value } onChange: { Task { @MainActor in self.render() } }
    }

    /// Waits until the screen shows `count` open drafts: the live query caught up with a commit,
    /// and the view drew it.
    func waitUntilShowing(_ count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while shown != count {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}
let folder = URL(fileURLWithPath: option("--data") ?? FileManager.default.temporaryDirectory
    .appendingPathComponent("logbook-sample-app-\(getpid())").path)
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

/// The app from launch on, on the main actor as an app's code runs. (In a function, not at the
/// top level of this file: top-level code picks the synchronous overloads, which block.)
@MainActor func runApp() async throws {
    // Launch: open (create, migrate) the store off the main thread.
    let store = try await Logbook.open(path: folder.appendingPathComponent("app.sqlite").path, appMigrations: appMigrations)
    let imports = store.records(importedFiles)

    // Import the old history.plist once.
    if let plist = option("--history-plist") {
        let name = URL(fileURLWithPath: plist).lastPathComponent
        if try await imports.fetch(identity: name) == nil {
            let summary = try await store.importRecords(from: URL(fileURLWithPath: plist))
            try await imports.save(ImportedFile(name: name, importedAt: .now))
            print("imported \(name): \(summary.inserted) days")
        } else {
            print("\(name) was imported before")
        }
    }

    // The screen.
    let model = OpenDraftsModel(store: store)
    await model.drafts.loaded()
    let view = OpenDraftsView(model: model)
    view.render()
    let openBefore = model.drafts.value.count

    // Add, edit, check off, submit, delete.
    let release = try await store.drafts.save(ReleaseDraft(version: "2.6.0", checklist: [ChecklistItem(title: "Screenshots"),
                                                                                         ChecklistItem(title: "Notes")]))
    let beta = try await store.drafts.save(ReleaseDraft(version: "3.0.0-beta"))
    try await view.waitUntilShowing(openBefore + 2)
    try await store.drafts.edit(release.id, whatsNew: "Widgets!")
    try await store.drafts.setItem(release.checklist[0].id, done: true, in: release.id)
    try await store.drafts.submit(release.id)
    try await view.waitUntilShowing(openBefore + 1)
    try await store.drafts.delete(beta.id)
    try await view.waitUntilShowing(openBefore)

    try await store.history.addDoneExercises(["Squat", "Row"])
    for week in try await store.reports.history(by: .week).suffix(3) {
        print("week \(week.period) (from \(week.start)): \(week.exercises) exercises on \(week.activeDays) days")
    }
    print("the list was drawn \(view.renders) times")
}

try await runApp()
if option("--data") == nil { try? FileManager.default.removeItem(at: folder) }  // a scratch store, not the user's
