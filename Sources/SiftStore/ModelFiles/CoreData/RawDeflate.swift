import CZlib
import Foundation

/// Raw deflate (RFC 1951, no zlib header), as Core Data compresses a store's model cache: what
/// ``RawInflate`` reads back.
enum RawDeflate {
    static func deflate(_ input: Data) -> Data {
        var stream = z_stream()
        guard sift_deflate_init_raw(&stream) == Z_OK else { return Data() }
        defer { deflateEnd(&stream) }
        let capacity = Int(deflateBound(&stream, uLong(input.count)))
        var output = [UInt8](repeating: 0, count: capacity)
        var source = [UInt8](input)
        let produced: Int = source.withUnsafeMutableBufferPointer { from in
            output.withUnsafeMutableBufferPointer { to in
                stream.next_in = from.baseAddress
                stream.avail_in = uInt(from.count)
                stream.next_out = to.baseAddress
                stream.avail_out = uInt(to.count)
                // (deflateBound leaves room for the whole stream: one call finishes it.)
                guard CZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END else { return -1 }
                return to.count - Int(stream.avail_out)
            }
        }
        return produced < 0 ? Data() : Data(output.prefix(produced))
    }
}
