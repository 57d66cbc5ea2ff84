import Foundation
import SiftLanguage
import Testing
@testable import SiftEvaluation

@Suite("JSON projection")
struct JSONProjectionTests {
    typealias T = JSONTestSupport

    static func keys(_ format: String, _ arguments: Any?...) throws -> Set<String>? {
        JSONProjection.keys(readBy: try PredicateNode(format: format, arguments: arguments))
    }

    @Test func thePredicatesTopLevelKeys() throws {
        #expect(try Self.keys("age > 1 AND name == 'x'") == ["age", "name"])
        #expect(try Self.keys("a.b.c == 1 OR NOT d BEGINSWITH 'x'") == ["a", "d"])
        #expect(try Self.keys("ANY tags.name == 'x' AND items.@sum.price > 3") == ["tags", "items"])
        #expect(try Self.keys("SELF.a == 1 AND SELF['b'] == 2") == ["a", "b"])
        #expect(try Self.keys("%K == %@", "title", "x") == ["title"])
        #expect(try Self.keys("TRUEPREDICATE") == [])
        #expect(try Self.keys("$x.a == 1 AND 1 == 1") == [])
        #expect(try Self.keys("sum:(a) > b + 1 AND TERNARY(c > 1, d, e) == f[FIRST]") == ["a", "b", "c", "d", "e", "f"])
        #expect(try Self.keys("CAST(d, 'NSDate') > CAST(0, 'NSDate') AND -x < 1 AND ($y := z) == 1") == ["d", "x", "z"])
        #expect(try Self.keys("FUNCTION(price, 'multiply:by:', qty) > 1") == ["price", "qty"])
        #expect(try Self.keys("SUBQUERY(items, $i, $i.p > 1).@count > 0") == ["items"])
        #expect(try Self.keys("list[idx] == 1") == ["list", "idx"])
    }

    @Test func predicatesThatReadTheWholeObject() throws {
        #expect(try Self.keys("SELF == 1") == nil)
        #expect(try Self.keys("@count == 2") == nil)
        #expect(try Self.keys("SELF[0] == 1") == nil)
        #expect(try Self.keys("SELF[FIRST] == 1") == nil)
        #expect(try Self.keys("a == 1 AND 'x' IN SELF") == nil)
        #expect(try Self.keys("SUBQUERY(SELF, $x, $x == 1).@count > 0") == nil)
    }

    @Test func firstKeysOfKeyPaths() {
        #expect(JSONProjection.firstKey(ofKeyPath: "age") == "age")
        #expect(JSONProjection.firstKey(ofKeyPath: "address.city") == "address")
        #expect(JSONProjection.firstKey(ofKeyPath: "tags.@count") == "tags")
        #expect(JSONProjection.firstKey(ofKeyPath: "items[FIRST].name") == "items")
        #expect(JSONProjection.firstKey(ofKeyPath: "_a1") == "_a1")
        #expect(JSONProjection.firstKey(ofKeyPath: "@count") == nil)
        #expect(JSONProjection.firstKey(ofKeyPath: "#size") == nil)
        #expect(JSONProjection.firstKey(ofKeyPath: "1a") == nil)
        #expect(JSONProjection.firstKey(ofKeyPath: "") == nil)
        #expect(JSONProjection.firstKey(ofKeyPath: "SELF") == nil)
        #expect(JSONProjection.firstKey(ofKeyPath: "self.a") == nil)
        #expect(JSONProjection.firstKey(ofKeyPath: "size") == nil)
    }

    @Test func projectedRecordsKeepOnlyTheirKeys() throws {
        let text = #"{"a": 1, "b": {"x": [1, 2]}, "c": "s", "a": 3}"# + "\n" + #"[1, {"a": 2}]"# + "\n" + #"{"$date": "2001-01-01T00:00:00Z"}"# + "\n{}\n"
        let records = try T.records(JSONRecordReader(text: text, projection: JSONProjection(keys: ["a", "zz"])))
        #expect(T.same(records[0].value, T.object(["a": .int(3)])))
        // A top-level array is opened: its elements are records, projected as any record.
        #expect(T.same(records[1].value, .int(1)))
        #expect(T.same(records[2].value, T.object(["a": .int(2)])))
        #expect(T.same(records[3].value, .date(Date(timeIntervalSinceReferenceDate: 0))))
        #expect(T.same(records[4].value, .dictionary(ValueDictionary())))
        #expect(String(decoding: records[0].text, as: UTF8.self) == #"{"a": 1, "b": {"x": [1, 2]}, "c": "s", "a": 3}"#)
    }

    @Test func skippedValuesAreStillChecked() throws {
        let projection = JSONProjection(keys: ["a"])
        for (text, message, column) in [
            (#"{"a": 1, "b": [1, 2,]}"#, "unexpected character ']'", 21),
            (#"{"a": 1, "b": {"$date": "soon"}}"#, "invalid ISO 8601 date 'soon'", 25),
            (#"{"a": 1, "b": "x\qy"}"#, "invalid escape in a string", 18),
            // An invalid escape after a high surrogate, at the escape (found by fuzz-evaluate).
            (#"{"a": 1, "b": "x\ud83d\ud-;"}"#, "invalid \\u escape", 24),
            (#"{"a": 1, "b": tru}"#, "invalid literal", 15),
            (#"{"a": 1 "b": 2}"#, "expected ',' or '}'", 9),
            (#"{"b": {"c" 1}, "a": 1}"#, "expected ':'", 12),
        ] {
            for p in [nil, projection] {
                let reader = JSONRecordReader(text: text, projection: p)
                do {
                    _ = try T.records(reader)
                    Issue.record("no error for \(text)")
                } catch let error as JSONSyntaxError {
                    #expect(error.message == message && error.column == column, "\(text): \(error)")
                }
            }
        }
    }

    @Test func theNestingLimitHoldsInSkippedValues() throws {
        let depth = JSONParser.maximumDepth  // one more than the limit, counting the record's object
        let text = #"{"a": 1, "b": "# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
        for p in [nil, JSONProjection(keys: ["a"])] {
            do {
                _ = try T.records(JSONRecordReader(text: text, projection: p))
                Issue.record("no error")
            } catch let error as JSONSyntaxError {
                #expect(error.message == "JSON nested too deeply")
                #expect(error.column == 15 + depth - 1)
            }
        }
        let fits = #"{"a": 1, "b": "# + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}"
        #expect(try T.records(JSONRecordReader(text: fits, projection: JSONProjection(keys: ["a"]))).count == 1)
    }

    /// Random records read with a random projection are the full records restricted to the
    /// projection's keys.
    @Test func projectionIsRestriction() throws {
        var random = JSONTestRandom(seed: 77)
        for round in 0..<300 {
            let values = (0..<random.int(1...8)).map { _ -> Value in
                if random.chance(80) {
                    var dictionary = ValueDictionary()
                    for _ in 0..<random.int(0...6) { dictionary[random.chance(50) ? ["a", "b", "é", "e\u{301}x"][random.int(0...3)] : random.string()] = random.value(depth: 1) }
                    return .dictionary(dictionary)
                }
                return random.value()
            }
            var keys: Set<String> = ["a"]
            for _ in 0..<random.int(0...3) { keys.insert(random.chance(50) ? ["b", "é", "zz"][random.int(0...2)] : random.string()) }
            let projection = JSONProjection(keys: keys)
            let text = "[" + values.map { $0.jsonString(prettyPrinted: random.chance(30)) }.joined(separator: ",\n") + "]"
            for chunkSize in [17, 1 << 20] {
                let records = try T.withTemporaryFile(Array(text.utf8)) { path -> [JSONRecordReader.Record] in
                    let handle = try #require(FileHandle(forReadingAtPath: path))
                    defer { try? handle.close() }
                    return try T.records(JSONRecordReader(fileHandle: handle, chunkSize: chunkSize, projection: projection))
                }
                #expect(records.count == values.count)
                for (record, value) in zip(records, values) {
                    var expected = value
                    if case .dictionary(let dictionary) = value, dictionary.keys.first?.hasPrefix("$") != true {
                        expected = .dictionary(ValueDictionary(dictionary.pairs.filter { keys.contains($0.0) }))
                    }
                    #expect(T.same(record.value, expected), "round \(round): \(value.jsonString()) with \(keys)")
                }
            }
        }
    }

    /// Broken records give the same error (message, line, column) with and without a
    /// projection: skipping checks what scanning checks.
    @Test func projectionReportsTheSameErrors() throws {
        var random = JSONTestRandom(seed: 5)
        var compared = 0
        for _ in 0..<1500 {
            var dictionary = ValueDictionary()
            for _ in 0..<random.int(1...5) { dictionary[random.chance(50) ? "a" : random.string()] = random.value(depth: 1) }
            var bytes = Array(Value.dictionary(dictionary).jsonString(prettyPrinted: random.chance(30)).utf8)
            for _ in 0..<random.int(1...2) {
                var at = random.int(0...bytes.count - 1)
                while bytes[at] >= 0x80 { at = random.int(0...bytes.count - 1) }
                let replacements = Array(#"}]:,x"\[{0-e.u"#.utf8)
                bytes[at] = replacements[random.int(0...replacements.count - 1)]
            }
            let lines = bytes + [0x0A]
            func error(_ projection: JSONProjection?) throws -> JSONSyntaxError? {
                do {
                    _ = try T.records(JSONRecordReader(bytes: lines, projection: projection))
                    return nil
                } catch let error as JSONSyntaxError {
                    return error
                }
            }
            let full = try error(nil)
            let projected = try error(JSONProjection(keys: ["a"]))
            guard let full else {
                #expect(projected == nil)
                continue
            }
            compared += 1
            #expect(projected == JSONSyntaxError(message: full.message, line: full.line, column: full.column, offset: full.offset),
                    "\(String(decoding: bytes, as: UTF8.self))")
        }
        #expect(compared > 500)
    }
}
