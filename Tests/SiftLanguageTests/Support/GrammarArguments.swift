import Foundation

/// Arguments for the format specifiers of a sentence: finds `%@`, `%K`, `%d`, ... outside
/// quotes (as the lexer does) and draws a suitable value for each.
enum GrammarArguments {
    /// The specifiers in order, e.g. `["%@", "%K", "%ld"]`. Quoted text is skipped (inside
    /// quotes `%@` is plain text); `%%` is not a specifier.
    static func specifiers(in sentence: String) -> [String] {
        let bytes = Array(sentence.utf8)
        var result: [String] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                i += 1
                while i < bytes.count, bytes[i] != b {
                    i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
                }
                i += 1
            } else if b == UInt8(ascii: "%"), i + 1 < bytes.count {
                var j = i + 1
                if bytes[j] == UInt8(ascii: "%") {
                    i = j + 1
                    continue
                }
                while j < bytes.count, j - i <= 3, "lhqz".utf8.contains(bytes[j]) { j += 1 }
                if j < bytes.count, "@KdiuxXofFeEgGsc".utf8.contains(bytes[j]) {
                    result.append(String(decoding: bytes[i...j], as: UTF8.self))
                    i = j + 1
                } else {
                    i = j
                }
            } else {
                i += 1
            }
        }
        return result
    }

    /// One argument per specifier: `%K` a key path string, `%@` any value, `%d`-like an
    /// integer, `%f`-like a double, `%s` a string.
    static func arguments(for specifiers: [String], using rng: inout GrammarRNG) -> [Any?] {
        specifiers.map { specifier in
            switch specifier.last! {
            case "@": anyValue(&rng, depth: 0)
            case "K": keyPaths[rng.below(keyPaths.count)]
            case "d", "i", "u", "x", "X", "o", "c": integer(&rng)
            case "f", "F", "e", "E", "g", "G": double(&rng)
            default: string(&rng)
            }
        }
    }

    /// Key paths for `%K`: plain, dotted, reserved words (printed `#size`), collection
    /// operators, non-ASCII (printed with \u escapes), a key that starts with a digit.
    static let keyPaths = [
        "a", "a.b", "name", "tags.name", "size", "a.size", "in", "@count", "items.@sum.price",
        "café", "1st", "first_name", "SELF", "a b", "日本.語",
    ]

    static func integer(_ rng: inout GrammarRNG) -> Any? {
        switch rng.below(8) {
        case 0: return Int.max
        case 1: return Int.min
        case 2: return -rng.below(1000)
        case 3: return Int(bitPattern: UInt(truncatingIfNeeded: rng.next()))
        case 4: return rng.chance(1, in: 2)  // a Bool counts as an integer (prints 1 / 0)
        default: return rng.below(100)
        }
    }

    static func double(_ rng: inout GrammarRNG) -> Any? {
        let samples: [Double] = [0, -0.0, 0.1, 1.5, -2.25, 1e100, -1e-100, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .infinity, -.infinity, 3]
        switch rng.below(3) {
        case 0: return samples[rng.below(samples.count)]
        case 1: return Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF) * (rng.chance(1, in: 2) ? 1 : -1)
        default: return Double(rng.below(20_000)) / 8 - 1000
        }
    }

    static func string(_ rng: inout GrammarRNG) -> Any? {
        let samples = [
            "", "a", "it's", "say \"hi\"", "back\\slash", "tab\tnew\nline\r", "nul\u{0}", "%@ %K $x",
            "é", "e\u{301}", "日本", "😀", "\u{7F}\u{1F}", "star*?", "[A-Z]+", "STRASSE", "straße",
            // Strings a CAST folds into a date, a decimal, data or a UUID.
            "2021-03-04T05:06:07Z", "2021-03-04 05:06", "-12.50", "1e-7", "SGVsbG8=", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
        ]
        if rng.chance(1, in: 3) {
            // A random mix of the interesting characters.
            let pieces = ["a", "Z", "\"", "'", "\\", "\n", "\t", "\u{0}", "%", "$", "é", "😀", " ", "\u{301}", "\u{FFFF}"]
            return String((0..<rng.below(8)).map { _ in pieces[rng.below(pieces.count)] }.joined())
        }
        return samples[rng.below(samples.count)]
    }

    static func anyValue(_ rng: inout GrammarRNG, depth: Int) -> Any? {
        switch rng.below(depth == 0 ? 13 : 10) {
        case 0: return integer(&rng)
        case 1: return double(&rng)
        case 2: return string(&rng)
        case 3: return rng.chance(1, in: 2)
        case 4: return nil as Any?
        case 5: return Date(timeIntervalSinceReferenceDate: [0, 636_725_167, -1.5, 1e9 + 0.25, -9e10][rng.below(5)])
        case 6: return [Decimal(string: "12.5")!, Decimal(string: "-0.001")!, Decimal(0), Decimal(string: "123456789012345678901234567890")!][rng.below(4)]
        case 7: return Data((0..<rng.below(6)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
        case 8: return UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, UInt8(rng.below(256))))
        case 9: return Float(rng.below(100)) / 4
        case 10:
            // A dictionary: becomes a dictionary expression (keys sorted).
            let keys = ["a", "", "it's", "é", "$date", "k\"q"]
            var dictionary: [String: Any?] = [:]
            for _ in 0..<rng.below(4) { dictionary[keys[rng.below(keys.count)]] = anyValue(&rng, depth: depth + 1) }
            return dictionary
        default:
            // An array: becomes an aggregate.
            return (0..<rng.below(4)).map { _ in anyValue(&rng, depth: depth + 1) } as [Any?]
        }
    }

    /// A readable list of the arguments, for failure messages.
    static func describe(_ arguments: [Any?]) -> String {
        "[" + arguments.map { argument -> String in
            guard let argument else { return "nil" }
            if let s = argument as? String { return String(reflecting: s) }
            if let array = argument as? [Any?] { return describe(array) }
            if let dictionary = argument as? [String: Any?] {
                return "[" + dictionary.keys.sorted().map { "\(String(reflecting: $0)): \(describe([dictionary[$0] ?? nil]).dropFirst().dropLast())" }.joined(separator: ", ") + "]"
            }
            return "\(argument) (\(type(of: argument)))"
        }.joined(separator: ", ") + "]"
    }
}
