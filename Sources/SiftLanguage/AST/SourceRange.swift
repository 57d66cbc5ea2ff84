/// A half-open range of UTF-8 byte offsets into the format string a node was parsed from.
///
/// Nodes built from Swift code (builders, decoding without ranges, substitution results)
/// have no range. Ranges never take part in equality or hashing: two predicates are equal
/// when they mean the same thing, wherever they were written.
public struct SourceRange: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Offset of the first byte.
    public var start: Int
    /// Offset one past the last byte.
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = end
    }

    /// The smallest range that covers both.
    public func union(_ other: SourceRange?) -> SourceRange {
        guard let other else { return self }
        return SourceRange(start: min(start, other.start), end: max(end, other.end))
    }

    public var description: String { "\(start)..<\(end)" }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        start = try container.decode(Int.self)
        end = try container.decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(start)
        try container.encode(end)
    }
}
