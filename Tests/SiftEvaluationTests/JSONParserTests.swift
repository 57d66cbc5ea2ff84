import Foundation
import SiftLanguage
import Testing
@testable import SiftEvaluation

@Suite("JSON parser")
struct JSONParserTests {
    typealias T = JSONTestSupport

    @Test func scalars() throws {
        #expect(T.same(try T.parse("null"), .null))
        #expect(T.same(try T.parse(" true "), .bool(true)))
        #expect(T.same(try T.parse("false"), .bool(false)))
        #expect(T.same(try T.parse(#""hi""#), .string("hi")))
        #expect(T.same(try T.parse("\n\t 42 \r\n"), .int(42)))
    }

    @Test func integersThatFitAreIntegersAndTheRestDoubles() throws {
        #expect(T.same(try T.parse("0"), .int(0)))
        #expect(T.same(try T.parse("-0"), .int(0)))
        #expect(T.same(try T.parse("-7"), .int(-7)))
        #expect(T.same(try T.parse("9223372036854775807"), .int(.max)))
        #expect(T.same(try T.parse("-9223372036854775808"), .int(.min)))
        #expect(T.same(try T.parse("9223372036854775808"), .double(9223372036854775808)))
        #expect(T.same(try T.parse("-9223372036854775809"), .double(Double("-9223372036854775809")!)))
        #expect(T.same(try T.parse("123456789012345678901234567890"), .double(Double("123456789012345678901234567890")!)))
        #expect(T.same(try T.parse("2.0"), .double(2)))
        #expect(T.same(try T.parse("1e3"), .double(1000)))
        #expect(T.same(try T.parse("-2.5E-3"), .double(-0.0025)))
        #expect(T.same(try T.parse("0.1"), .double(0.1)))
        #expect(T.same(try T.parse("-0.0"), .double(-0.0)))
        #expect(T.same(try T.parse("1e400"), .double(.infinity)))
        #expect(T.same(try T.parse("5e-324"), .double(.leastNonzeroMagnitude)))
        #expect(T.same(try T.parse("1E+2"), .double(100)))
    }

    @Test func doublesAreCorrectlyRounded() throws {
        var random = JSONTestRandom(seed: 7)
        for _ in 0..<20_000 {
            // Shortest forms of random doubles, and random decimal digit strings.
            let d = Double(bitPattern: random.next())
            if d.isFinite {
                guard case .double(let parsed) = try T.parse(d.description) else { Issue.record("\(d) is not a double"); continue }
                #expect(parsed.bitPattern == d.bitPattern, "\(d.description)")
            }
            let digits = (0..<random.int(1...22)).map { _ in String(random.int(0...9)) }.joined()
            let point = random.int(0...digits.count)
            let text = "\(random.chance(50) ? "-" : "")\(digits.prefix(point)).\(digits.dropFirst(point))0e\(random.int(-30...30))"
                .replacingOccurrences(of: "-.", with: "-0.").replacingOccurrences(of: #"^\."#, with: "0.", options: .regularExpression)
            guard case .double(let parsed) = try T.parse(text) else { Issue.record("\(text) is not a double"); continue }
            #expect(parsed.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
    }

    @Test func strings() throws {
        #expect(T.same(try T.parse(#""a\"b\\c\/d\b\f\n\r\t""#), .string("a\"b\\c/d\u{8}\u{C}\n\r\t")))
        #expect(T.same(try T.parse(#""\u00e9\u65E5""#), .string("é日")))
        #expect(T.same(try T.parse(#""\ud83c\udf89""#), .string("🎉")))
        #expect(T.same(try T.parse(#""\ud83c x""#), .string("\u{FFFD} x")))
        #expect(T.same(try T.parse("\"Stár 日本 🎉\""), .string("Stár 日本 🎉")))
        #expect(T.same(try T.parse(#""""#), .string("")))
    }

    @Test func objectsKeepTheirKeyOrder() throws {
        let value = try T.parse(#"{"b": 1, "a": [true, null], "c": {"z": "x", "y": 2.5}}"#)
        #expect(T.same(value, T.object([
            "b": .int(1), "a": .array([.bool(true), .null]),
            "c": T.object(["z": .string("x"), "y": .double(2.5)]),
        ])))
        guard case .dictionary(let dictionary) = value else { Issue.record("not a dictionary"); return }
        #expect(dictionary.keys == ["b", "a", "c"])
        #expect(dictionary["missing"] == nil)
    }

    @Test func aRepeatedKeyKeepsItsFirstPlaceAndItsLastValue() throws {
        #expect(T.same(try T.parse(#"{"a": 1, "b": 2, "a": 3}"#), T.object(["a": .int(3), "b": .int(2)])))
    }

    @Test func largeObjectsAreLookedUpByKey() throws {
        let text = "{" + (0..<100).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + "}"
        guard case .dictionary(let dictionary) = try T.parse(text) else { Issue.record("not a dictionary"); return }
        #expect(dictionary.count == 100)
        #expect(T.same(dictionary["k57"] ?? .null, .int(57)))
    }

    @Test func typedForms() throws {
        #expect(T.same(try T.parse(#"{"$date": "2001-01-01T00:01:00Z"}"#), .date(Date(timeIntervalSinceReferenceDate: 60))))
        #expect(T.same(try T.parse(#"{"$date": "2021-03-04"}"#), .date(ISO8601.date(from: "2021-03-04")!)))
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        #expect(T.same(try T.parse(#"{"$uuid": "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"}"#), .uuid(uuid)))
        #expect(T.same(try T.parse(#"{"$data": "AQI="}"#), .data(Data([1, 2]))))
        #expect(T.same(try T.parse(#"{"$decimal": "1.25"}"#), .decimal(Decimal(string: "1.25")!)))
        #expect(T.same(try T.parse(#"{"$decimal": "-3e2"}"#), .decimal(Decimal(-300))))
        #expect(T.same(try T.parse(#"[{"$date": "2001-01-01T00:00:00Z"}]"#), .array([.date(Date(timeIntervalSinceReferenceDate: 0))])))
    }

    /// The doubles JSON has no number for, as ``JSONWriter`` writes them (and a few spellings
    /// people write by hand).
    @Test(arguments: [
        (#"{"$double": "1e999"}"#, Double.infinity), (#"{"$double": "-1e999"}"#, -Double.infinity),
        (#"{"$double": "Infinity"}"#, .infinity), (#"{"$double": "-inf"}"#, -.infinity), (#"{"$double": "+INF"}"#, .infinity),
        (#"{"$double": "2.5"}"#, 2.5), (#"{"$double": "-0.0"}"#, -0.0),
    ])
    func doubleTypedForms(_ text: String, _ expected: Double) throws {
        guard case .double(let d) = try T.parse(text) else { Issue.record("\(text) is not a double"); return }
        #expect(d == expected && d.sign == expected.sign)
    }

    @Test func doubleTypedFormOfNaN() throws {
        guard case .double(let d) = try T.parse(#"{"$double": "NaN"}"#) else { Issue.record("not a double"); return }
        #expect(d.isNaN)
    }

    /// Every double JSON output writes reads back as the same double.
    @Test func doublesRoundTripThroughJSON() throws {
        for d in [Double.infinity, -.infinity, .nan, 0.1, -0.0, 1e300, .greatestFiniteMagnitude, .leastNonzeroMagnitude] {
            let text = Value.array([.double(d)]).jsonString()
            guard case .array(let elements) = try T.parse(text), case .double(let read)? = elements.first else {
                Issue.record("\(text) does not read back as a double"); continue
            }
            #expect(read.isNaN ? d.isNaN : read == d && read.sign == d.sign, "\(text)")
        }
    }

    @Test func objectsThatOnlyLookTypedAreDictionaries() throws {
        #expect(T.same(try T.parse(#"{"$date": 5}"#), T.object(["$date": .int(5)])))
        #expect(T.same(try T.parse(#"{"$date": "2021-03-04", "x": 1}"#), T.object(["$date": .string("2021-03-04"), "x": .int(1)])))
        #expect(T.same(try T.parse(#"{"$ref": "p1"}"#), T.object(["$ref": .string("p1")])))
        #expect(T.same(try T.parse(#"{"date": "2021-03-04"}"#), T.object(["date": .string("2021-03-04")])))
    }

    @Test(arguments: [
        (#"{"$date": "yesterday"}"#, 11, "invalid ISO 8601 date 'yesterday'"),
        (#"{"$uuid": "nope"}"#, 11, "invalid UUID 'nope'"),
        (#"{"$data": "!!"}"#, 11, "invalid base64 in $data"),
        (#"{"$decimal": "1.5x"}"#, 14, "invalid decimal '1.5x'"),
        (#"{"$decimal": ""}"#, 14, "invalid decimal ''"),
        (#"{"$double": "lots"}"#, 13, "invalid double 'lots'"),
        (#"{"$double": "1e999x"}"#, 13, "invalid double '1e999x'"),
    ])
    func invalidTypedValuesAreErrors(_ text: String, _ column: Int, _ message: String) throws {
        let error = try #require(T.syntaxError(text))
        #expect(error.message == message)
        #expect(error.line == 1)
        #expect(error.column == column)
    }

    @Test(arguments: [
        ("{nope", 1, 2, "expected a string key"),
        ("", 1, 1, "unexpected end of JSON"),
        ("   \n  ", 2, 3, "unexpected end of JSON"),
        ("[1,]", 1, 4, "unexpected character ']'"),
        ("[1 2]", 1, 4, "expected ',' or ']'"),
        (#"{"a" 1}"#, 1, 6, "expected ':'"),
        (#"{"a": 1 "b": 2}"#, 1, 9, "expected ',' or '}'"),
        (#"{"a": 1,}"#, 1, 9, "expected a string key"),
        ("[1, 2", 1, 6, "unexpected end of JSON in an array"),
        (#"{"a": 1"#, 1, 8, "unexpected end of JSON in an object"),
        (#""abc"#, 1, 5, "unterminated string"),
        ("\"a\u{1}b\"", 1, 3, "control character in a string"),
        (#""a\qb""#, 1, 4, "invalid escape in a string"),
        (#""\u12G4""#, 1, 3, #"invalid \u escape"#),
        ("tru", 1, 1, "invalid literal"),
        ("nul1", 1, 1, "invalid literal"),
        ("-", 1, 2, "invalid number"),
        ("1.", 1, 3, "invalid number"),
        ("1.5e+", 1, 6, "invalid number"),
        ("1 2", 1, 3, "unexpected text after the JSON value"),
        ("'a'", 1, 1, "unexpected character '''"),
        ("[é, 1]", 1, 2, "unexpected character 'é'"),
        ("{\n  \"name\": \"Ann\",\n  \"age\": ,\n}", 3, 10, "unexpected character ','"),
        ("[\"日本語\", x]", 1, 9, "unexpected character 'x'"),
        ("[\"e\u{301}\", x]", 1, 7, "unexpected character 'x'"),
        ("\r\n[1,\r\n x]", 3, 2, "unexpected character 'x'"),
    ])
    func errorsNameTheLineAndColumn(_ text: String, _ line: Int, _ column: Int, _ message: String) throws {
        let error = try #require(T.syntaxError(text))
        #expect(error.message == message)
        #expect(error.line == line)
        #expect(error.column == column)
        #expect(error.description == "line \(line), column \(column): \(message)")
    }

    @Test func nestingUpToTheLimitIsFine() throws {
        let depth = JSONParser.maximumDepth
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(T.syntaxError(arrays) == nil)
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(T.syntaxError(objects) == nil)
    }

    @Test func nestingBeyondTheLimitIsAnErrorNotACrash() throws {
        let depth = JSONParser.maximumDepth + 1
        let error = try #require(T.syntaxError(String(repeating: "[", count: depth) + String(repeating: "]", count: depth)))
        #expect(error.message == "JSON nested too deeply")
        #expect(error.column == depth)
        // Far deeper, and unterminated: still an error, at the same place.
        let deep = try #require(T.syntaxError(String(repeating: #"{"a":["#, count: 200_000)))
        #expect(deep.message == "JSON nested too deeply")
    }

    /// JSON text is UTF-8: a string holding anything else is an error at the bad byte (it
    /// used to read as U+FFFD, while tools echoing the record's text printed the raw bytes).
    @Test(arguments: [
        ([0x22, 0x61, 0xFF, 0x62, 0x22], 3),                   // a byte that is never UTF-8
        ([0x22, 0x61, 0x80, 0x22], 3),                         // a stray continuation byte
        ([0x22, 0xC3, 0x22], 2),                               // a sequence cut short
        ([0x22, 0xC0, 0xAF, 0x22], 2),                         // an overlong encoding of '/'
        ([0x22, 0xED, 0xA0, 0x80, 0x22], 2),                   // an encoded surrogate
        ([0x22, 0x5C, 0x6E, 0xF5, 0x80, 0x80, 0x80, 0x22], 4), // past U+10FFFF, after an escape
        ([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D], 3),       // in a key
    ] as [([UInt8], Int)])
    func invalidUTF8IsAnError(_ bytes: [UInt8], _ column: Int) throws {
        let error = #expect(throws: JSONSyntaxError.self) { try Value(json: bytes) }
        #expect(error?.message.hasPrefix("invalid UTF-8 in a string") == true, "\(error?.message ?? "")")
        #expect(error?.column == column)
        // Skipped (projected away) values are checked the same way.
        let reader = JSONRecordReader(bytes: [0x7B, 0x22, 0x6B, 0x22, 0x3A, 0x31, 0x2C, 0x22, 0x78, 0x22, 0x3A] + bytes + [0x7D],
                                      projection: JSONProjection(keys: ["k"]))
        #expect(throws: JSONSyntaxError.self) { try reader.next() }
    }

    @Test func validUTF8AndALoneSurrogateEscapeRead() throws {
        #expect(T.same(try T.parse(#""é 🎉 \u00e9""#), .string("é 🎉 é")))
        #expect(T.same(try Value(json: [0x22, 0xF4, 0x8F, 0xBF, 0xBF, 0x22]), .string("\u{10FFFF}")))
        #expect(T.same(try T.parse(#""\ud800""#), .string("\u{FFFD}")))
    }

    @Test func bytesDataAndStringsParseAlike() throws {
        let text = #"{"a": [1, 2.5, "x"]}"#
        let expected = try T.parse(text)
        #expect(T.same(try Value(json: Array(text.utf8)), expected))
        #expect(T.same(try Value(json: Data(text.utf8)), expected))
        #expect(T.same(try Value(json: text), expected))
        #expect(T.same(try Value(json: Substring(text).description), expected))
    }
}
