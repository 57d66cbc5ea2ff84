import CZlib
import Foundation

/// Inflates raw deflate data (RFC 1951, no zlib or gzip header), as Core Data compresses
/// `Z_MODELCACHE.Z_CONTENT`, with the system zlib.
///
/// The output is bounded: a hostile cache that would inflate past `limit` bytes is an error,
/// never gigabytes of memory. Damaged input (a bad block, a stream that ends early, bytes after
/// its end) is an error saying so.
enum RawInflate {
    /// The default bound on the inflated size: 64 MiB (the largest real model cache seen inflates to 70 KB).
    static let defaultLimit = 64 << 20

    static func inflate(_ input: Data, limit: Int = defaultLimit) throws(CoreDataModelError) -> Data {
        precondition(limit > 0, "the output limit must be positive")
        guard !input.isEmpty else { throw CoreDataModelError("the compressed model is empty") }
        var stream = z_stream()
        guard sift_inflate_init_raw(&stream) == Z_OK else {
            throw CoreDataModelError("zlib could not start inflating (out of memory?)")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        let chunkSize = 64 << 10
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        let status: Int32 = input.withUnsafeBytes { (source: UnsafeRawBufferPointer) -> Int32 in
            stream.next_in = UnsafeMutablePointer(mutating: source.bindMemory(to: Bytef.self).baseAddress!)
            stream.avail_in = uInt(source.count)
            var status: Int32 = Z_OK
            while status == Z_OK {
                status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(chunkSize)
                    let result = CZlib.inflate(&stream, Z_NO_FLUSH)
                    let produced = chunkSize - Int(stream.avail_out)
                    output.append(buffer.baseAddress!, count: produced)
                    return result
                }
                if output.count > limit { return -100 }
                // No progress with input left means the input ends inside the stream.
                if status == Z_BUF_ERROR || (status == Z_OK && stream.avail_in == 0 && stream.avail_out != 0) { return Z_BUF_ERROR }
            }
            return status
        }
        switch status {
        case Z_STREAM_END:
            guard stream.avail_in == 0 else {
                throw CoreDataModelError("the compressed model has \(stream.avail_in) bytes after its end")
            }
            return output
        case -100:
            throw CoreDataModelError("the compressed model inflates to more than \(limit) bytes")
        case Z_BUF_ERROR:
            throw CoreDataModelError("the compressed model ends early (after \(stream.total_in) of its bytes, \(output.count) bytes inflated)")
        case Z_MEM_ERROR:
            throw CoreDataModelError("out of memory inflating the compressed model")
        default:
            let reason = stream.msg.map { String(cString: $0) } ?? "error \(status)"
            throw CoreDataModelError("the compressed model is damaged at byte \(stream.total_in): \(reason)")
        }
    }
}
