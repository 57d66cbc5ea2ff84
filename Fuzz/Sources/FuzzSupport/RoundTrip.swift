import Foundation
import Sift

/// fuzz-roundtrip: any predicate the parser accepts prints (its canonical form, `description`)
/// to text that parses back to an equal predicate, under the same nesting limit, and prints the
/// same again; its height is within the limit; its AST JSON (docs/AST-JSON.md) decodes to an
/// equal predicate. The input is parsed under a small limit (so inputs at the limit are common)
/// and, when that is too deep, under the default.
public enum RoundTripHarness {
    static let smallLimit = 12

    /// JSON has no infinities or NaN: they travel as strings.
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }()
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }()

    public static func run(_ data: UnsafeBufferPointer<UInt8>) {
        let text = String(decoding: data, as: UTF8.self)
        for limit in [smallLimit, ParserOptions.defaultMaximumNestingLevel] {
            let options = ParserOptions(maximumNestingLevel: limit)
            let predicate: PredicateNode
            do {
                predicate = try PredicateNode(format: text, arguments: [], options: options)
            } catch {
                if error.code == .nestingTooDeep { continue }
                return
            }
            check(predicate, input: text, options: options)
            return
        }
    }

    static func check(_ predicate: PredicateNode, input: String, options: ParserOptions) {
        let limit = options.maximumNestingLevel
        fuzzCheck(predicate.nestingHeight <= limit,
                  "height \(predicate.nestingHeight) over the limit \(limit) for \(quoted(input))")
        let printed = predicate.description
        let reparsed: PredicateNode
        do {
            reparsed = try PredicateNode(format: printed, arguments: [], options: options)
        } catch {
            fuzzFailure("the canonical form does not parse back under the limit \(limit):\n  input: \(quoted(input))\n  printed: \(quoted(printed))\n  \(error)")
        }
        fuzzCheck(reparsed == predicate,
                  "parse(print(p)) ≠ p:\n  input: \(quoted(input))\n  printed: \(quoted(printed))\n  reprinted: \(quoted(reparsed.description))")
        let reprinted = reparsed.description
        fuzzCheck(reprinted == printed, "print is not stable:\n  input: \(quoted(input))\n  printed: \(quoted(printed))\n  reprinted: \(quoted(reprinted))")
        fuzzCheck(CanonicalPrinter.format(predicate) == printed, "CanonicalPrinter.format differs from description for \(quoted(input))")

        // The AST's JSON form.
        let json: Data
        do {
            json = try encoder.encode(predicate)
        } catch {
            fuzzFailure("the AST does not encode to JSON: \(error)\n  input: \(quoted(input))")
        }
        do {
            let decoded = try decoder.decode(PredicateNode.self, from: json)
            fuzzCheck(decoded == predicate,
                      "decode(encode(p)) ≠ p:\n  input: \(quoted(input))\n  json: \(String(decoding: json, as: UTF8.self).prefix(600))\n  decoded: \(quoted(decoded.description))")
        } catch {
            fuzzFailure("the AST JSON does not decode: \(error)\n  input: \(quoted(input))\n  json: \(String(decoding: json, as: UTF8.self).prefix(600))")
        }
    }
}
