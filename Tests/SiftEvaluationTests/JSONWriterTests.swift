import Foundation
import SiftLanguage
import Testing
@testable import SiftEvaluation

@Suite("JSON writer")
struct JSONWriterTests {
    typealias T = JSONTestSupport

    @Test func scalars() {
        #expect(Value.null.jsonString() == "null")
        #expect(Value.bool(true).jsonString() == "true")
        #expect(Value.int(-42).jsonString() == "-42")
        #expect(Value.int(.min).jsonString() == "-9223372036854775808")
        #expect(Value.double(2).jsonString() == "2.0")
        #expect(Value.double(0.1).jsonString() == "0.1")
        #expect(Value.double(1e100).jsonString() == "1e+100")
        #expect(Value.double(-0.0).jsonString() == "-0.0")
        // JSON has no number for these: the typed form the parser (and the importer) reads back.
        #expect(Value.double(.nan).jsonString() == #"{"$double":"NaN"}"#)
        #expect(Value.double(.infinity).jsonString() == #"{"$double":"1e999"}"#)
        #expect(Value.double(-.infinity).jsonString() == #"{"$double":"-1e999"}"#)
    }

    @Test func stringsEscapeQuotesBackslashesAndControlCharacters() {
        #expect(Value.string("a\"b\\c/d\n\r\t\u{8}\u{C}\u{1}\u{7F}é🎉").jsonString() == #""a\"b\\c/d\n\r\t\b\f\u0001"# + "\u{7F}é🎉\"")
        // Escapes first, last, alone, side by side, and none at all (runs are copied whole).
        #expect(Value.string("\"x\\").jsonString() == #""\"x\\""#)
        #expect(Value.string("\n").jsonString() == #""\n""#)
        #expect(Value.string("\u{1F}\u{0}ab").jsonString() == #""\u001f\u0000ab""#)
        #expect(Value.string("").jsonString() == #""""#)
        #expect(Value.string("Élodie 4711").jsonString() == "\"Élodie 4711\"")
        let long = String(repeating: "ab\"", count: 1_000)
        #expect(Value.string(long).jsonString() == "\"" + String(repeating: #"ab\""#, count: 1_000) + "\"")
    }

    @Test func typedValues() {
        #expect(Value.date(Date(timeIntervalSinceReferenceDate: 60)).jsonString() == #"{"$date":"2001-01-01T00:01:00Z"}"#)
        #expect(Value.date(Date(timeIntervalSince1970: 0.25)).jsonString() == #"{"$date":"1970-01-01T00:00:00.25Z"}"#)
        #expect(Value.uuid(UUID(uuidString: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")!).jsonString() == #"{"$uuid":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}"#)
        #expect(Value.data(Data([1, 2])).jsonString() == #"{"$data":"AQI="}"#)
        #expect(Value.decimal(Decimal(string: "1.25")!).jsonString() == #"{"$decimal":"1.25"}"#)
    }

    @Test func collections() {
        let value = T.object(["b": .array([.int(1), .set([.string("x")])]), "a": .dictionary(ValueDictionary()), "c": .array([])])
        #expect(value.jsonString() == #"{"b":[1,["x"]],"a":{},"c":[]}"#)
        #expect(value.jsonString(prettyPrinted: true) == """
            {
              "b": [
                1,
                [
                  "x"
                ]
              ],
              "a": {},
              "c": []
            }
            """)
    }

    struct Thing: KeyValueObject {
        func value(forKey key: String) throws(EvaluationError) -> Value { .null }
        var objectIdentity: AnyHashable { "thing-1" }
    }

    @Test func objectsAreWrittenAsReferences() {
        #expect(Value.object(Thing()).jsonString() == #"{"$ref":"thing-1"}"#)
    }

    /// What the writer writes reads back as the same value.
    @Test func roundTrip() throws {
        var random = JSONTestRandom(seed: 2024)
        for _ in 0..<3_000 {
            let value = random.value()
            for pretty in [false, true] {
                let text = value.jsonString(prettyPrinted: pretty)
                let parsed = try Value(json: text)
                #expect(T.same(parsed, value), "\(text)")
            }
        }
    }

    @Test func writingIntoBytesAppends() {
        var bytes = Array("x=".utf8)
        JSONWriter.write(.array([.int(1)]), to: &bytes)
        JSONWriter.writeString("q\"", to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"x=[1]"q\"""#)
    }
}
