// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Logbook",
    // What Foundation's #Predicate and Observation need. Only Linux builds here; Apple builds are
    // guarded by Tests/LogbookTests/PortabilityLintTests.swift (README: Platforms).
    platforms: [.macOS(.v14), .iOS(.v17), .watchOS(.v10), .tvOS(.v17), .visionOS(.v1)],
    products: [
        .library(name: "SQLiteQuery", targets: ["SQLiteQuery"]),
        .library(name: "Logbook", targets: ["Logbook"]),
        .executable(name: "logbook", targets: ["LogbookCLI"]),
        .executable(name: "logbook-bench", targets: ["LogbookBench"]),
        .executable(name: "logbook-sample-app", targets: ["LogbookSampleApp"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // Each library declares its required-reason API (stat) in its privacy manifest.
        .target(name: "SQLiteQuery", dependencies: ["CSQLite"], resources: [.copy("PrivacyInfo.xcprivacy")]),
        // Turns Migrations/*.sql into Swift source at build time, so the binary carries its schema.
        .executableTarget(name: "MigrationsEmbedder", dependencies: ["SQLiteQuery", "CSQLite"]),
        .plugin(name: "MigrationsPlugin", capability: .buildTool(), dependencies: ["MigrationsEmbedder"],
                path: "Sources/MigrationsPlugin"),
        .target(name: "Logbook", dependencies: ["SQLiteQuery"], resources: [.copy("PrivacyInfo.xcprivacy")],
                plugins: ["MigrationsPlugin"]),
        .executableTarget(name: "LogbookCLI", dependencies: ["Logbook"]),
        // Workloads timed side by side with a hand-written C-API engine (README: Performance).
        .executableTarget(name: "LogbookBench", dependencies: ["Logbook", "SQLiteQuery", "CSQLite"]),
        // What an iOS app does with the library, as a program that uses only the public API.
        .executableTarget(name: "LogbookSampleApp", dependencies: ["Logbook", "SQLiteQuery"]),
        // Seeded generators of adversarial text and dates, and helpers every test target shares.
        .target(name: "LogbookTestSupport", dependencies: ["SQLiteQuery"], path: "Tests/LogbookTestSupport"),
        .testTarget(name: "SQLiteQueryTests", dependencies: ["SQLiteQuery", "LogbookTestSupport"]),
        .testTarget(name: "LogbookTests", dependencies: ["Logbook", "SQLiteQuery", "LogbookTestSupport"]),
        // Runs the built `logbook` binary, as a user would; depending on LogbookCLI gets it built first.
        .testTarget(name: "LogbookCLITests", dependencies: ["LogbookCLI", "LogbookSampleApp", "Logbook", "SQLiteQuery",
                                                           "LogbookTestSupport"]),
    ]
)
