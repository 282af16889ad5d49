/// The 32-bit FNV-1a hash: cheap, and the same in every process and on every machine (Swift's
/// `Hasher` is seeded per process), for slots in memory and stamps written into tokens.
enum FNV1a {
    /// The hash of `bytes`.
    static func hash(_ bytes: some Sequence<UInt8>) -> UInt32 {
        bytes.reduce(0x811C_9DC5) { ($0 ^ UInt32($1)) &* 0x0100_0193 }
    }
}
