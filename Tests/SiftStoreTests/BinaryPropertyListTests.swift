import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore

/// The binary store's file without Foundation's property list classes: what
/// `BinaryPropertyListWriter` writes, Foundation reads as the same values, and what Foundation
/// writes (every binary store an earlier Sift saved), `BinaryPropertyListReader` reads; objects
/// that refer to each other in a loop, or so that they double at each level, are an error found
/// at once.
@Suite struct BinaryPropertyListTests {
    static let long = String(repeating: "x", count: 40)

    /// Values of every kind and size the format has a form for.
    static let sample: Value = .dictionary(ValueDictionary([
        ("small", .int(7)), ("byte", .int(200)), ("short", .int(60_000)), ("word", .int(4_000_000_000)), ("large", .int(Int64.max)),
        ("negative", .int(-5)), ("smallest", .int(Int64.min)),
        ("real", .double(0.1)), ("huge", .double(.infinity)), ("yes", .bool(true)), ("no", .bool(false)),
        ("date", .date(Date(timeIntervalSinceReferenceDate: 636_000_000.123_456_7))),
        ("data", .data(Data((0..<40).map { UInt8($0) }))), ("empty", .string("")), ("ascii", .string(long)),
        ("unicode", .string("Zoë 日本 🙂 " + long)),
        ("array", .array((0..<20).map { .int(Int64($0 % 3)) })), ("nested", .array([.array([]), .dictionary(ValueDictionary())])),
        ("wide", .dictionary(ValueDictionary((0..<20).map { ("k\($0)", .string("v\($0 % 2)")) }))),
    ]))

    static func json(_ value: Value) -> String { JSONWriter.string(value) }

    @Test func whatItWritesFoundationReadsAndItReadsBack() throws {
        let data = BinaryPropertyListWriter.data(Self.sample)
        #expect(data.starts(with: Array("bplist00".utf8)))
        let read = try BinaryPropertyListReader.read(data)
        #expect(Self.json(read) == Self.json(Self.sample))
        // Foundation reads the same values.
        let foundation = try PropertyListSerialization.propertyList(from: data, options: [], format: nil) as? [String: Any]
        #expect(foundation?["large"] as? Int == Int.max)
        #expect(foundation?["smallest"] as? Int == Int.min)
        #expect(foundation?["unicode"] as? String == "Zoë 日本 🙂 " + Self.long)
        #expect(foundation?["date"] as? Date == Date(timeIntervalSinceReferenceDate: 636_000_000.123_456_7))
        #expect((foundation?["data"] as? Data)?.count == 40)
        #expect((foundation?["wide"] as? [String: String])?["k19"] == "v1")
        #expect((foundation?["array"] as? [Int])?.reduce(0, +) == 19)
        // Each string and number is written once: 20 keys "k…", two values, in one dictionary.
        let once = BinaryPropertyListWriter.data(.array(Array(repeating: .string(Self.long), count: 1000)))
        #expect(once.count < 1000 * 2 + 200)
    }

    @Test func whatFoundationWritesItReads() throws {
        let plist: [String: Any] = ["name": "Zoë", "n": 42, "big": Int64.max, "minus": -3, "real": 2.5, "flag": true,
                                    "when": Date(timeIntervalSinceReferenceDate: 1000.5), "bytes": Data([1, 2, 3]),
                                    "list": [1, "two", [3.0]], "map": ["a": "b"]]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        guard case .dictionary(let read) = try BinaryPropertyListReader.read(data) else {
            Issue.record("not a dictionary")
            return
        }
        #expect(read["name"].map(Self.json) == Self.json(.string("Zoë")))
        #expect(read["n"].map(Self.json) == "42")
        #expect(read["big"].map(Self.json) == "\(Int64.max)")
        #expect(read["minus"].map(Self.json) == "-3")
        #expect(read["real"].map(Self.json) == "2.5")
        #expect(read["flag"].map(Self.json) == "true")
        #expect(read["when"].map(Self.json) == Self.json(.date(Date(timeIntervalSinceReferenceDate: 1000.5))))
        #expect(read["bytes"].map(Self.json) == Self.json(.data(Data([1, 2, 3]))))
        #expect(read["list"].map(Self.json) == #"[1,"two",[3.0]]"#)
        #expect(read["map"].map(Self.json) == #"{"a":"b"}"#)
    }

    /// A binary property list of hand-made objects (each a marker and its bytes, references of
    /// one byte), the first the top.
    static func plist(_ objects: [[UInt8]]) -> Data {
        var out = Data("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(out.count))
            out.append(contentsOf: object)
        }
        let table = out.count
        out.append(contentsOf: offsets)
        out.append(contentsOf: [0, 0, 0, 0, 0, 0, 1, 1])
        for field in [UInt64(objects.count), 0, UInt64(table)] { withUnsafeBytes(of: field.bigEndian) { out.append(contentsOf: $0) } }
        return out
    }

    @Test(arguments: [
        // An array holding itself.
        ([[0xA1, 0]], "more often than its bytes could"),
        // Arrays that each hold the next twice: 2^20 paths to the last.
        ((0..<20).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] } + [[0x50]], "more often than its bytes could"),
        // A dictionary whose key is a number.
        ([[0xD1, 1, 1], [0x10, 7]], "not a string"),
        // A string said to be longer than the file.
        ([[0x5F, 0x10, 200]], "more than the file holds"),
        ([[0x55, 0x61]], "runs past the end"),
        // A reference to an object the file does not have.
        ([[0xA1, 9]], "a reference to object 9"),
        // A dictionary whose key is such a reference (found by fuzz-atomic-store: a trap).
        ([[0xD1, 9, 1], [0x50]], "a reference to object 9"),
        // A set.
        ([[0xC1, 1], [0x50]], "it holds a set"),
    ] as [([[UInt8]], String)])
    func hostileObjectsAreErrorsFoundAtOnce(_ objects: [[UInt8]], _ message: String) {
        let started = ContinuousClock.now
        do {
            _ = try BinaryPropertyListReader.read(Self.plist(objects))
            Issue.record("read \(objects)")
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
        }
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test func aStoreWrittenByFoundationStillOpens() throws {
        // The binary stores earlier Sifts saved: Foundation's writer, keys in any order, no
        // object shared. Opened, saved (now written here), opened again: the same objects.
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try DataModel(name: "M", entities: [EntityDescription(name: "Note", attributes: [
            AttributeDescription(name: "title", type: .string), AttributeDescription(name: "at", type: .date), AttributeDescription(name: "n", type: .integer64),
        ])])
        let objects: [[String: Any]] = (0..<30).map { i in
            var object: [String: Any] = ["@entity": "Note", "@id": "N\(i)", "title": "note \(i)", "n": i]
            if i % 3 == 0 { object["at"] = Date(timeIntervalSinceReferenceDate: Double(i)) }
            return object
        }
        let root: [String: Any] = ["sift": "store", "version": 1, "model": JSONModelFormat.write(model), "objects": objects]
        let url = directory.appendingPathComponent("old.plist")
        try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0).write(to: url)
        let store = try AtomicStore.open(at: url)
        #expect(try store.count(FetchRequest(statement: "Note WHERE at != nil AND n > 10")) == 6)
        try store.insert("Note", id: "N30", ["title": .string("new")])
        try store.save()
        let again = try AtomicStore.open(at: url)
        #expect(try again.count(FetchRequest(entityName: "Note")) == 31)
        #expect(try again.count(FetchRequest(statement: "Note WHERE at != nil AND n > 10")) == 6)
        #expect(try again.fetch(FetchRequest(statement: "Note WHERE n == 12")).first?[attribute: "title"].map(Self.json) == #""note 12""#)
    }
}
