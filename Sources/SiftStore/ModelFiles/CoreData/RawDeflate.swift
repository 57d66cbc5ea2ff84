import CZlib
import Foundation

/// Raw deflate (RFC 1951, no zlib header), as Core Data compresses a store's model cache: what
/// ``RawInflate`` reads back. zlib failing (it cannot start, or out of memory) is an error, never
/// an empty result: an empty cache would read as "no cache" in the store it was written to.
enum RawDeflate {
    static func deflate(_ input: Data) throws(CoreDataModelError) -> Data {
        var stream = z_stream()
        guard sift_deflate_init_raw(&stream) == Z_OK else { throw CoreDataModelError("zlib could not start deflating the model (out of memory?)") }
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
        guard produced >= 0 else { throw CoreDataModelError("zlib could not deflate the model's \(input.count)-byte archive") }
        return Data(output.prefix(produced))
    }
}
