import Foundation

/// The pixels of a PNG file, enough to tell what a browser rendered: 8-bit greyscale, RGB or RGBA,
/// not interlaced (what Chromium's screenshots are). The zlib stream is inflated by the system's
/// `libz.so.1`, loaded at run time so the test target links nothing new.
struct PNGImage {
    let width: Int
    let height: Int
    /// Row-major pixels as 0xRRGGBB (alpha dropped).
    let pixels: [UInt32]

    struct DecodingError: Error, CustomStringConvertible {
        let description: String
    }

    init(contentsOf url: URL) throws {
        let data = [UInt8](try Data(contentsOf: url))
        guard data.count > 8, data.prefix(8).elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw DecodingError(description: "\(url.path): not a PNG file")
        }
        func integer(at offset: Int) -> Int { data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        var offset = 8, header: [UInt8] = [], compressed: [UInt8] = []
        while offset + 8 <= data.count {
            let length = integer(at: offset), type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
            guard offset + 12 + length <= data.count else { throw DecodingError(description: "\(url.path): chunk \(type) is cut short") }
            let body = data[offset + 8..<offset + 8 + length]
            if type == "IHDR" { header = Array(body) }
            if type == "IDAT" { compressed += body }
            offset += 12 + length
        }
        guard header.count == 13 else { throw DecodingError(description: "\(url.path): no IHDR chunk") }
        width = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
        height = header[4..<8].reduce(0) { $0 << 8 | Int($1) }
        let (depth, colourType, interlace) = (header[8], header[9], header[12])
        let channels: Int
        switch colourType {
        case 0: channels = 1
        case 2: channels = 3
        case 6: channels = 4
        default: throw DecodingError(description: "\(url.path): colour type \(colourType) is not read here")
        }
        guard depth == 8, interlace == 0 else { throw DecodingError(description: "\(url.path): depth \(depth), interlace \(interlace)") }
        let stride = width * channels
        let raw = try Self.inflate(compressed, expected: height * (stride + 1))
        var previous = [UInt8](repeating: 0, count: stride), current = previous
        var pixels: [UInt32] = []
        pixels.reserveCapacity(width * height)
        for row in 0..<height {
            let start = row * (stride + 1), filter = raw[start]
            for index in 0..<stride {
                let value = raw[start + 1 + index]
                let left = index >= channels ? current[index - channels] : 0
                let up = previous[index], upLeft = index >= channels ? previous[index - channels] : 0
                switch filter {
                case 0: current[index] = value
                case 1: current[index] = value &+ left
                case 2: current[index] = value &+ up
                case 3: current[index] = value &+ UInt8((Int(left) + Int(up)) / 2)
                case 4: current[index] = value &+ Self.paeth(left, up, upLeft)
                default: throw DecodingError(description: "\(url.path): row \(row) has filter \(filter)")
                }
            }
            for x in 0..<width {
                let base = x * channels
                pixels.append(channels == 1 ? UInt32(current[base]) * 0x010101
                                            : UInt32(current[base]) << 16 | UInt32(current[base + 1]) << 8 | UInt32(current[base + 2]))
            }
            swap(&previous, &current)
        }
        self.pixels = pixels
    }

    private static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let (pa, pb, pc) = (abs(p - Int(a)), abs(p - Int(b)), abs(p - Int(c)))
        return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
    }

    private typealias Uncompress = @convention(c) (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt>, UnsafePointer<UInt8>, UInt) -> Int32

    private static func inflate(_ compressed: [UInt8], expected: Int) throws -> [UInt8] {
        guard let library = dlopen("libz.so.1", RTLD_NOW), let symbol = dlsym(library, "uncompress") else {
            throw DecodingError(description: "libz.so.1 is not available to inflate the PNG")
        }
        let uncompress = unsafeBitCast(symbol, to: Uncompress.self)
        var output = [UInt8](repeating: 0, count: expected)
        var length = UInt(expected)
        let status = output.withUnsafeMutableBufferPointer { out in
            compressed.withUnsafeBufferPointer { uncompress(out.baseAddress!, &length, $0.baseAddress!, UInt($0.count)) }
        }
        guard status == 0, length == UInt(expected) else {
            throw DecodingError(description: "zlib status \(status), \(length) of \(expected) bytes")
        }
        return output
    }
}
