import Foundation
import Testing
@testable import SiftEvaluation
import SiftLanguage

/// Every comparison operator × option × value kind (LANGUAGE.md §3–§5), with the answers worked
/// out by hand from the spec — never by asking the evaluator.
///
/// The value kinds live in one record, one key per kind (`k_int`, `k_string`, ...; `k_missing`
/// is not there at all). A row is a comparison whose left side is each kind in turn, and the
/// answers for the kinds in ``Kind`` order, written `T`/`F`.
@Suite("Operator × option × kind matrix")
struct OperatorMatrixTests {
    enum Kind: String, CaseIterable, Sendable {
        case null = "nil", bool, int, double, decimal, string, date, data, uuid, array, set, dictionary, object, missing, empty

        var key: String { "k_" + rawValue }

        /// Kinds whose values hold strings, so that options may change their answers.
        var holdsStrings: Bool { [.string, .array, .set, .dictionary].contains(self) }
    }

    /// An object of a model (compared by identity; `name` is its only key).
    struct Thing: KeyValueObject {
        let id: String
        func value(forKey key: String) throws(EvaluationError) -> Value { key == "name" ? .string("Café") : .null }
        var objectIdentity: AnyHashable { id }
    }

    static let date = Date(timeIntervalSinceReferenceDate: 100)
    static let uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))

    /// One value of each kind. `Café` is precomposed (U+00E9) throughout.
    static let record: Value = .dictionary(ValueDictionary([
        (Kind.null.key, .null),
        (Kind.bool.key, .bool(true)),
        (Kind.int.key, .int(5)),
        (Kind.double.key, .double(2.5)),
        (Kind.decimal.key, .decimal(Decimal(string: "10.5") ?? 0)),
        (Kind.string.key, .string("Café")),
        (Kind.date.key, .date(date)),
        (Kind.data.key, .data(Data([1, 2, 3]))),
        (Kind.uuid.key, .uuid(uuid)),
        (Kind.array.key, .array([.int(1), .int(5), .string("café")])),
        (Kind.set.key, .set([.string("CAFE"), .double(2.5)])),
        (Kind.dictionary.key, .dictionary(ValueDictionary([("k", .string("Café")), ("n", .int(5))]))),
        (Kind.object.key, .object(Thing(id: "o1"))),
        (Kind.empty.key, .array([])),
    ]))

    struct Row: Sendable, CustomTestStringConvertible {
        /// The comparison with `x` for the left side and `{o}` where options go.
        let template: String
        let expected: [Bool]
        var testDescription: String { template }

        init(_ template: String, _ answers: String) {
            self.template = template
            self.expected = answers.compactMap { $0 == "T" ? true : ($0 == "F" ? false : nil) }
            precondition(expected.count == Kind.allCases.count, "\(template): \(expected.count) answers")
        }

        func format(_ kind: Kind, options: String) -> String {
            template
                .replacingOccurrences(of: "{o}", with: options.isEmpty ? "" : "[\(options)]")
                .replacingOccurrences(of: "x", with: kind.key)
        }
    }

    //                                                          nil bool int dbl dec str date data uuid arr set dict obj miss empty
    static let rows: [Row] = [
        // == and != : nil-safe; numbers across kinds (YES is 1); no other coercion; a collection
        // against a single value is an implicit ANY; two collections compare whole.
        Row("x =={o} 5",                                        "F   F    T   F   F   F   F    F    F    T   F   F    F   F    F"),
        Row("x !={o} 5",                                        "T   T    F   T   T   T   T    T    T    T   T   T    T   T    F"),
        Row("x =={o} nil",                                      "T   F    F   F   F   F   F    F    F    F   F   F    F   T    F"),
        Row("x !={o} nil",                                      "F   T    T   T   T   T   T    T    T    T   T   T    T   F    F"),
        Row("x =={o} YES",                                      "F   T    F   F   F   F   F    F    F    T   F   F    F   F    F"),
        Row("x =={o} 2.5",                                      "F   F    F   T   F   F   F    F    F    F   T   F    F   F    F"),
        Row("x =={o} 10.5",                                     "F   F    F   F   T   F   F    F    F    F   F   F    F   F    F"),
        Row("x =={o} '5'",                                      "F   F    F   F   F   F   F    F    F    F   F   F    F   F    F"),
        Row("x =={o} 'Café'",                                   "F   F    F   F   F   T   F    F    F    F   F   F    F   F    F"),
        Row("x =={o} 'café'",                                   "F   F    F   F   F   F   F    F    F    T   F   F    F   F    F"),
        Row("x =={o} k_date",                                   "F   F    F   F   F   F   T    F    F    F   F   F    F   F    F"),
        Row("x =={o} k_data",                                   "F   F    F   F   F   F   F    T    F    F   F   F    F   F    F"),
        Row("x !={o} k_data",                                   "T   T    T   T   T   T   T    F    T    T   T   T    T   T    F"),
        Row("x =={o} k_uuid",                                   "F   F    F   F   F   F   F    F    T    F   F   F    F   F    F"),
        Row("x =={o} k_array",                                  "F   T    T   F   F   F   F    F    F    T   F   F    F   F    F"),
        Row("x =={o} k_set",                                    "F   F    F   T   F   F   F    F    F    F   T   F    F   F    F"),
        Row("x =={o} k_dictionary",                             "F   F    F   F   F   F   F    F    F    F   F   T    F   F    F"),
        Row("x =={o} k_object",                                 "F   F    F   F   F   F   F    F    F    F   F   F    T   F    F"),
        Row("x =={o} k_empty",                                  "F   F    F   F   F   F   F    F    F    F   F   F    F   F    T"),
        Row("x !={o} k_empty",                                  "F   F    F   F   F   F   F    F    F    T   T   F    F   F    F"),
        // Ordering: numbers, strings (code points), dates; anything else (or nil) is false.
        Row("x <{o} 6",                                         "F   T    T   T   F   F   F    F    F    T   T   F    F   F    F"),
        Row("x >={o} 5",                                        "F   F    T   F   T   F   F    F    F    T   F   F    F   F    F"),
        Row("x <={o} 2.5",                                      "F   T    F   T   F   F   F    F    F    T   T   F    F   F    F"),
        Row("x >{o} 10",                                        "F   F    F   F   T   F   F    F    F    F   F   F    F   F    F"),
        Row("x >{o} 'B'",                                       "F   F    F   F   F   T   F    F    F    T   T   F    F   F    F"),
        Row("x <{o} 'Cafe'",                                    "F   F    F   F   F   F   F    F    F    F   T   F    F   F    F"),
        Row("x >{o} CAST(50, 'NSDate')",                        "F   F    F   F   F   F   T    F    F    F   F   F    F   F    F"),
        Row("x <{o} CAST(50, 'NSDate')",                        "F   F    F   F   F   F   F    F    F    F   F   F    F   F    F"),
        Row("x <{o} k_data",                                    "F   F    F   F   F   F   F    F    F    F   F   F    F   F    F"),
        // String operators: both sides strings (a collection: each element); CONTAINS with a
        // collection on the left is membership.
        Row("x BEGINSWITH{o} 'Ca'",                             "F   F    F   F   F   T   F    F    F    F   F   F    F   F    F"),
        Row("x ENDSWITH{o} 'é'",                                "F   F    F   F   F   T   F    F    F    T   F   F    F   F    F"),
        Row("x CONTAINS{o} 'af'",                               "F   F    F   F   F   T   F    F    F    F   F   F    F   F    F"),
        Row("x CONTAINS{o} ''",                                 "F   F    F   F   F   F   F    F    F    F   F   F    F   F    F"),  // an empty needle never matches
        Row("x BEGINSWITH{o} ''",                               "F   F    F   F   F   F   F    F    F    F   F   F    F   F    F"),
        Row("x ENDSWITH{o} ''",                                 "F   F    F   F   F   F   F    F    F    F   F   F    F   F    F"),
        Row("'' IN{o} x",                                       "F   F    F   F   F   F   F    F    F    F   F   F    F   F    F"),
        Row("x CONTAINS{o} 5",                                  "F   F    F   F   F   F   F    F    F    T   F   F    F   F    F"),
        Row("x CONTAINS{o} 'café'",                             "F   F    F   F   F   F   F    F    F    T   F   F    F   F    F"),
        Row("x LIKE{o} 'C*'",                                   "F   F    F   F   F   T   F    F    F    F   T   F    F   F    F"),
        Row("x LIKE{o} '*'",                                    "F   F    F   F   F   T   F    F    F    T   T   F    F   F    F"),
        Row("x MATCHES{o} '.*'",                                "F   F    F   F   F   T   F    F    F    T   T   F    F   F    F"),
        Row("x MATCHES{o} 'C.f.'",                              "F   F    F   F   F   T   F    F    F    F   F   F    F   F    F"),
        // IN: an aggregate or collection (membership), a dictionary (its values), a string
        // (substring); nil-safe equality.
        Row("x IN{o} {5, 'Café'}",                              "F   F    T   F   F   T   F    F    F    T   F   F    F   F    F"),
        Row("x IN{o} {}",                                       "F   F    F   F   F   F   F    F    F    F   F   F    F   F    F"),
        Row("x IN{o} {nil, 2.5}",                               "T   F    F   T   F   F   F    F    F    F   T   F    F   T    F"),
        Row("x IN{o} k_dictionary",                             "F   F    T   F   F   T   F    F    F    T   F   F    F   F    F"),
        Row("x IN{o} 'Café au lait'",                           "F   F    F   F   F   T   F    F    F    F   F   F    F   F    F"),
        Row("x IN{o} k_array",                                  "F   T    T   F   F   F   F    F    F    T   F   F    F   F    F"),
        Row("x IN{o} k_nil",                                    "F   F    F   F   F   F   F    F    F    F   F   F    F   F    F"),
        // BETWEEN: bounds included; kinds without a common order are false.
        Row("x BETWEEN{o} {2, 6}",                              "F   F    T   T   F   F   F    F    F    T   T   F    F   F    F"),
        Row("x BETWEEN{o} {1, 1}",                              "F   T    F   F   F   F   F    F    F    T   F   F    F   F    F"),
        Row("x BETWEEN{o} {'A', 'D'}",                          "F   F    F   F   F   T   F    F    F    F   T   F    F   F    F"),
        Row("x BETWEEN{o} {CAST(0, 'NSDate'), CAST(200, 'NSDate')}", "F F  F   F   F   F   T    F    F    F   F   F    F   F    F"),
        // Qualifiers: over a collection's elements (a dictionary's values; nil is empty; a
        // single value is a collection of one). Empty: ANY false, ALL and NONE true.
        Row("ANY x =={o} 5",                                    "F   F    T   F   F   F   F    F    F    T   F   T    F   F    F"),
        Row("SOME x =={o} 5",                                   "F   F    T   F   F   F   F    F    F    T   F   T    F   F    F"),
        Row("ALL x =={o} 5",                                    "T   F    T   F   F   F   F    F    F    F   F   F    F   T    T"),
        Row("NONE x =={o} 5",                                   "T   T    F   T   T   T   T    T    T    F   T   F    T   T    T"),
        Row("ALL x >{o} 0",                                     "T   T    T   T   T   F   F    F    F    F   F   F    F   T    T"),
        Row("ANY x BEGINSWITH{o} 'c'",                          "F   F    F   F   F   F   F    F    F    T   F   F    F   F    F"),
        Row("NONE x IN{o} {1, 'CAFE'}",                         "T   F    T   T   T   T   T    T    T    F   F   T    T   T    T"),
        // Key paths through each kind: only dictionaries and objects have keys; a collection
        // maps the key over its elements.
        Row("x.k =={o} 'Café'",                                 "F   F    F   F   F   F   F    F    F    F   F   T    F   F    F"),
        Row("x.k =={o} nil",                                    "T   T    T   T   T   T   T    T    T    T   T   F    T   T    F"),
        Row("x.name =={o} 'Café'",                              "F   F    F   F   F   F   F    F    F    F   F   F    T   F    F"),
        Row("x.@count =={o} 0",                                 "T   F    F   F   F   F   F    F    F    F   F   F    F   T    T"),
        Row("x[SIZE] =={o} 2",                                  "F   F    F   F   F   F   F    F    F    F   T   T    F   F    F"),
        Row("x[FIRST] =={o} 1",                                 "F   F    F   F   F   F   F    F    F    T   F   F    F   F    F"),
        Row("NOT x >{o} 3",                                     "T   T    F   T   F   T   T    T    T    F   T   T    T   T    T"),
    ]

    static let optionLetters = ["", "c", "d", "cd", "n"]

    func holds(_ format: String, _ arguments: Any?..., sourceLocation: SourceLocation = #_sourceLocation) -> Bool? {
        do {
            return try CompiledPredicate(format: format, arguments: arguments).evaluate(Self.record)
        } catch {
            Issue.record("\(format): \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    @Test(arguments: rows)
    func everyKindWithoutOptions(_ row: Row) {
        for (kind, expected) in zip(Kind.allCases, row.expected) {
            let format = row.format(kind, options: "")
            #expect(holds(format) == expected, "\(format) (\(kind.rawValue))")
        }
    }

    /// Options change string comparisons only: on kinds that hold no strings every option
    /// gives the answer of the table.
    @Test(arguments: rows)
    func optionsLeaveOtherKindsAlone(_ row: Row) {
        for letters in Self.optionLetters.dropFirst() {
            for (kind, expected) in zip(Kind.allCases, row.expected) where !kind.holdsStrings {
                let format = row.format(kind, options: letters)
                #expect(holds(format) == expected, "\(format) (\(kind.rawValue))")
            }
        }
    }

    /// The kinds that hold strings, under each option: [], [c], [d], [cd], [n].
    struct OptionRow: Sendable, CustomTestStringConvertible {
        let template: String
        let expected: [Bool]
        var testDescription: String { template }
        init(_ template: String, _ answers: String) {
            self.template = template
            self.expected = answers.compactMap { $0 == "T" ? true : ($0 == "F" ? false : nil) }
            precondition(expected.count == 5, template)
        }
    }

    //                                                       []  [c] [d] [cd] [n]
    static let optionRows: [OptionRow] = [
        OptionRow("k_string =={o} 'café'",                     "F   T   F   T    F"),
        OptionRow("k_string =={o} 'cafe'",                     "F   F   F   T    F"),
        OptionRow("k_string =={o} 'Cafe'",                     "F   F   T   T    F"),
        OptionRow("k_string =={o} 'Cafe\\u0301'",              "T   T   T   T    F"),
        OptionRow("k_string !={o} 'Cafe\\u0301'",              "F   F   F   F    T"),
        OptionRow("k_string <{o} 'cafe'",                      "T   F   T   F    T"),
        OptionRow("k_string >{o} 'Cafe'",                      "T   T   F   F    T"),
        OptionRow("k_string >={o} 'café'",                     "F   T   F   T    F"),
        OptionRow("k_string <={o} 'CAFE'",                     "F   F   F   T    F"),
        OptionRow("k_string BEGINSWITH{o} 'CA'",               "F   T   F   T    F"),
        OptionRow("k_string ENDSWITH{o} 'E'",                  "F   F   F   T    F"),
        OptionRow("k_string CONTAINS{o} 'FE'",                 "F   F   F   T    F"),
        OptionRow("k_string LIKE{o} 'CAF?'",                   "F   T   F   T    F"),
        OptionRow("k_string MATCHES{o} 'caf.'",                "F   T   F   T    F"),
        OptionRow("k_string MATCHES{o} 'Cafe'",                "F   F   T   T    F"),
        OptionRow("k_string IN{o} {'CAFÉ', 'x'}",              "F   T   F   T    F"),
        OptionRow("k_string IN{o} 'un cafe noir'",             "F   F   F   T    F"),
        OptionRow("k_string BETWEEN{o} {'cafe', 'cafz'}",      "F   F   F   T    F"),
        OptionRow("k_string BETWEEN{o} {'cafe', 'cafй'}",      "F   T   F   T    F"),
        OptionRow("k_array CONTAINS{o} 'CAFÉ'",                "F   T   F   T    F"),
        OptionRow("k_set CONTAINS{o} 'cafe'",                  "F   T   F   T    F"),
        OptionRow("'CAFE' IN{o} k_array",                      "F   F   F   T    F"),
        OptionRow("'cafe' IN{o} k_dictionary",                 "F   F   F   T    F"),
        OptionRow("'Cafe' IN{o} k_dictionary",                 "F   F   T   T    F"),
        OptionRow("ANY k_array =={o} 'CAFÉ'",                  "F   T   F   T    F"),
        OptionRow("k_array =={o} 'CAFE'",                      "F   F   F   T    F"),
        OptionRow("ANY k_set BEGINSWITH{o} 'c'",               "F   T   F   T    F"),
        OptionRow("ALL k_dictionary =={o} 'café'",             "F   F   F   F    F"),
        OptionRow("k_dictionary.k =={o} 'cafe'",               "F   F   F   T    F"),
        OptionRow("k_object.name LIKE{o} 'cafe'",              "F   F   F   T    F"),
    ]

    @Test(arguments: optionRows)
    func kindsHoldingStringsUnderEachOption(_ row: OptionRow) {
        for (letters, expected) in zip(Self.optionLetters, row.expected) {
            let format = row.template.replacingOccurrences(of: "{o}", with: letters.isEmpty ? "" : "[\(letters)]")
            #expect(holds(format) == expected, "\(format)")
        }
    }

    /// Strings that Unicode makes hard, through the evaluator: `s OP[options] %@` on `{"s": a}`.
    struct StringRow: Sendable, CustomTestStringConvertible {
        let a: String
        let op: String
        let b: Any & Sendable
        let expected: [Bool]
        var testDescription: String { "\(displayed(a)) \(op) \(b)" }
        init(_ a: String, _ op: String, _ b: Any & Sendable, _ answers: String) {
            self.a = a
            self.op = op
            self.b = b
            self.expected = answers.compactMap { $0 == "T" ? true : ($0 == "F" ? false : nil) }
            precondition(expected.count == 5, "\(a) \(op)")
        }
    }

    //                                                                     []  [c] [d] [cd] [n]
    static let unicodeRows: [StringRow] = [
        // ß folds to ss under [c] only (full case folding).
        StringRow("straße", "==", "STRASSE",                                  "F   T   F   T    F"),
        StringRow("STRASSE", "==", "straße",                                  "F   T   F   T    F"),
        StringRow("straße", "<=", "strasse",                                  "F   T   F   T    F"),
        StringRow("Straße", "ENDSWITH", "SSE",                                "F   T   F   T    F"),
        StringRow("Straße", "LIKE", "stra*",                                  "F   T   F   T    F"),
        StringRow("ß", "LIKE", "??",                                          "F   T   F   T    F"),
        StringRow("Straße", "MATCHES", "stra.*",                              "F   T   F   T    F"),
        // é precomposed (U+00E9) and decomposed (e + U+0301) are the same string, except
        // under [n], which compares the bytes as they are.
        StringRow("\u{E9}", "==", "e\u{301}",                                 "T   T   T   T    F"),
        StringRow("\u{E9}", "!=", "e\u{301}",                                 "F   F   F   F    T"),
        StringRow("e\u{301}", "<", "\u{E9}",                                  "F   F   F   F    T"),
        StringRow("e\u{301}", "<=", "\u{E9}",                                 "T   T   T   T    T"),
        StringRow("\u{E9}", "==", "e",                                        "F   F   T   T    F"),
        StringRow("\u{C9}", "==", "e",                                        "F   F   F   T    F"),
        StringRow("\u{E9}", ">", "f",                                         "T   T   F   F    T"),
        StringRow("e\u{301}tude", "BEGINSWITH", "\u{E9}",                     "T   T   T   T    F"),
        StringRow("e\u{301}", "BEGINSWITH", "e",                              "F   F   T   T    T"),
        StringRow("caf\u{E9}", "ENDSWITH", "E",                               "F   F   F   T    F"),
        StringRow("Stár", "BEGINSWITH", "Star",                               "F   F   T   T    F"),
        StringRow("stár", "BEGINSWITH", "Star",                               "F   F   F   T    F"),
        StringRow("e\u{301}", "LIKE", "?",                                    "T   T   T   T    T"),
        StringRow("caf\u{E9}", "MATCHES", "cafe",                             "F   F   T   T    F"),
        StringRow("\u{C9}", "MATCHES", "e",                                   "F   F   F   T    F"),
        StringRow("ar", "IN", "Stár",                                         "F   F   T   T    F"),
        StringRow("\u{E9}", "IN", ["e\u{301}"],                               "T   T   T   T    F"),
        StringRow("\u{E9}", "BETWEEN", ["e", "f"],                            "F   F   T   T    F"),
        // Å: U+00C5, the Ångström sign U+212B (canonically U+00C5) and A + U+030A.
        StringRow("\u{C5}", "==", "\u{212B}",                                 "T   T   T   T    F"),
        StringRow("\u{C5}", "==", "A\u{30A}",                                 "T   T   T   T    F"),
        StringRow("\u{C5}", "==", "a",                                        "F   F   F   T    F"),
        StringRow("\u{C5}LAND", "CONTAINS", "\u{E5}",                         "F   T   F   T    F"),
        StringRow("\u{212B}ngstr\u{F6}m", "BEGINSWITH", "\u{C5}",             "T   T   T   T    F"),
        // Emoji: whole clusters; a skin-tone modifier is not a diacritic.
        StringRow("👨‍👩‍👧", "==", "👨‍👩‍👧",                                         "T   T   T   T    T"),
        StringRow("👍🏽", "==", "👍",                                           "F   F   F   F    F"),
        StringRow("👍🏽", "BEGINSWITH", "👍",                                   "T   T   T   T    T"),
        StringRow("I ❤️ Swift", "CONTAINS", "❤️",                               "T   T   T   T    T"),
        StringRow("👨‍👩‍👧", "LIKE", "?",                                          "T   T   T   T    T"),
        StringRow("👨‍👩‍👧", "LIKE", "??",                                         "F   F   F   F    F"),
        StringRow("😀", "<", "😁",                                             "T   T   T   T    T"),
        // ASCII and the empty string.
        StringRow("B", "<", "a",                                              "T   F   T   F    T"),
        StringRow("b", "BETWEEN", ["A", "C"],                                 "F   T   F   T    F"),
        StringRow("ANN", "IN", ["ann", "bob"],                                "F   T   F   T    F"),
        StringRow("", "ENDSWITH", "a",                                        "F   F   F   F    F"),
        // An empty needle never matches, "" included (LANGUAGE.md §4); nor does one that [d]
        // folds away (a lone mark); IN a string is the same search; LIKE "" matches only "".
        StringRow("", "BEGINSWITH", "",                                       "F   F   F   F    F"),
        StringRow("abc", "BEGINSWITH", "",                                    "F   F   F   F    F"),
        StringRow("", "ENDSWITH", "",                                         "F   F   F   F    F"),
        StringRow("abc", "ENDSWITH", "",                                      "F   F   F   F    F"),
        StringRow("", "CONTAINS", "",                                         "F   F   F   F    F"),
        StringRow("abc", "CONTAINS", "",                                      "F   F   F   F    F"),
        StringRow("", "IN", "",                                               "F   F   F   F    F"),
        StringRow("", "IN", "abc",                                            "F   F   F   F    F"),
        StringRow("x\u{301}", "CONTAINS", "\u{301}",                          "T   T   F   F    T"),
        StringRow("\u{301}", "IN", "x\u{301}",                                "T   T   F   F    T"),
        StringRow("", "LIKE", "",                                             "T   T   T   T    T"),
        StringRow("abc", "LIKE", "",                                          "F   F   F   F    F"),
        StringRow("", "IN", [""],                                             "T   T   T   T    T"),
        StringRow("", "LIKE", "*",                                            "T   T   T   T    T"),
        StringRow("", "MATCHES", "",                                          "T   T   T   T    T"),
        StringRow("a*b", "LIKE", "a\\*b",                                     "T   T   T   T    T"),
        StringRow("axb", "LIKE", "a\\*b",                                     "F   F   F   F    F"),
        StringRow("a.b", "LIKE", "a.b",                                       "T   T   T   T    T"),
        StringRow("axb", "LIKE", "a.b",                                       "F   F   F   F    F"),
    ]

    @Test(arguments: unicodeRows)
    func unicodeStrings(_ row: StringRow) throws {
        let object = Value.dictionary(ValueDictionary([("s", .string(row.a))]))
        for (letters, expected) in zip(Self.optionLetters, row.expected) {
            let format = "s \(row.op)\(letters.isEmpty ? "" : "[\(letters)]") %@"
            let predicate = try CompiledPredicate(format: format, arguments: [row.b])
            #expect(try predicate.evaluate(object) == expected, "\(displayed(row.a)) \(row.op)[\(letters)] \(row.b)")
        }
    }

    @Test func optionLettersCombine() {
        // [n] wins over [c] and [d]; [l] is accepted and changes nothing.
        for (format, expected) in [
            ("'ABC' ==[cn] 'abc'", false), ("'é' ==[dn] 'e'", false), ("'ABC' ==[c] 'abc'", true), ("'a' ==[l] 'a'", true),
            ("'A' ==[cl] 'a'", true), ("'A' ==[l] 'a'", false), ("'É' ==[cdl] 'e'", true), ("'É' ==[CD] 'e'", true),
        ] {
            #expect(holds(format) == expected, "\(format)")
        }
    }
}

/// Equality of collections: arrays in order; a set (either side) in any order.
@Suite("Collection equality")
struct CollectionEqualityTests {
    static let rows: [(Value, Value, Bool)] = [
        (.array([.int(1), .int(2)]), .array([.int(1), .int(2)]), true),
        (.array([.int(1), .int(2)]), .array([.int(2), .int(1)]), false),
        (.set([.int(1), .int(2)]), .set([.int(2), .int(1)]), true),
        (.set([.int(1), .int(2)]), .array([.int(2), .int(1)]), true),
        (.array([.int(1), .int(2)]), .set([.int(2), .int(1)]), true),
        (.set([.int(1), .int(1), .int(2)]), .set([.int(1), .int(2), .int(2)]), false),
        (.set([.int(1), .string("a")]), .set([.string("a"), .double(1)]), true),
        (.set([.int(1)]), .set([.int(1), .int(1)]), false),
        (.set([]), .array([]), true),
        (.set([.null, .int(1)]), .set([.int(1), .null]), true),
    ]

    @Test func collectionsCompareWhole() throws {
        for (index, (a, b, expected)) in Self.rows.enumerated() {
            let record = Value.dictionary(ValueDictionary([("a", a), ("b", b)]))
            #expect(try CompiledPredicate(format: "a == b").evaluate(record) == expected, "row \(index)")
            #expect(try CompiledPredicate(format: "a != b").evaluate(record) == !expected || a.collectionElements?.isEmpty == true, "row \(index)")
        }
        // Swift sets that are equal compare equal, whatever their iteration order.
        let many = Set((0..<50).map { "tag\($0)" })
        let rebuilt = Set(many.sorted().reversed())
        let record = Value.dictionary(ValueDictionary([("a", many.predicateValue), ("b", rebuilt.predicateValue)]))
        #expect(try CompiledPredicate(format: "a == b").evaluate(record))
        #expect(try CompiledPredicate(format: "a ==[c] %@", Set(many.map { $0.uppercased() })).evaluate(record))
        #expect(try CompiledPredicate(format: "a == %@", Set(many.map { $0.uppercased() })).evaluate(record) == false)
    }
}
