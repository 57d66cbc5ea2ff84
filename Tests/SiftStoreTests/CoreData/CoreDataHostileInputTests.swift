import Foundation
import Testing
@testable import SiftStore

/// Damaged and hostile model caches and archives give an error, never a crash or a hang.
@Suite struct CoreDataHostileInputTests {
    static func deflated(_ bytes: [UInt8]) -> Data {
        // A stored (uncompressed) raw deflate block: final, type 0, length, its complement.
        let n = UInt16(bytes.count)
        return Data([0x01, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)] + bytes)
    }

    @Test func inflateRoundTripsAStoredBlock() throws {
        #expect(try RawInflate.inflate(Self.deflated(Array("hello".utf8))) == Data("hello".utf8))
    }

    @Test(arguments: [
        (Data(), "empty"), (Data([0x01, 0x05, 0x00]), "ends early"), (Data([0xFF, 0xFF, 0xFF]), "damaged"),
        (deflated([1, 2, 3]) + Data([9]), "after its end"),
    ])
    func damagedInflateInput(_ input: Data, _ words: String) {
        #expect { try RawInflate.inflate(input) } throws: { ($0 as? CoreDataModelError)?.message.contains(words) == true }
    }

    @Test func inflateLimit() throws {
        let big = Self.deflated([UInt8](repeating: 7, count: 60_000))
        #expect { try RawInflate.inflate(big, limit: 1000) } throws: { ($0 as? CoreDataModelError)?.message.contains("more than 1000 bytes") == true }
    }

    static func archive(_ objects: [Any]) throws -> Data {
        let plist: [String: Any] = ["$archiver": "NSKeyedArchiver", "$version": 100000, "$top": ["root": uid(1)], "$objects": objects]
        return UIDPropertyListWriter.data(plist)
    }

    /// A UID: Foundation on Linux has no public UID type (and writes `{"CF$UID": n}` as a plain
    /// dictionary), so ``UIDPropertyListWriter`` writes this placeholder as a UID.
    static func uid(_ n: Int) -> [String: Any] { ["CF$UID": n] }

    @Test func notAPropertyList() {
        #expect(throws: CoreDataModelError.self) { try KeyedArchive(Data("not a plist at all, not at all, no".utf8)) }
    }

    @Test func truncatedArchive() throws {
        let data = try Self.archive(["$null", ["$class": Self.uid(2)], ["$classname": "NSManagedObjectModel", "$classes": ["NSManagedObjectModel"]]])
        for cut in stride(from: 0, to: data.count, by: 7) {
            #expect(throws: CoreDataModelError.self) { try CoreDataModel(archive: data.prefix(cut)) }
        }
    }
}
