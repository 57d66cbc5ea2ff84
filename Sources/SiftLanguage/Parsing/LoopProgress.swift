/// Whether a parsing loop has moved since its last turn (swift-syntax's
/// `LoopProgressCondition`): a loop that must consume a token on every turn checks the current
/// token's offset at the top of each. A turn that consumed nothing is a bug in the parser; a
/// debug build stops on it, a release build ends the loop (the statement then fails to parse
/// where it stood) rather than spin forever.
struct LoopProgress {
    private var last: Int?

    /// False, after an assertion, when `offset` is not past the last turn's.
    mutating func moved(to offset: Int) -> Bool {
        defer { last = offset }
        guard let last else { return true }
        assert(offset > last, "a parsing loop made no progress at offset \(offset)")
        return offset > last
    }
}
