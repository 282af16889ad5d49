// swift-tools-version:6.0
// Logbook beside GRDB on the same machine, in one process: not part of the product (which
// depends on no package) nor of CI. README, Performance: how to run it.
import PackageDescription

let package = Package(
    name: "GRDBComparison",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift.git", exact: "7.10.0"),
        .package(path: "../.."),
    ],
    targets: [
        .executableTarget(name: "GRDBComparison", dependencies: [.product(name: "GRDB", package: "GRDB.swift"),
                                                                 .product(name: "Logbook", package: "main")],
                          swiftSettings: [.swiftLanguageMode(.v5)]),
    ]
)
