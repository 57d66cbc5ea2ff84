import Foundation
import SiftLanguage

/// Distinct values under the language's equality (``ValueComparison/equals(_:_:options:)``:
/// `1 == 1.0`, canonically equivalent strings equal), found in constant expected time: what
/// `mode:` and `@distinctUnionOfObjects` count and collect, linear in their input where a scan
/// of the distinct values so far was quadratic.
///
/// Values are bucketed by a hash that equal values share (a number by its value as a double,
/// a string by its canonical form, a date, data or UUID by itself, a collection by its kind and
/// size); within a bucket, ``ValueComparison/equals(_:_:options:)`` decides, so the answer is
/// exactly the scan's: the first distinct value equal to the one looked up.
///
/// Sendable once built (a compiled `IN` shares one across threads, reading only): its values
/// are, and its one non-Sendable part, an object's identity (`AnyHashable`), is an immutable
/// key the object gives.
struct ValueEqualityIndex: @unchecked Sendable {
    /// Positions of the distinct values, by bucket, in insertion order.
    private var buckets: [BucketKey: [Int]] = [:]
    /// The distinct values, in the order they were first seen.
    private(set) var values: [Value] = []
    /// The comparison options of the equality (`[c]`, `[d]`, `[n]`: strings equal under them).
    private let options: ComparisonOptions

    /// An index under the equality of `options` (the effective options of a comparison:
    /// `[c]`/`[d]`, or `[n]` alone). Strings are bucketed by their fold under `[c]`/`[d]`
    /// (`StringFolding`: strings equal under the options are equal folded), else by their
    /// canonical form, which strings equal literally (`[n]`) share too.
    init(options: ComparisonOptions = []) {
        self.options = options
    }

    /// The position (in ``values``) of the value equal to `value`, inserting it if there is
    /// none; and whether it was inserted.
    mutating func insert(_ value: Value) -> (position: Int, inserted: Bool) {
        let key = BucketKey(value, options: options)
        if let position = position(of: value, key: key) { return (position, false) }
        values.append(value)
        buckets[key, default: []].append(values.count - 1)
        return (values.count - 1, true)
    }

    /// Whether a value equal to `value` is in the index (`IN` a constant list).
    func contains(_ value: Value) -> Bool {
        position(of: value, key: BucketKey(value, options: options)) != nil
    }

    private func position(of value: Value, key: BucketKey) -> Int? {
        guard let positions = buckets[key] else { return nil }
        for position in positions where ValueComparison.equals(values[position], value, options: options) {
            return position
        }
        return nil
    }

    /// What equal values share. Numbers of every kind (integer, double, decimal, boolean)
    /// compare by value: an integer and a double are equal only when the double is that
    /// integer exactly, so both have the same double; a decimal is compared with a double as
    /// a double.
    private enum BucketKey: Hashable {
        case null
        case number(Double)
        case text(String)
        case date(Double)
        case data(Data)
        case uuid(UUID)
        case collection(Int)
        case object(AnyHashable)
        case other

        init(_ value: Value, options: ComparisonOptions) {
            switch value {
            case .null: self = .null
            case .bool(let b): self = .number(b ? 1 : 0)
            case .int(let i): self = .number(Double(i))
            // NaN equals nothing, not even itself; -0.0 == 0.0 (one bucket for both).
            case .double(let d): self = d.isNaN ? .other : .number(d == 0 ? 0 : d)
            case .decimal(let d):
                let double = NSDecimalNumber(decimal: d).doubleValue
                self = .number(double == 0 ? 0 : double)
            case .string(let s):
                // String hashing is canonical equivalence, as ==; under [c]/[d], the fold's.
                self = .text(options.contains(.normalized) || options.isDisjoint(with: [.caseInsensitive, .diacriticInsensitive])
                             ? s : StringFolding.fold(s, options: options))
            case .date(let d): self = .date(d.timeIntervalSinceReferenceDate)
            case .data(let d): self = .data(d)
            case .uuid(let u): self = .uuid(u)
            case .array(let e), .set(let e): self = .collection(e.count)
            case .dictionary(let d): self = .collection(d.count)
            case .object(let o): self = .object(o.objectIdentity)
            }
        }
    }
}
