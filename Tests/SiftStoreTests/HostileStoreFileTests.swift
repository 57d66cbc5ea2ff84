import Foundation
import SiftEvaluation
import SiftLanguage
import Testing
@testable import SiftStore

/// Store files made to hurt: a binary property list whose trailer claims 2^62 objects, one
/// nested a million deep, a JSON store nested a million deep or holding bytes that are not
/// UTF-8. Each is a `corruptStore` error in words (never `Error Domain=…`), found at once:
/// nothing is allocated for what the file only claims, and nothing recurses a million deep.
@Suite struct HostileStoreFileTests {
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sift-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func expectCorrupt(_ url: URL, _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let started = ContinuousClock.now
        do {
            _ = try AtomicStore.open(at: url)
            Issue.record("opened \(url.lastPathComponent)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == .corruptStore, "\(error.message)", sourceLocation: sourceLocation)
            #expect(error.message.hasPrefix("\(url.path) is not a valid Sift store: "), "\(error.message)", sourceLocation: sourceLocation)
            #expect(error.message.contains(fragment), "\(error.message)", sourceLocation: sourceLocation)
            #expect(!error.message.contains("Error Domain") && !error.message.contains("Code="), "\(error.message)", sourceLocation: sourceLocation)
            #expect(error.message.utf8.count < 600, sourceLocation: sourceLocation)
        }
        #expect(ContinuousClock.now - started < .seconds(2), sourceLocation: sourceLocation)
    }

    /// A binary property list of `count` arrays, each holding the next (the last empty).
    static func nestedPropertyList(_ count: Int) -> Data {
        var out = Data("bplist00".utf8)
        var offsets: [Int] = []
        for i in 0..<count {
            offsets.append(out.count)
            if i < count - 1 {
                out.append(0xA1)
                withUnsafeBytes(of: UInt32(i + 1).bigEndian) { out.append(contentsOf: $0) }
            } else {
                out.append(0xA0)
            }
        }
        let table = out.count
        for offset in offsets { withUnsafeBytes(of: UInt32(offset).bigEndian) { out.append(contentsOf: $0) } }
        out.append(contentsOf: [0, 0, 0, 0, 0, 0, 4, 4])
        for field in [UInt64(count), 0, UInt64(table)] { withUnsafeBytes(of: field.bigEndian) { out.append(contentsOf: $0) } }
        return out
    }

    @Test func propertyListsThatClaimTooMuch() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try JSONModelFormat.read(Data(#"{"name": "M", "entities": [{"name": "Note", "attributes": [{"name": "title", "type": "String"}]}]}"#.utf8))
        let valid = directory.appendingPathComponent("valid.plist")
        let store = try AtomicStore.create(at: valid, model: model)
        try store.insert("Note", id: "N1", ["title": .string("hello")])
        try store.save()
        let data = try Data(contentsOf: valid)
        // The trailer's object count, as 2^62 and 2^40.
        for (name, count) in [("huge62", UInt64(1) << 62), ("huge40", UInt64(1) << 40)] {
            var patched = data
            withUnsafeBytes(of: count.bigEndian) { patched.replaceSubrange(patched.count - 24..<patched.count - 16, with: $0) }
            let url = directory.appendingPathComponent("\(name).plist")
            try patched.write(to: url)
            Self.expectCorrupt(url, "damaged binary property list")
        }
        let deep = directory.appendingPathComponent("deep.plist")
        try Self.nestedPropertyList(1_000_000).write(to: deep)
        Self.expectCorrupt(deep, "damaged binary property list")
        let cut = directory.appendingPathComponent("cut.plist")
        try Data(data.prefix(data.count / 2)).write(to: cut)
        Self.expectCorrupt(cut, "restore a copy")
    }

    /// A binary property list holding a set crashed the process inside Foundation (fuzz-atomic-store
    /// found it); a set is refused before Foundation reads the file, nested or at the top.
    @Test func propertyListsHoldingASetAreRefusedBeforeFoundationReadsThem() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Objects: 0 an array holding 1; 1 a set holding 2; 2 the string "a".
        var out = Data("bplist00".utf8)
        let objects: [[UInt8]] = [[0xA1, 1], [0xC1, 2], [0x51, 0x61]]
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(out.count))
            out.append(contentsOf: object)
        }
        let table = out.count
        out.append(contentsOf: offsets)
        out.append(contentsOf: [0, 0, 0, 0, 0, 0, 1, 1])
        for field in [UInt64(objects.count), 0, UInt64(table)] { withUnsafeBytes(of: field.bigEndian) { out.append(contentsOf: $0) } }
        #expect(BinaryPropertyListScreen.refusal(out) == "it holds a set (object 1), which no Sift store or model holds")
        let url = directory.appendingPathComponent("set.plist")
        try out.write(to: url)
        Self.expectCorrupt(url, "it holds a set")
        // Without the set (the array holds the string), the screen lets it through.
        var plain = out
        plain[8 + 1] = 2
        plain[10] = 0xA0
        #expect(BinaryPropertyListScreen.refusal(plain) == nil)
    }

    @Test func jsonStoresNestedTooDeepOrNotUTF8() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let deep = directory.appendingPathComponent("deep.json")
        try Data((#"{"sift": "store", "version": 1, "model": {"entities": []}, "objects": "#
                  + String(repeating: "[", count: 1_000_000) + String(repeating: "]", count: 1_000_000) + "}").utf8).write(to: deep)
        Self.expectCorrupt(deep, "not JSON: line 1, column ")
        let latin1 = directory.appendingPathComponent("latin1.json")
        try Data(Array(#"{"sift": "store", "version": 1, "model": {"entities": []}, "objects": [], "note": "caf"#.utf8) + [0xE9] + Array("\"}".utf8))
            .write(to: latin1)
        Self.expectCorrupt(latin1, "invalid UTF-8 in a string")
    }
}
