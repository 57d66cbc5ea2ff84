import CPCRE2
import SiftLanguage

/// A compiled `MATCHES` pattern (LANGUAGE.md §4): a whole-string PCRE2 match in UTF mode with
/// Unicode properties (`\d`, `\w`, `[[:alpha:]]` are Unicode-aware).
///
/// - The pattern is compiled once, with `PCRE2_ANCHORED | PCRE2_ENDANCHORED`: `"abc" MATCHES "b"`
///   is false, `"ab" MATCHES "a|ab"` is true (the end anchor makes the match backtrack into `ab`).
/// - `[c]` compiles with `PCRE2_CASELESS` (PCRE2's caseless matching uses simple case folding, so
///   unlike `==[c]`, "ß" does not match "ss"). `[d]` removes the subject's diacritics
///   (`StringFolding`, `[d]` only) before matching; the pattern is left alone. `[n]` wins over both
///   and takes pattern and subject literally; otherwise both are NFC-normalised first (so a
///   decomposed "é" in either matches a precomposed one in the other).
/// - Matching is bounded: a match limit of 10 million steps, a depth limit and a heap limit, so a
///   catastrophically backtracking pattern (`(a+)+$` on "aaaa…ab") throws
///   `EvaluationError.regularExpressionLimit` instead of hanging. PCRE2's JIT is used when the
///   library has it (falling back silently, and to the interpreter when the JIT's stack is too small).
/// - An instance is immutable after `init` and `matches` is safe to call from any number of threads
///   at once: the compiled code and the match context are only read, and each call takes its own
///   match data (from a small pool).
public final class RegularExpression: @unchecked Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    public let caseInsensitive: Bool
    /// How the subject is read: NFC, `[d]`-folded, or literally (`[n]`).
    let subjectPreparation: Preparation

    private let code: OpaquePointer
    private let matchContext: OpaquePointer
    /// Whether PCRE2 compiled this expression to machine code.
    let usesJIT: Bool
    private let pool = Locked<[MatchData]>([])

    /// At most this many backtracking steps per match.
    public static let matchLimit: UInt32 = 10_000_000
    /// At most this deep a backtracking nest per match (interpreter only).
    public static let depthLimit: UInt32 = 1_000_000
    /// At most this much heap (KiB) for the interpreter's backtracking frames per match.
    public static let heapLimitKiB: UInt32 = 128 * 1024

    /// Match data blocks kept for reuse per expression; subjects longer than `pooledSubjectLimit`
    /// bytes do not return theirs (the interpreter keeps its frames in the block).
    private static let poolCapacity = 8
    private static let pooledSubjectLimit = 1 << 16

    /// A pcre2_match_data_8 block, owned by one call at a time.
    private struct MatchData: @unchecked Sendable { let pointer: OpaquePointer }

    /// Compiles `pattern` (NFC-normalised first), caselessly when `caseInsensitive`. Subjects are
    /// NFC-normalised before matching. Throws `.invalidRegularExpression` with PCRE2's message and
    /// the offset (in characters) where it gave up.
    public convenience init(pattern: String, caseInsensitive: Bool) throws(EvaluationError) {
        try self.init(pattern: pattern, options: caseInsensitive ? [.caseInsensitive] : [])
    }

    /// Compiles `pattern` for `MATCHES` with `options`: `[c]` caseless, `[d]` subjects lose their
    /// diacritics, `[n]` (winning over both) literal pattern and subjects.
    public init(pattern: String, options: ComparisonOptions) throws(EvaluationError) {
        self.pattern = pattern
        (caseInsensitive, subjectPreparation) = Self.settings(options)
        let source = subjectPreparation == .literal ? pattern : StringFolding.nfc(pattern)

        var flags = sift_pcre2_utf() | sift_pcre2_ucp() | sift_pcre2_anchored() | sift_pcre2_endanchored()
        if caseInsensitive { flags |= sift_pcre2_caseless() }
        var errorCode: Int32 = 0
        var errorOffset = 0
        let compiled: OpaquePointer? = UTF8Bytes.with(source) { bytes in
            withUnsafeBytes(of: UInt8(0)) { empty in
                let base = bytes.baseAddress ?? empty.baseAddress!.assumingMemoryBound(to: UInt8.self)
                return pcre2_compile_8(base, bytes.count, flags, &errorCode, &errorOffset, nil)
            }
        }
        guard let compiled else {
            let offset = UTF8Bytes.with(source) { String(decoding: $0.prefix(errorOffset), as: UTF8.self).count }
            throw EvaluationError(
                .invalidRegularExpression,
                "invalid regular expression \"\(pattern)\": \(Self.errorMessage(errorCode)) at offset \(offset); "
                    + "fix the pattern (MATCHES takes a PCRE2 regular expression that must match the whole string)")
        }
        code = compiled
        usesJIT = pcre2_jit_compile_8(compiled, sift_pcre2_jit_complete()) == 0
        guard let context = pcre2_match_context_create_8(nil) else {
            pcre2_code_free_8(compiled)
            throw EvaluationError(.invalidRegularExpression, "cannot allocate a match context for \"\(pattern)\"")
        }
        pcre2_set_match_limit_8(context, Self.matchLimit)
        pcre2_set_depth_limit_8(context, Self.depthLimit)
        pcre2_set_heap_limit_8(context, Self.heapLimitKiB)
        matchContext = context
    }

    deinit {
        for data in pool.withLock({ $0 }) { pcre2_match_data_free_8(data.pointer) }
        pcre2_match_context_free_8(matchContext)
        pcre2_code_free_8(code)
    }

    /// What the options mean for MATCHES: `[n]` wins (literal, case-sensitive); `[c]` caseless;
    /// `[d]` subjects lose their nonspacing marks; otherwise subjects are NFC.
    static func settings(_ options: ComparisonOptions) -> (caseInsensitive: Bool, subject: Preparation) {
        if options.contains(.normalized) { return (false, .literal) }
        return (options.contains(.caseInsensitive),
                options.contains(.diacriticInsensitive) ? .fold(caseFold: false, stripMarks: true) : .nfc)
    }

    /// Whether the PCRE2 library was built with JIT support.
    static let jitAvailable: Bool = {
        var value: UInt32 = 0
        return pcre2_config_8(sift_pcre2_config_jit(), &value) >= 0 && value == 1
    }()

    public var description: String { "MATCHES\(caseInsensitive ? "[c]" : "") \"\(pattern)\"" }

    /// Whether the whole of `subject` matches. Throws `.regularExpressionLimit` when the match
    /// needs more backtracking (or memory) than the limits allow.
    public func matches(_ subject: String) throws(EvaluationError) -> Bool {
        let rc = subjectPreparation.withUTF8(subject) { run($0) }
        if rc >= 0 { return true }
        if rc == sift_pcre2_error_nomatch() { return false }
        let what: String, advice: String
        switch rc {
        case sift_pcre2_error_matchlimit(), sift_pcre2_error_depthlimit(), sift_pcre2_error_heaplimit():
            what = "exceeded its backtracking limit"
            advice = "simplify the pattern so it backtracks less (nested repetition such as (a+)+ is the usual cause)"
        default:
            what = "failed"
            advice = "simplify the pattern, or match a shorter subject"
        }
        throw EvaluationError(
            .regularExpressionLimit,
            "MATCHES \"\(pattern)\" \(what) on a \(subject.count)-character subject (PCRE2: \(Self.errorMessage(rc))); \(advice)")
    }

    /// The scalars (U+0001…U+10FFFF) that this expression matches as a one-scalar subject taken
    /// as it is, in ranges: what a class (`\\d`, `\\p{L}`, a caseless `[a-z]`) stands for in
    /// PCRE2's own Unicode tables, for the SQL compiler's translations. One match per scalar on
    /// its UTF-8 bytes, no string made.
    package func matchingScalars() -> [ClosedRange<UInt32>] {
        guard let data = pcre2_match_data_create_8(1, nil) else { return [] }
        defer { pcre2_match_data_free_8(data) }
        var ranges: [ClosedRange<UInt32>] = []
        var buffer: [UInt8] = [0, 0, 0, 0]
        buffer.withUnsafeMutableBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return }
            for value in UInt32(1)...0x10FFFF where !(0xD800...0xDFFF).contains(value) {
                // The scalar's UTF-8 bytes, written by hand (this runs a million times).
                let count: Int
                if value < 0x80 {
                    bytes[0] = UInt8(value)
                    count = 1
                } else if value < 0x800 {
                    bytes[0] = UInt8(0xC0 | (value >> 6))
                    bytes[1] = UInt8(0x80 | (value & 0x3F))
                    count = 2
                } else if value < 0x10000 {
                    bytes[0] = UInt8(0xE0 | (value >> 12))
                    bytes[1] = UInt8(0x80 | ((value >> 6) & 0x3F))
                    bytes[2] = UInt8(0x80 | (value & 0x3F))
                    count = 3
                } else {
                    bytes[0] = UInt8(0xF0 | (value >> 18))
                    bytes[1] = UInt8(0x80 | ((value >> 12) & 0x3F))
                    bytes[2] = UInt8(0x80 | ((value >> 6) & 0x3F))
                    bytes[3] = UInt8(0x80 | (value & 0x3F))
                    count = 4
                }
                let rc = usesJIT ? pcre2_jit_match_8(code, base, count, 0, 0, data, matchContext)
                    : pcre2_match_8(code, base, count, 0, sift_pcre2_no_utf_check(), data, matchContext)
                guard rc >= 0 else { continue }
                if let last = ranges.last, last.upperBound + 1 == value {
                    ranges[ranges.count - 1] = last.lowerBound...value
                } else {
                    ranges.append(value...value)
                }
            }
        }
        return ranges
    }

    private func run(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
        let data = pool.withLock { $0.popLast() } ?? MatchData(pointer: pcre2_match_data_create_8(1, nil))
        let rc = withUnsafeBytes(of: UInt8(0)) { empty -> Int32 in
            let base = bytes.baseAddress ?? empty.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var rc = pcre2_match_8(code, base, bytes.count, 0, sift_pcre2_no_utf_check(), data.pointer, matchContext)
            if rc == sift_pcre2_error_jit_stacklimit() && usesJIT {
                rc = pcre2_match_8(code, base, bytes.count, 0, sift_pcre2_no_utf_check() | sift_pcre2_no_jit(),
                                   data.pointer, matchContext)
            }
            return rc
        }
        let reusable = (rc >= 0 || rc == sift_pcre2_error_nomatch()) && bytes.count <= Self.pooledSubjectLimit
        let kept = reusable && pool.withLock { pool in
            guard pool.count < Self.poolCapacity else { return false }
            pool.append(data)
            return true
        }
        if !kept { pcre2_match_data_free_8(data.pointer) }
        return rc
    }

    static func errorMessage(_ code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = pcre2_get_error_message_8(code, &buffer, buffer.count)
        return length > 0 ? String(decoding: buffer.prefix(Int(length)), as: UTF8.self) : "PCRE2 error \(code)"
    }

    // MARK: - Cached expressions

    private struct CacheKey: Hashable, Sendable {
        let pattern: String
        let caseInsensitive: Bool
        let subjectPreparation: Preparation

        // The pattern compares by its exact bytes: String's own == is canonical equivalence,
        // which would let "e\u{301}" find the expression compiled from "\u{E9}" under [n].
        static func == (a: CacheKey, b: CacheKey) -> Bool {
            a.caseInsensitive == b.caseInsensitive && a.subjectPreparation == b.subjectPreparation
                && a.pattern.utf8.elementsEqual(b.pattern.utf8)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(caseInsensitive)
            hasher.combine(subjectPreparation)
            UTF8Bytes.with(pattern) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    /// Compiled expressions (and compile errors) by pattern and options, at most `cacheCapacity`.
    private static let cache = Locked<[CacheKey: Result<RegularExpression, EvaluationError>]>([:])
    static let cacheCapacity = 256

    /// The compiled expression for `pattern` and `options`, from the shared cache.
    public static func cached(pattern: String, options: ComparisonOptions) throws(EvaluationError) -> RegularExpression {
        let (caseInsensitive, subject) = settings(options)
        let key = CacheKey(pattern: pattern, caseInsensitive: caseInsensitive, subjectPreparation: subject)
        let entry: Result<RegularExpression, EvaluationError>
        if let hit = cache.withLock({ $0[key] }) {
            entry = hit
        } else {
            do throws(EvaluationError) {
                entry = .success(try RegularExpression(pattern: pattern, options: options))
            } catch {
                entry = .failure(error)
            }
            cache.withLock { cache in
                if cache.count >= cacheCapacity, cache[key] == nil { cache.remove(at: cache.startIndex) }
                cache[key] = entry
            }
        }
        return try entry.get()
    }

    /// `subject MATCHES[options] pattern`, compiling through the shared cache: for patterns that
    /// are not constants and for the SQL engine's registered function.
    public static func matches(_ subject: String, pattern: String, options: ComparisonOptions) throws(EvaluationError) -> Bool {
        try cached(pattern: pattern, options: options).matches(subject)
    }
}
