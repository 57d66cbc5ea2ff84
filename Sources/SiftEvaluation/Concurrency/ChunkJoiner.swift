/// The taking side of a chunked JSON reader (`sift filter --jobs`, `sift import --jobs`): a
/// chunk whose last value runs past its end (a pretty-printed value that ``LineChunks`` cut) is
/// joined with the chunks after it and read again on the taking thread — once the joined bytes
/// are twice as long as when last read (so a long value is read a logarithmic number of times),
/// or at the input's end.
package struct ChunkJoiner {
    /// Chunks joined because the first of them ended inside a value.
    private var joined: [UInt8]? = nil
    private var joinedStartsInput = false
    private var readAgainAt = 0

    package init() {}

    /// The outcome to hand on for a chunk (`bytes`, read on a job's thread as `outcome`), or nil
    /// while chunks are joined. `read` reads bytes again (`startsInput`, `endsInput`);
    /// `isIncomplete` says whether an outcome's last value runs past its bytes.
    package mutating func take<Outcome>(_ bytes: [UInt8], isFirst: Bool, isLast: Bool, outcome: Outcome,
                                        isIncomplete: (Outcome) -> Bool,
                                        read: ([UInt8], _ startsInput: Bool, _ endsInput: Bool) -> Outcome) -> Outcome? {
        if joined != nil {
            joined!.append(contentsOf: bytes)
            guard isLast || joined!.count >= readAgainAt else { return nil }
            let again = read(joined!, joinedStartsInput, isLast)
            if isIncomplete(again) {
                readAgainAt = 2 * joined!.count
                return nil
            }
            joined = nil
            return again
        }
        if isIncomplete(outcome) {
            joined = bytes
            joinedStartsInput = isFirst
            readAgainAt = 2 * bytes.count
            return nil
        }
        return outcome
    }

    /// After the last chunk: the chunks still joined, read as ending the input (nil when none).
    package mutating func finish<Outcome>(read: ([UInt8], _ startsInput: Bool, _ endsInput: Bool) -> Outcome) -> Outcome? {
        guard let bytes = joined else { return nil }
        joined = nil
        return read(bytes, joinedStartsInput, true)
    }

    /// Drops the chunks joined (reading failed: what they held is not read).
    package mutating func drop() { joined = nil }
}
