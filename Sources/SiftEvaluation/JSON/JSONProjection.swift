import SiftLanguage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The top-level keys of records that are worth building: a predicate over `age` and `city`
/// need not build a record's `address`, `tags` or `history`. With a projection,
/// ``JSONRecordReader`` builds only these keys of an object record and checks the rest
/// without building them (the same syntax errors are found), which makes filtering wide
/// records several times faster.
///
///     let keys = JSONProjection.keys(readBy: predicate)      // nil: the predicate needs all of it
///     let reader = JSONRecordReader(fileDescriptor: fd, projection: keys.map(JSONProjection.init))
///
/// A record that is not an object, or whose first key starts with `$` (a typed value), is
/// built in full.
public struct JSONProjection: Sendable {
    public let keys: Set<String>
    /// The ASCII keys as bytes, compared without making strings (few keys only).
    private let asciiKeys: [[UInt8]]?

    public init(keys: Set<String>) {
        self.keys = keys
        let ascii = keys.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } }
        asciiKeys = ascii && keys.count <= 8 ? keys.map { Array($0.utf8) } : nil
    }

    /// Whether the key with these UTF-8 bytes is kept.
    @inline(__always)
    func accepts(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        if let asciiKeys, key.allSatisfy({ $0 < 0x80 }) {
            for candidate in asciiKeys where candidate.count == key.count {
                if candidate.withUnsafeBufferPointer({ memcmp($0.baseAddress!, key.baseAddress!, key.count) == 0 }) { return true }
            }
            return false
        }
        // Non-ASCII keys compare as Swift strings do (canonically equivalent keys are equal).
        return keys.contains(String(decoding: key, as: UTF8.self))
    }

    // MARK: What a predicate reads

    /// The top-level keys of the evaluated object that `predicate` can read; nil when it can
    /// read more than named keys (it uses `SELF` itself, or an `@` key of the object).
    public static func keys(readBy predicate: PredicateNode) -> Set<String>? {
        var keys: Set<String> = []
        return collect(predicate, into: &keys) ? keys : nil
    }

    /// The top-level keys `expression` can read (nil: more than named keys).
    public static func keys(readBy expression: ExpressionNode) -> Set<String>? {
        var keys: Set<String> = []
        return collect(expression, into: &keys) ? keys : nil
    }

    /// The first key of a key path written as text (`address.city` → `address`), for sort and
    /// section key paths; nil unless it starts with a plain identifier that is not a reserved
    /// word (`SELF.a` reads the object itself).
    public static func firstKey(ofKeyPath keyPath: String) -> String? {
        let first = keyPath.prefix { $0 != "." && $0 != "[" }
        guard let head = first.unicodeScalars.first, head == "_" || head.properties.isAlphabetic && head.isASCII,
              first.unicodeScalars.allSatisfy({ $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)) }),
              !reservedWords.contains(first.uppercased())
        else { return nil }
        return String(first)
    }

    /// LANGUAGE.md §1.
    static let reservedWords = Set(Keyword.reservedWords)

    /// Adds the keys `predicate` reads; false when it reads the object as a whole.
    private static func collect(_ predicate: PredicateNode, into keys: inout Set<String>) -> Bool {
        switch predicate.kind {
        case .constant: return true
        case .comparison(let comparison):
            return collect(comparison.left, into: &keys) && collect(comparison.right, into: &keys)
        case .and(let predicates), .or(let predicates):
            return predicates.allSatisfy { collect($0, into: &keys) }
        case .not(let inner):
            return collect(inner, into: &keys)
        }
    }

    private static func collect(_ expression: ExpressionNode, into keys: inout Set<String>) -> Bool {
        switch expression.kind {
        case .constant, .variable:
            return true
        case .evaluatedObject:
            return false  // SELF as a whole
        case .keyPath(let base, let path):
            if base == nil || base?.kind == .evaluatedObject {
                // A key of the object itself: `@count` and friends read all of it.
                guard let first = path.first, !first.hasPrefix("@") else { return false }
                keys.insert(first)
                return true
            }
            return collect(base!, into: &keys)
        case .index(let base, let subscriptKind):
            if base.kind == .evaluatedObject {
                // SELF['key'] reads one key; SELF[0], SELF[FIRST] ... read more.
                guard case .expression(let e) = subscriptKind, case .constant(.string(let key)) = e.kind else { return false }
                keys.insert(key)
                return true
            }
            if case .expression(let e) = subscriptKind, !collect(e, into: &keys) { return false }
            return collect(base, into: &keys)
        case .aggregate(let elements), .function(_, let elements):
            return elements.allSatisfy { collect($0, into: &keys) }
        case .dictionary(let entries):
            return entries.allSatisfy { collect($0.value, into: &keys) }
        case .functionExpression(let receiver, _, let arguments):
            return collect(receiver, into: &keys) && arguments.allSatisfy { collect($0, into: &keys) }
        case .subquery(let collection, _, let predicate):
            // Bare key paths inside read the element; counting them as the object's is harmless.
            return collect(collection, into: &keys) && collect(predicate, into: &keys)
        case .ternary(let condition, let then, let otherwise):
            return collect(condition, into: &keys) && collect(then, into: &keys) && collect(otherwise, into: &keys)
        case .cast(let value, _), .assignment(_, let value), .unary(_, let value):
            return collect(value, into: &keys)
        case .binary(_, let left, let right):
            return collect(left, into: &keys) && collect(right, into: &keys)
        }
    }
}
